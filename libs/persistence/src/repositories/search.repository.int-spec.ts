import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import type { FilingData, RecordEnvelope } from '@app/contracts';
import { createTestDatabase, type TestDatabase } from '@app/testing';
import { createDataSource } from '../data-source';
import { projectRecords } from '../projections/record-projections';
import { SEARCH_KINDS, SearchRepository, type SearchAfter } from './search.repository';

const msft10k = JSON.parse(readFileSync(join(__dirname, '../../../contracts/src/examples/filing@1.msft-10-k.json'), 'utf8')) as RecordEnvelope<FilingData>;

/** Eight MSFT filings, projected oldest first (so storage order is date order): 10-Ks on even i, 10-Qs on odd. */
const accession = (i: number) => `0000950170-25-10000${i}`;
const filings = Array.from({ length: 8 }, (_, i): RecordEnvelope<FilingData> => {
  const form = i % 2 === 0 ? '10-K' : '10-Q';
  return {
    ...msft10k,
    key: accession(i),
    id: `rec_search_window_${i}`,
    provenance: { ...msft10k.provenance, accession: accession(i) },
    data: { ...msft10k.data, accession: accession(i), form, primary_doc_description: form, filed_date: `2025-01-0${i + 1}` },
  };
});

let db: TestDatabase;
let ds: DataSource;
let repo: SearchRepository;
const filingIds = async (q: string, after?: SearchAfter, limit = 10) => (await repo.search({ q, kinds: ['filing'], limit, after })).map((h) => h.id);

beforeAll(async () => {
  db = await createTestDatabase('search_repo');
  ds = createDataSource({ url: db.url });
  await ds.initialize();
  for (const f of filings) await projectRecords(ds, [f]);
  await ds.query('VACUUM ANALYZE filings');
  // Three candidates per kind: fewer than the eight filings every query below matches.
  repo = new SearchRepository(ds, { candidatesPerKind: 3 });
}, 60_000);

afterAll(async () => {
  await ds?.destroy();
  await db?.drop();
});

describe('SearchRepository: filing candidates, bounded whatever the table holds (real Postgres)', () => {
  it('a form query: the newest filings of that form (filings_search_form_idx order), whatever the window holds', async () => {
    expect(await filingIds('10-K')).toEqual([accession(6), accession(4), accession(2)]);
    expect(await filingIds('10-q')).toEqual([accession(7), accession(5), accession(3)]);
  });

  it('a text query: the text window is the first matches in storage order (here the oldest), newest first among them', async () => {
    // All eight match "microsoft" (the filer's name); the window holds the first three stored.
    expect(await filingIds('microsoft')).toEqual([accession(2), accession(1), accession(0)]);
  });

  it('an accession is a candidate whatever the window holds, and ranks first', async () => {
    const hits = await repo.search({ q: accession(7), kinds: SEARCH_KINDS, limit: 10 });
    expect(hits[0]).toMatchObject({ kind: 'filing', id: accession(7), match: 'accession' });
  });

  it('pages walk the one ranking of the capped candidates', async () => {
    const all = await filingIds('microsoft 10-K');
    const seen: string[] = [];
    let after: SearchAfter | undefined;
    for (;;) {
      const page = await repo.search({ q: 'microsoft 10-K', kinds: ['filing'], limit: 1, after });
      if (page.length === 0) break;
      seen.push(page[0]!.id);
      after = { score: page[0]!.score, kind: page[0]!.kind, id: page[0]!.id };
    }
    expect(seen).toEqual(all);
    expect(all.length).toBeGreaterThan(0);
  });
});
