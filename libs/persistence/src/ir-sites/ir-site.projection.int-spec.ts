// @infra-path: its SQL runs on the server's own Postgres: docker-compose.yml's postgres:17 in containers, the machine's (15 on CI) locally.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import type { IrSiteData, RecordEnvelope } from '@app/contracts';
import { createTestDatabase, type TestDatabase } from '@app/testing';
import { createDataSource } from '../data-source';
import type { BatchOutcome } from '../projections/batch-outcome';
import { projectIrSites } from './ir-site.projection';

type Envelope = RecordEnvelope<IrSiteData>;
const EXAMPLES = join(__dirname, '../../../contracts/src/examples');
/** FRPH found from its landing page, and MSFT without a website, as ingest-ir maps them from the fixtures. */
const frphFound = JSON.parse(readFileSync(join(EXAMPLES, 'ir-site@1.frph-found.json'), 'utf8')) as Envelope;
const msftNoWebsite = JSON.parse(readFileSync(join(EXAMPLES, 'ir-site@1.msft-no-website.json'), 'utf8')) as Envelope;

/** FRPH's site failing at `observedAt` (the crawler's next outcome for the same CIK). */
const frphFailedAt = (observedAt: string): Envelope => ({
  ...frphFound,
  id: `rec_${observedAt.replace(/\D/g, '').padEnd(32, '0').slice(0, 32)}`,
  observed_at: observedAt,
  data: { ...frphFound.data, status: 'fetch_failed', pages: { contact: [], management: [], presentations: [], press: [], reports: [] }, detail: 'landing page answered 404', checked_at: observedAt },
});

let db: TestDatabase;
let ds: DataSource;
const project = (envelopes: Envelope[]): Promise<BatchOutcome> => ds.transaction((m) => projectIrSites(m, envelopes));
const rows = () => ds.query<Array<{ cik: string; status: string; source: string | null; landing_url: string | null }>>('SELECT cik, status, source, landing_url FROM ir_sites ORDER BY cik');

beforeAll(async () => {
  db = await createTestDatabase('ir_sites_proj');
  ds = createDataSource({ url: db.url });
  await ds.initialize();
}, 60_000);

afterAll(async () => {
  await ds?.destroy();
  await db?.drop();
});

beforeEach(() => ds.query('TRUNCATE ir_sites'));

describe('projectIrSites', () => {
  it('one row per CIK; the same record again writes nothing', async () => {
    const first = await project([frphFound, msftNoWebsite, frphFound]);
    expect({ ...first, inserted: [...first.inserted].sort() }).toEqual({ inserted: ['0000789019', '0000844059'], updated: [], unchanged: 1 });
    expect(await project([msftNoWebsite])).toEqual({ inserted: [], updated: [], unchanged: 1 });
    expect(await rows()).toEqual([
      { cik: '0000789019', status: 'no_website', source: null, landing_url: null },
      { cik: '0000844059', status: 'found', source: 'investor_website', landing_url: 'http://www.frpholdings.com/investor-relations.html' },
    ]);
  });

  it('a newer outcome replaces the row, an older one never does', async () => {
    await project([frphFound]);
    expect(await project([frphFailedAt('2026-01-01T00:00:00.000Z')])).toEqual({ inserted: [], updated: [], unchanged: 1 });
    expect((await rows())[0]!.status).toBe('found');
    expect(await project([frphFailedAt('2026-03-01T00:00:00.000Z')])).toEqual({ inserted: [], updated: ['0000844059'], unchanged: 0 });
    expect((await rows())[0]!.status).toBe('fetch_failed');
  });
});
