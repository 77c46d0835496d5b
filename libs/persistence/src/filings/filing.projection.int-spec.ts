// @infra-path: its SQL runs on the server's own Postgres: docker-compose.yml's postgres:17 in containers, the machine's (15 on CI) locally.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import type { FilingData, RecordEnvelope } from '@app/contracts';
import { createTestDatabase, type TestDatabase } from '@app/testing';
import { createDataSource } from '../data-source';
import { catalogColumns, schemaDifferences } from '../schema-check';
import { TABLES } from '../tables';
import { FilingsRepository } from './filings.repository';
import type { BatchOutcome } from '../projections/batch-outcome';
import { projectFilings } from './filing.projection';

const example = JSON.parse(
  readFileSync(join(__dirname, '../../../contracts/src/examples/filing@1.msft-10-k.json'), 'utf8'),
) as RecordEnvelope<FilingData>;

/** A variant of the real example: another observation time, other data. */
const at = (observed_at: string, data: Partial<FilingData>, id = example.id): RecordEnvelope<FilingData> => ({ ...example, id, observed_at, data: { ...example.data, ...data } });
const other = (n: number): RecordEnvelope<FilingData> => {
  const accession = `0000950170-25-90000${n}`;
  return { ...example, key: accession, provenance: { ...example.provenance, accession }, data: { ...example.data, accession } };
};

let db: TestDatabase;
let ds: DataSource;
/** The outcome's keys and count (the written rows are checked on their own). */
const project = async (envelopes: RecordEnvelope<FilingData>[]): Promise<Omit<BatchOutcome, 'firstServed'>> => {
  const { firstServed: _served, ...outcome } = await ds.transaction((m) => projectFilings(m, envelopes));
  return outcome;
};
const size = async (accession: string) => (await new FilingsRepository(ds).findByAccession(accession))?.size;

beforeAll(async () => {
  db = await createTestDatabase('filings_proj');
  ds = createDataSource({ url: db.url });
  await ds.initialize();
}, 60_000);

afterAll(async () => {
  await ds?.destroy();
  await db?.drop();
});

describe('filings read model', () => {
  it('table specs and migrations agree (what db:check asks)', async () => {
    const differences = schemaDifferences(TABLES, await catalogColumns(ds));
    expect(differences).toEqual([]);
  });

  it('returns the keys it inserted and updated, and counts the records it left alone', async () => {
    const changed = { ...other(2), id: 'rec_other_2_changed', data: { ...other(2).data, size: 12345 } };
    await project([other(2)]);
    expect(await project([other(2), changed, other(3)])).toEqual({ inserted: [other(3).key], updated: [other(2).key], unchanged: 1 });
    expect(await size(other(2).key)).toBe(12345);
    expect(await size(other(3).key)).toBe(other(3).data.size);
  });

  it('projects a batch idempotently: the same record twice is one row, and a replay writes nothing', async () => {
    expect(await project([example, example, other(1)])).toEqual({ inserted: [example.key, other(1).key], updated: [], unchanged: 1 });
    expect(await project([example, other(1)])).toEqual({ inserted: [], updated: [], unchanged: 2 });
    const row = await new FilingsRepository(ds).findByAccession('0000950170-25-100235');
    expect(row).toMatchObject({
      accession: '0000950170-25-100235',
      cik: '0000789019',
      companyName: 'MICROSOFT CORP',
      form: '10-K',
      filedDate: '2025-07-30',
      reportPeriod: '2025-06-30',
      size: 34889671,
      items: [],
      isAmendment: false,
      source: 'submissions',
      provenance: example.provenance,
    });
    expect(row!.acceptedAt!.toISOString()).toBe('2025-07-30T20:11:40.000Z');
  });

  it('lets the later of two records of one accession in a batch win', async () => {
    const a = at('2025-08-03T00:00:00.000Z', { size: 34889672 }, 'rec_a');
    const b = at('2025-08-04T00:00:00.000Z', { size: 34889673 }, 'rec_b');
    expect(await project([a, b])).toEqual({ inserted: [], updated: [example.key], unchanged: 1 });
    expect(await size(example.key)).toBe(34889673);
  });

  it('never lets an older record regress the row, in a batch or after it', async () => {
    const older = at('2025-08-01T00:00:00.000Z', { size: 1 });
    expect(await project([older])).toEqual({ inserted: [], updated: [], unchanged: 1 });
    // older than the row, then newer than the row but older than the first: the second writes, as sequentially
    const tooOld = at('2025-08-09T00:00:00.000Z', { size: 2 });
    const newer = at('2025-08-05T00:00:00.000Z', { size: 3 });
    expect(await project([at('2025-08-02T00:00:00.000Z', { size: 4 }), newer])).toEqual({ inserted: [], updated: [example.key], unchanged: 1 });
    expect(await size(example.key)).toBe(3);
    expect(await project([tooOld, older])).toEqual({ inserted: [], updated: [example.key], unchanged: 1 });
    expect(await size(example.key)).toBe(2);
  });

  it('never blanks a known acceptance time, after the row or within a batch', async () => {
    const acceptedAt = (accession: string) => new FilingsRepository(ds).findByAccession(accession).then((f) => f?.acceptedAt?.toISOString());
    const feed = (n: number, source: FilingData['source'], observed_at: string, accepted_at: string | null): RecordEnvelope<FilingData> => ({
      ...other(n),
      id: `rec_${n}_${source}`,
      observed_at,
      data: { ...other(n).data, source, accepted_at, primary_document_url: null },
    });
    // The current events listing (no acceptance time), then the latest-filings feed (richer): the feed's row.
    expect(await project([feed(5, 'current_events', '2025-08-01T00:00:00.000Z', null)])).toMatchObject({ inserted: [other(5).key] });
    expect(await project([feed(5, 'latest_filings', '2025-08-01T00:00:01.000Z', '2025-07-31T21:00:00.000Z')])).toMatchObject({ updated: [other(5).key] });
    // The listing again, later: poorer, it changes nothing.
    expect(await project([feed(5, 'current_events', '2025-08-01T00:00:02.000Z', null)])).toMatchObject({ unchanged: 1 });
    expect(await new FilingsRepository(ds).findByAccession(other(5).key)).toMatchObject({ source: 'latest_filings' });
    expect(await acceptedAt(other(5).key)).toBe('2025-07-31T21:00:00.000Z');
    // The same listing later without one (its index page not read that time) updates the row and keeps the acceptance time.
    expect(await project([feed(6, 'current_events', '2025-08-01T00:00:00.000Z', '2025-07-31T21:00:05.000Z')])).toMatchObject({ inserted: [other(6).key] });
    expect(await project([feed(6, 'current_events', '2025-08-01T00:00:01.000Z', null)])).toMatchObject({ updated: [other(6).key] });
    expect(await acceptedAt(other(6).key)).toBe('2025-07-31T21:00:05.000Z');
    // Within a batch too: the later record wins, with the acceptance time the earlier one gave.
    const batch = [feed(7, 'current_events', '2025-08-01T00:00:00.000Z', '2025-07-31T21:00:09.000Z'), feed(7, 'current_events', '2025-08-01T00:00:01.000Z', null)];
    expect(await project(batch)).toEqual({ inserted: [other(7).key], updated: [], unchanged: 1 });
    expect(await acceptedAt(other(7).key)).toBe('2025-07-31T21:00:09.000Z');
  });

  it('keeps the earliest sighting as first_seen_at, after the row or within a batch', async () => {
    const firstSeen = (n: number) => new FilingsRepository(ds).findByAccession(other(n).key).then((f) => f?.firstSeenAt?.toISOString());
    const seen = (n: number, observed_at: string, source: FilingData['source'] = 'current_events'): RecordEnvelope<FilingData> => ({
      ...other(n),
      id: `rec_${n}_${observed_at}`,
      observed_at,
      data: { ...other(n).data, source, primary_document_url: `https://www.sec.gov/Archives/edgar/data/${n}/${observed_at}.htm` },
    });
    await project([seen(17, '2025-08-01T00:00:00.000Z')]);
    expect(await firstSeen(17)).toBe('2025-08-01T00:00:00.000Z');
    // A richer, later record updates the row, and the sighting stays.
    expect(await project([seen(17, '2025-08-02T00:00:00.000Z', 'submissions')])).toMatchObject({ updated: [other(17).key] });
    expect(await firstSeen(17)).toBe('2025-08-01T00:00:00.000Z');
    // In one batch the later record wins the row, the earlier one gives the sighting.
    await project([seen(18, '2025-08-01T00:00:00.000Z'), seen(18, '2025-08-01T00:00:09.000Z', 'submissions')]);
    expect(await new FilingsRepository(ds).findByAccession(other(18).key)).toMatchObject({ source: 'submissions' });
    expect(await firstSeen(18)).toBe('2025-08-01T00:00:00.000Z');
  });

  it('never lets a poorer source overwrite a richer one', async () => {
    const feed = at('2025-08-10T00:00:00.000Z', { accepted_at: null, primary_document_url: null, source: 'daily_index' });
    expect(await project([feed])).toEqual({ inserted: [], updated: [], unchanged: 1 });
    const row = await new FilingsRepository(ds).findByAccession(example.key);
    expect(row).toMatchObject({ source: 'submissions', size: 2 });
    expect(row!.acceptedAt!.toISOString()).toBe('2025-07-30T20:11:40.000Z');
    // within a batch too: the feed after a newer submissions record does not win
    const rich = at('2025-08-11T00:00:00.000Z', { size: 5 });
    expect(await project([rich, { ...feed, observed_at: '2025-08-12T00:00:00.000Z' }])).toEqual({ inserted: [], updated: [example.key], unchanged: 1 });
    expect(await new FilingsRepository(ds).findByAccession(example.key)).toMatchObject({ source: 'submissions', size: 5 });
  });
});
