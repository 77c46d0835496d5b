// @infra-path: its SQL runs on the server's own Postgres: docker-compose.yml's postgres:17 in containers, the machine's (15 on CI) locally.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import type { CompanyData, FilingData, RecordEnvelope } from '@app/contracts';
import { createTestDatabase, type TestDatabase } from '@app/testing';
import { createDataSource } from '../data-source';
import { projectRecords } from '../projections/record-projections';
import type { KeyPart } from '../keyset';
import { SEARCH_KINDS, SEARCH_SQL, SearchRepository, searchParams } from './search.repository';

const examples = join(__dirname, '../../../contracts/src/examples');
const msft10k = JSON.parse(readFileSync(join(examples, 'filing@1.msft-10-k.json'), 'utf8')) as RecordEnvelope<FilingData>;
const msftCompany = JSON.parse(readFileSync(join(examples, 'company@1.msft.json'), 'utf8')) as RecordEnvelope<CompanyData>;

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

/** Eight filings of a filer with no listing (not in companies), a year older than MSFT's, projected oldest first, stored after them. */
const unlisted = (i: number) => `0000950170-25-20000${i}`;
const unlistedFilings = filings.map((f, i): RecordEnvelope<FilingData> => ({
  ...f,
  key: unlisted(i),
  id: `rec_search_unlisted_${i}`,
  provenance: { ...f.provenance, accession: unlisted(i) },
  data: { ...f.data, accession: unlisted(i), cik: '0000000042', company_name: 'CONTOSO HOLDINGS TRUST', filed_date: `2024-01-0${i + 1}` },
}));

/**
 * Another filer's filing (no listing) naming Microsoft in its description: newer than all of MSFT's and
 * projected first, so it heads the text window for "microsoft".
 */
const mention = '0000950170-25-300000';
const mentionFiling: RecordEnvelope<FilingData> = {
  ...msft10k,
  key: mention,
  id: 'rec_search_mention',
  provenance: { ...msft10k.provenance, accession: mention },
  data: { ...msft10k.data, accession: mention, cik: '0000000043', company_name: 'FABRIKAM INC', form: '8-K', primary_doc_description: 'Licence agreement with Microsoft', filed_date: '2025-02-01' },
};

let db: TestDatabase;
let ds: DataSource;
let repo: SearchRepository;
/**
 * The EXPLAIN ANALYZE line of the filing text window's scan for "microsoft" under a cap: the node
 * under the window's one-time filter on the filer rows' count (`... < '<cap>'::bigint`). Found by
 * that filter, not by an index name: the planner may reach a handful of rows by any path
 * (Postgres 15 takes the text index; 17, in the containers run, did not).
 */
async function windowScan(cap: number): Promise<string> {
  const values = searchParams({ q: 'microsoft', kinds: ['filing'], limit: 10, candidatesPerKind: cap });
  const rows = await ds.query<{ 'QUERY PLAN': string }[]>(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ${SEARCH_SQL}`, values);
  const plan = rows.map((r) => r['QUERY PLAN']);
  const gate = plan.findIndex((l) => l.includes(`One-Time Filter:`) && l.includes(`< '${cap}'::bigint)`));
  expect(gate).toBeGreaterThan(-1);
  const scan = plan.slice(gate + 1).find((l) => l.trim().startsWith('->'));
  expect(scan).toMatch(/on filings /);
  return scan!;
}
const filingIds = async (q: string, after?: KeyPart[], limit = 10) => (await repo.search({ q, kinds: ['filing'] }, { direction: 'desc', limit, after })).rows.map((h) => h.id);

beforeAll(async () => {
  db = await createTestDatabase('search_repo');
  ds = createDataSource({ url: db.url });
  await ds.initialize();
  await projectRecords(ds, [msftCompany]);
  for (const f of [mentionFiling, ...filings, ...unlistedFilings]) await projectRecords(ds, [f]);
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

  it("a listed filer's name: its newest filings, however many it has and wherever they are stored", async () => {
    // All eight match "microsoft" (the filer's name), more than the cap; the window alone would hold the first three stored.
    expect(await filingIds('microsoft')).toEqual([accession(7), accession(6), accession(5)]);
    // The same through the name's approximate match and among all kinds.
    const hits = (await repo.search({ q: 'Microsoft Corp', kinds: SEARCH_KINDS }, { direction: 'desc', limit: 10 })).rows;
    expect(hits.filter((h) => h.kind === 'filing').map((h) => h.id)).toEqual([accession(7), accession(6), accession(5)]);
    // Among the filer's newest filings, those matching all the query's words.
    expect(await filingIds('microsoft 10-K')).toEqual([accession(6), accession(4), accession(2)]);
  });

  it("the text window is not read when the filers' newest filings alone fill the cap", async () => {
    // Three of MSFT's eight fill the cap of 3: the window (which would hold the newer mention, stored first) is skipped.
    expect(await filingIds('microsoft')).not.toContain(mention);
    expect(await windowScan(3)).toContain('never executed');
    // With room left (8 filer rows under a cap of 10), the window is read and the mention is a candidate, the newest.
    const roomy = new SearchRepository(ds, { candidatesPerKind: 10 });
    const hits = (await roomy.search({ q: 'microsoft', kinds: ['filing'] }, { direction: 'desc', limit: 20 })).rows;
    expect(hits.map((h) => h.id)).toEqual([mention, ...filings.map((f) => f.key).reverse()]);
    expect(await windowScan(10)).not.toContain('never executed');
  });

  it('a filer with no listing: the text window, the first matches in storage order (here the oldest), newest first among them', async () => {
    expect(await filingIds('contoso')).toEqual([unlisted(2), unlisted(1), unlisted(0)]);
  });

  it('an accession is a candidate whatever the window holds, and ranks first', async () => {
    const hits = (await repo.search({ q: accession(7), kinds: SEARCH_KINDS }, { direction: 'desc', limit: 10 })).rows;
    expect(hits[0]).toMatchObject({ kind: 'filing', id: accession(7), match: 'accession' });
  });

  it('pages walk the one ranking of the capped candidates', async () => {
    const all = await filingIds('microsoft 10-K');
    const seen: string[] = [];
    let after: KeyPart[] | undefined;
    for (;;) {
      const page = (await repo.search({ q: 'microsoft 10-K', kinds: ['filing'] }, { direction: 'desc', limit: 1, after })).rows;
      if (page.length === 0) break;
      seen.push(page[0]!.id);
      after = [page[0]!.score, page[0]!.kind, page[0]!.id];
    }
    expect(seen).toEqual(all);
    expect(all.length).toBeGreaterThan(0);
  });
});
