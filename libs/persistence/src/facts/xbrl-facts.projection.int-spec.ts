// @infra-path: its SQL runs on the server's own Postgres: docker-compose.yml's postgres:17 in containers, the machine's (15 on CI) locally.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import type { XbrlFactsRecordV1 } from '@app/contracts';
import { companyFactsRecords, createTestDatabase, inlineFactsRecord, type TestDatabase } from '@app/testing';
import { createDataSource } from '../data-source';
import { projectXbrlFacts } from './xbrl-facts.projection';
import { XbrlFactsRepository } from './xbrl-facts.repository';

/*
 * The facts read model on real Postgres with records made from the real company-facts files of
 * ../shared/fixtures/xbrl (Alphabet, Apple, Lazard's IFRS filer LPA) and Apple's 10-Q for the
 * quarter ended 2025-03-29 (accession 0000320193-25-000057), which reports net sales of $95,359M.
 */
const DIR = join(process.env.FIXTURES_DIR ?? join(__dirname, '../../../../../shared/fixtures'), 'xbrl');
const fetchedAt = '2025-08-01T00:00:00.000Z';
const records = (file: string, cik: string): XbrlFactsRecordV1[] =>
  companyFactsRecords(readFileSync(join(DIR, file)), { url: `https://data.sec.gov/api/xbrl/companyfacts/CIK${cik}.json`, fetchedAt });
const GOOGL = '0001652044';
const AAPL = '0000320193';
const LPA = '0001997711';
const googl = records('GOOGL-companyfacts-CIK0001652044.json', GOOGL);
const aapl = records('AAPL-companyfacts-CIK0000320193.json', AAPL);
const lpa = records('LPA-companyfacts-CIK0001997711.json', LPA);
const REVENUE = 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax';
const aaplInline = inlineFactsRecord(
  readFileSync(join(DIR, 'AAPL-aapl-20250329.htm')),
  { cik: AAPL, accession: '0000320193-25-000057', form: '10-Q', filed: '2025-05-02' },
  REVENUE,
  { url: 'https://www.sec.gov/Archives/edgar/data/320193/000032019325000057/aapl-20250329.htm', fetchedAt: '2025-08-02T00:00:00.000Z' },
);
const factsOf = (rs: XbrlFactsRecordV1[]) => rs.flatMap((r) => r.data.facts.map((f) => ({ ...f, concept: r.data.concept })));

let db: TestDatabase;
let ds: DataSource;
let repo: XbrlFactsRepository;
const project = (envelopes: XbrlFactsRecordV1[]) => ds.transaction((m) => projectXbrlFacts(m, envelopes));
/** Each row's physical version: unchanged when nothing rewrote the row. */
const versions = async () =>
  (await ds.query<Array<{ v: string }>>(`SELECT md5(string_agg(ctid::text || xmin::text, ',' ORDER BY ctid)) AS v FROM xbrl_fact_reports`))[0]!.v;
const count = async (where = 'true') => Number((await ds.query<Array<{ n: string }>>(`SELECT count(*) AS n FROM xbrl_fact_reports WHERE ${where}`))[0]!.n);

beforeAll(async () => {
  db = await createTestDatabase('xbrl_facts');
  ds = createDataSource({ url: db.url });
  await ds.initialize();
  repo = new XbrlFactsRepository(ds);
}, 60_000);

afterAll(async () => {
  await ds?.destroy();
  await db?.drop();
});

describe('projectXbrlFacts', () => {
  beforeAll(() => ds.query('TRUNCATE xbrl_fact_reports, xbrl_concepts'));

  it("projects Alphabet's company facts: one row per report, then a replay writes nothing", async () => {
    const outcome = await project(googl);
    expect(outcome).toEqual({ inserted: googl.map((r) => r.key), updated: [], unchanged: 0 });
    expect(await count(`cik = '${GOOGL}'`)).toBe(factsOf(googl).length);
    const before = await versions();
    expect(await project(googl)).toEqual({ inserted: [], updated: [], unchanged: googl.length });
    expect(await versions()).toBe(before);
  });

  it('rewrites only the new reports when a concept record grows by a filing', async () => {
    const revenue = aapl.find((r) => r.data.concept === REVENUE)!;
    const latest = revenue.data.facts.reduce((a, f) => (f.filed > a ? f.filed : a), '');
    const older = { ...revenue, observed_at: '2025-05-01T00:00:00.000Z', data: { ...revenue.data, facts: revenue.data.facts.filter((f) => f.filed < latest) } };
    await project([older]);
    const rows = await ds.query<Array<{ accession: string; xmin: string }>>(`SELECT accession, xmin::text FROM xbrl_fact_reports WHERE cik = $1 AND concept = $2`, [AAPL, REVENUE]);
    expect(await project([revenue])).toEqual({ inserted: [], updated: [revenue.key], unchanged: 0 });
    const after = await ds.query<Array<{ accession: string; xmin: string; filed: string }>>(
      `SELECT accession, xmin::text, to_char(filed, 'YYYY-MM-DD') AS filed FROM xbrl_fact_reports WHERE cik = $1 AND concept = $2`,
      [AAPL, REVENUE],
    );
    expect(after).toHaveLength(revenue.data.facts.length);
    const untouched = new Set(rows.map((r) => r.xmin));
    expect(after.filter((r) => !untouched.has(r.xmin)).every((r) => r.filed === latest)).toBe(true);
    expect(after.filter((r) => r.filed === latest).length).toBe(revenue.data.facts.length - older.data.facts.length);
  });

  it("merges Apple's 10-Q inline read of a report with its company-facts read: one row, both sources, label and quote kept", async () => {
    await project(aapl);
    const total = (await repo.reports({ cik: AAPL, concepts: [REVENUE] })).filter((r) => r.accession === '0000320193-25-000057' && r.periodStart === '2024-12-29');
    expect(total.map((r) => r.sources)).toEqual([['companyfacts']]);
    expect(await project([aaplInline])).toEqual({ inserted: [aaplInline.key], updated: [], unchanged: 0 });
    const merged = (await repo.reports({ cik: AAPL, concepts: [REVENUE] })).filter((r) => r.accession === '0000320193-25-000057' && r.periodStart === '2024-12-29');
    expect(merged).toEqual([
      expect.objectContaining({
        value: '95359000000', decimals: '-6', frame: 'CY2025Q1', fiscalYear: 2025, fiscalPeriod: 'Q2', label: 'Total net sales',
        sources: ['companyfacts', 'inline_xbrl'], documentUrl: aaplInline.data.document_url, documentSha256: aaplInline.provenance.content_hash,
      }),
    ]);
    expect(merged[0]!.quote).toMatch(/^Total net sales\$?95,359/);
    // Company facts again (a newer file): the row keeps what the document gave.
    const again = aapl.map((r) => ({ ...r, observed_at: '2025-08-03T00:00:00.000Z', provenance: { ...r.provenance, extracted_at: '2025-08-03T00:00:00.000Z' } }));
    await project(again);
    expect((await repo.reports({ cik: AAPL, concepts: [REVENUE] })).filter((r) => r.accession === '0000320193-25-000057' && r.periodStart === '2024-12-29')).toEqual(merged);
    // The document's dimensional facts are there only when asked for.
    const dimensional = await repo.reports({ cik: AAPL, concepts: [REVENUE], dimensioned: true });
    // (a fact the document states twice, in a statement and in a note, is one report)
    const distinct = new Set(aaplInline.data.facts.filter((f) => Object.keys(f.dimensions).length > 0).map((f) => JSON.stringify([f.unit, f.period_start, f.period_end, f.dimensions])));
    expect(dimensional.filter((r) => Object.keys(r.dimensions).length > 0).length).toBe(distinct.size);
    expect(dimensional.every((r) => Object.keys(r.dimensions).length === 0 || r.sources.join() === 'inline_xbrl')).toBe(true);
  });
});

describe('XbrlFactsRepository', () => {
  beforeAll(async () => {
    await ds.query('TRUNCATE xbrl_fact_reports, xbrl_concepts');
    await project(googl);
    await project(lpa);
  });

  const CONCEPTS = ['us-gaap:Revenues', 'us-gaap:NetIncomeLoss', 'us-gaap:EarningsPerShareDiluted', 'us-gaap:Assets'];

  it("returns every report of the asked concepts in order, and as of a day only those filed by then", async () => {
    const expected = factsOf(googl.filter((r) => CONCEPTS.includes(r.data.concept)));
    const all = await repo.reports({ cik: GOOGL, concepts: CONCEPTS });
    expect(all).toHaveLength(expected.length);
    const order = (r: (typeof all)[number]) => [r.concept, r.unit, r.periodEnd, r.periodStart ?? '\uffff', r.filed, r.accession].join('|');
    expect(all.map(order)).toEqual(all.map(order).sort());
    const asOf = '2020-02-03';
    const then = await repo.reports({ cik: GOOGL, concepts: CONCEPTS, asOf });
    expect(then.length).toBe(expected.filter((f) => f.filed <= asOf).length);
    expect(then.length).toBeGreaterThan(0);
    expect(then.length).toBeLessThan(all.length);
    expect(then.every((r) => r.filed <= asOf)).toBe(true);
    expect(await repo.reports({ cik: GOOGL, concepts: [] })).toEqual([]);
  });

  it('serves every concept when none is named, IFRS filers too', async () => {
    expect(await repo.reports({ cik: LPA })).toHaveLength(factsOf(lpa).length);
    const ifrs = lpa.filter((r) => r.data.concept.startsWith('ifrs-full:'));
    expect(ifrs.length).toBeGreaterThan(0);
    const concept = ifrs.find((r) => r.data.concept === 'ifrs-full:Revenue') ?? ifrs[0]!;
    const reports = await repo.reports({ cik: LPA, concepts: [concept.data.concept] });
    expect(reports.map((r) => [r.unit, r.periodEnd, r.value]).sort()).toEqual(concept.data.facts.map((f) => [f.unit, f.period_end, String(f.value)]).sort());
  });

  it("lists a company's concepts with their taxonomy label, units, counts and period range", async () => {
    const concepts = await repo.concepts(GOOGL);
    expect(concepts.map((c) => c.concept)).toEqual(googl.map((r) => r.data.concept).sort());
    const revenues = googl.find((r) => r.data.concept === 'us-gaap:Revenues')!;
    const facts = revenues.data.facts;
    const ends = facts.map((f) => f.period_end).sort();
    expect(concepts.find((c) => c.concept === 'us-gaap:Revenues')).toEqual({
      concept: 'us-gaap:Revenues',
      label: revenues.data.concept_label,
      description: revenues.data.concept_description,
      units: [...new Set(facts.map((f) => f.unit))].sort(),
      values: new Set(facts.map((f) => `${f.unit}|${f.period_start}|${f.period_end}`)).size,
      reports: facts.length,
      dimensioned: false,
      firstPeriodEnd: ends[0],
      lastPeriodEnd: ends[ends.length - 1],
    });
  });
});
