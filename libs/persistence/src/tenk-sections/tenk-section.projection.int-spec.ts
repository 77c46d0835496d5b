// @infra-path: its SQL runs on the server's own Postgres: docker-compose.yml's postgres:17 in containers, the machine's (15 on CI) locally.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import type { RecordEnvelope, TenkSectionData } from '@app/contracts';
import { createTestDatabase, type TestDatabase } from '@app/testing';
import { createDataSource } from '../data-source';
import { catalogColumns, schemaDifferences } from '../schema-check';
import { TABLES } from '../tables';
import { TenkSectionsRepository } from './tenk-sections.repository';
import type { BatchOutcome } from '../projections/batch-outcome';
import { projectTenkSections } from './tenk-section.projection';

type Envelope = RecordEnvelope<TenkSectionData>;
/** Item 1 of Tesla's 10-K for 2024, as ingest-sec maps it from the fixture. */
const tsla2024 = JSON.parse(readFileSync(join(__dirname, '../../../contracts/src/examples/tenk-section@1.tsla-item-1.json'), 'utf8')) as Envelope;

// Variants of the real record: the same item of an older 10-K (Tesla's for 2021, 0000950170-22-000796),
// and of a newer one whose Item 1 was not extracted (no text, no description).
const tsla2021: Envelope = {
  ...tsla2024,
  key: '0000950170-22-000796|1',
  id: 'rec_00000000000000000000000000002021',
  provenance: { ...tsla2024.provenance, accession: '0000950170-22-000796' },
  data: { ...tsla2024.data, accession: '0000950170-22-000796', period_ended: '2021-12-31', filed_date: '2022-02-07' },
};
const tsla2025Failed: Envelope = {
  ...tsla2024,
  key: '0000000000-26-000001|1',
  id: 'rec_00000000000000000000000000002025',
  data: {
    ...tsla2024.data,
    accession: '0000000000-26-000001',
    period_ended: '2025-12-31',
    status: 'failed',
    reason: 'implausibly long: 260000 characters (at most 250000)',
    text: null,
    description: null,
  },
};

let db: TestDatabase;
let ds: DataSource;
let repo: TenkSectionsRepository;
const project = (envelopes: Envelope[]): Promise<BatchOutcome> => ds.transaction((m) => projectTenkSections(m, envelopes));

beforeAll(async () => {
  db = await createTestDatabase('tenk_sections_proj');
  ds = createDataSource({ url: db.url });
  await ds.initialize();
  repo = new TenkSectionsRepository(ds);
}, 60_000);

afterAll(async () => {
  await ds?.destroy();
  await db?.drop();
});

beforeEach(() => ds.query('TRUNCATE tenk_sections, tenk_descriptions'));

describe('projectTenkSections', () => {
  it('stores the section and the description; the same record again writes nothing', async () => {
    expect(await project([tsla2024, tsla2024])).toEqual({ inserted: [tsla2024.key], updated: [], unchanged: 1 });
    expect(await project([tsla2024])).toEqual({ inserted: [], updated: [], unchanged: 1 });
    const section = await repo.section('0001318605', '1');
    expect(section).toMatchObject({ accession: '0001628280-25-003063', status: 'extracted', charStart: 8281, charEnd: 57889, periodEnded: '2024-12-31' });
    expect(section!.text).toBe(tsla2024.data.text);
    const description = await repo.description('0001318605');
    expect(description).toMatchObject({ accession: '0001628280-25-003063', description: tsla2024.data.description!.text, charStart: 8307 });
    expect(description!.provenance.quote).toBe(tsla2024.data.description!.text);
  });

  it('an older 10-K never replaces the newer one, in one batch or later', async () => {
    expect(await project([tsla2024, tsla2021])).toMatchObject({ inserted: [tsla2024.key], unchanged: 1 });
    expect(await project([tsla2021])).toEqual({ inserted: [], updated: [], unchanged: 1 });
    expect((await repo.section('0001318605', '1'))!.accession).toBe('0001628280-25-003063');
    expect((await repo.description('0001318605'))!.accession).toBe('0001628280-25-003063');
  });

  it('a newer 10-K replaces the older one, and it replaces the description only when it gives one', async () => {
    await project([tsla2021]);
    expect((await repo.description('0001318605'))!.accession).toBe('0000950170-22-000796');
    expect(await project([tsla2024])).toEqual({ inserted: [], updated: [tsla2024.key], unchanged: 0 });
    expect((await repo.description('0001318605'))!.accession).toBe('0001628280-25-003063');
    await project([tsla2025Failed]);
    expect(await repo.section('0001318605', '1')).toMatchObject({ accession: '0000000000-26-000001', status: 'failed', text: null });
    // Never replaced by an empty one: the newest 10-K that gave a description keeps it.
    expect((await repo.description('0001318605'))!.accession).toBe('0001628280-25-003063');
  });
});

describe('tenk_sections and tenk_descriptions', () => {
  it('the table specs and the migration agree (what db:check asks of the whole schema)', async () => {
    const differences = schemaDifferences(TABLES, await catalogColumns(ds));
    expect(differences.filter((q) => /tenk_/.test(q))).toEqual([]);
  });
});
