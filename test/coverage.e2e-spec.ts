// Coverage from the raw fixture files: the real SEC files (ticker map, submissions JSON, inline-XBRL
// 10-Q, Form 4 XML, N-PORT primary documents) through the ingestors' own parsers and mappers, the
// projector's projections into Postgres, then GET /v1/coverage/{symbol} on the real api, checked
// against the figures of the files and against each dataset's own list endpoint. Kafka is left out:
// the pipeline e2e tests cover the transport; this one covers what coverage makes of the data.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { contentHash, FUND_HOLDINGS_PER_RECORD, type FundHolding } from '@app/contracts';
import {
  extractSegments,
  HoldingMatcher,
  parseForm4,
  parseNport,
  parseRecentFilings,
  parseSubmissions,
  parseTickerMapExchange,
  type RecentFiling,
  type SubmissionsCompany,
} from '@app/edgar';
import { createLogger } from '@app/observability';
import {
  projectRecords,
} from '@app/persistence';
import { createTestDatabase, defaultFixturesDir, type TestDatabase } from '@app/testing';
import { type CoverageBody, coverageSchema } from '@app/resources';
import type { ApiContext } from '../apps/api/src/api.context';
import { buildApiServer } from '../apps/api/src/api.server';
import { apiConfigSchema } from '../apps/api/src/config/api.config';
import { form4RecordOf } from '../apps/ingest-form4/src/form4.mapper';
import { companyRecordOf, type FetchedSource } from '../apps/ingest-sec/src/company.mapper';
import { filingRecordFromSubmissions } from '../apps/ingest-sec/src/filings/filing.mapper';
import { fundHeaderOf, fundHoldingOf, fundHoldingsRecordOf } from '../apps/ingest-sec/src/nport/nport.mapper';
import { segmentRecordsOf } from '../apps/ingest-sec/src/segments/segment.mapper';

const FIXTURES = defaultFixturesDir();
const FETCHED_AT = '2025-08-02T12:00:00.500Z';
const CTX = { runId: 'run_coverage_e2e', origin: 'live' as const, extractedAt: '2025-08-02T12:00:01.000Z' };
const MSFT_CIK = '0000789019';
const TSLA_CIK = '0001318605';
const TSLA_10Q = { cik: TSLA_CIK, accession: '0001628280-25-035806', form: '10-Q', url: 'https://www.sec.gov/Archives/edgar/data/1318605/000162828025035806/tsla-20250630.htm' };
// The N-PORT files' accessions could not be looked up offline: the fixture accessions the fixture server serves them under.
const NPORT = [
  { file: 'nport/ADX-CIK0000002230-primary_doc.xml', accession: '0000002230-23-990001', url: 'https://www.sec.gov/Archives/edgar/data/2230/000000223023990001/primary_doc.xml' },
  { file: 'nport/GSTRUST-S000013795-NPORT_Sample_7.xml', accession: '0000822977-23-990001', url: 'https://www.sec.gov/Archives/edgar/data/822977/000082297723990001/primary_doc.xml' },
];

const read = (file: string) => readFileSync(join(FIXTURES, file));
const fetched = (bytes: Buffer, url: string): FetchedSource => ({ url, contentHash: contentHash(bytes), fetchedAt: FETCHED_AT });

let db: TestDatabase;
let api: { server: FastifyInstance; context: ApiContext };
let key: string;
const recent: Record<string, RecentFiling[]> = {};
let tslaSegmentFacts: number;
let geOtherHoldings: number;

const get = (url: string) => api.server.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });

async function coverage(symbol: string): Promise<CoverageBody> {
  const r = await get(`/v1/coverage/${symbol}`);
  expect([symbol, r.statusCode]).toEqual([symbol, 200]);
  return coverageSchema.parse(r.json());
}

/** Every item of a list endpoint, 500 a page. */
async function walk<T>(base: string): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const sep = base.includes('?') ? '&' : '?';
    const r = await get(`${base}${sep}limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect([base, r.statusCode]).toEqual([base, 200]);
    const page = r.json<{ data: T[]; pagination: { next_cursor: string | null } }>();
    items.push(...page.data);
    cursor = page.pagination.next_cursor;
  } while (cursor !== null);
  return items;
}

/** Form types by count, most frequent first, ties by form: the order coverage lists them in. */
function tally(forms: string[]): Array<{ form: string; count: number }> {
  const counts = new Map<string, number>();
  for (const f of forms) counts.set(f, (counts.get(f) ?? 0) + 1);
  return [...counts].map(([form, count]) => ({ form, count })).sort((a, b) => b.count - a.count || (a.form < b.form ? -1 : a.form > b.form ? 1 : 0));
}

beforeAll(async () => {
  db = await createTestDatabase('coverage_e2e');
  api = await buildApiServer(
    apiConfigSchema.parse({
      DATABASE_URL: db.url,
      API_KEY_PEPPER: 'pepper-'.repeat(6),
      CURSOR_SECRET: 'cursor-'.repeat(6),
      LOG_LEVEL: 'silent',
      PLAN_ENTERPRISE_BURST_PER_SECOND: '1000000',
      PLAN_ENTERPRISE_DAILY_QUOTA: '100000000',
    }),
    { logger: createLogger({ level: 'silent' }) },
  );
  const ds = api.context.dataSource;

  // Companies: the exchange ticker map, with the submissions JSON of MSFT and TSLA.
  const tickerBytes = read('tickers/company_tickers_exchange.json');
  const tickerSource = fetched(tickerBytes, 'https://www.sec.gov/files/company_tickers_exchange.json');
  const entries = parseTickerMapExchange(tickerBytes);
  const submissions = new Map<string, { source: FetchedSource; company: SubmissionsCompany }>();
  for (const cik of [MSFT_CIK, TSLA_CIK]) {
    const bytes = read(`submissions/CIK${cik}.json`);
    const source = fetched(bytes, `https://data.sec.gov/submissions/CIK${cik}.json`);
    submissions.set(cik, { source, company: parseSubmissions(bytes) });
    recent[cik] = parseRecentFilings(bytes);
  }
  for (const ticker of ['MSFT', 'TSLA', 'GE']) {
    const entry = entries.find((e) => e.ticker === ticker)!;
    await projectRecords(ds, [companyRecordOf(entry, tickerSource, submissions.get(entry.cik) ?? null, CTX)]);
  }

  // Filings: every row of filings.recent of both submissions files (the backfill's mapper).
  for (const [cik, rows] of Object.entries(recent)) {
    const { source, company } = submissions.get(cik)!;
    for (const f of rows) {
      const record = filingRecordFromSubmissions({ cik, name: company.name }, f, source, CTX);
      if (record) await projectRecords(ds, [record]);
    }
  }

  // Segments: Tesla's 10-Q for the quarter ended 2025-06-30.
  const tenQ = read('xbrl/TSLA-tsla-10-q-2025-07-24.html');
  const extraction = extractSegments(tenQ);
  tslaSegmentFacts = extraction.facts.length;
  for (const r of segmentRecordsOf(extraction, TSLA_10Q, { url: TSLA_10Q.url, contentHash: contentHash(tenQ), fetchedAt: FETCHED_AT }, CTX)) await projectRecords(ds, [r]);

  // Forms 4, with what the issuer's submissions listing says of them.
  const forms4 = [
    { cik: TSLA_CIK, accession: '0000899243-21-044060', file: 'form4/TSLA-0000899243-21-044060-doc4.xml', url: 'https://www.sec.gov/Archives/edgar/data/1318605/000089924321044060/doc4.xml' },
    { cik: MSFT_CIK, accession: '0001062993-24-016587', file: 'form4/MSFT-0001062993-24-016587-form4.xml', url: 'https://www.sec.gov/Archives/edgar/data/789019/000106299324016587/form4.xml' },
  ];
  for (const f of forms4) {
    const bytes = read(f.file);
    const listed = recent[f.cik]!.find((r) => r.accessionNumber === f.accession)!;
    const doc = parseForm4(bytes, { url: f.url, accession: f.accession });
    const source = { ...fetched(bytes, f.url), text: bytes.toString('utf8') };
    await projectRecords(ds, [form4RecordOf(doc, source, { filedDate: listed.filingDate, acceptedAt: listed.acceptanceDateTime }, CTX)]);
  }

  // N-PORT: ADX (equities) and the Goldman Sachs Bond Fund (1,685 holdings in 7 records), matched to the ticker map.
  const matcher = new HoldingMatcher(entries);
  const tickerByCik = new Map<string, string>();
  for (const e of entries) if (!tickerByCik.has(e.cik)) tickerByCik.set(e.cik, e.ticker);
  const geCik = entries.find((e) => e.ticker === 'GE')!.cik;
  geOtherHoldings = 0;
  for (const n of NPORT) {
    const bytes = read(n.file);
    const { fund, holdings } = parseNport(bytes);
    const header = fundHeaderOf(fund, fund.registrantCik ? (tickerByCik.get(fund.registrantCik) ?? null) : null);
    const mapped: FundHolding[] = holdings.map((h) => fundHoldingOf(h, matcher.match(h)));
    geOtherHoldings += mapped.filter((h) => h.match.cik === geCik).length;
    const count = Math.max(1, Math.ceil(mapped.length / FUND_HOLDINGS_PER_RECORD));
    for (let index = 0; index < count; index++) {
      const chunk = mapped.slice(index * FUND_HOLDINGS_PER_RECORD, (index + 1) * FUND_HOLDINGS_PER_RECORD);
      const record = fundHoldingsRecordOf({ accession: n.accession, fund: header, index, count, holdingsTotal: mapped.length, holdings: chunk }, fetched(bytes, n.url), CTX);
      await projectRecords(ds, [record]);
    }
  }

  await ds.query(`INSERT INTO accounts (id, name, plan) VALUES ('acct_e', 'e', 'enterprise')`);
  key = (await api.context.keys.createKey({ accountId: 'acct_e', mode: 'live', label: 't' })).key;
}, 300_000);

afterAll(async () => {
  await api?.server.close();
  await api?.context.close();
  await db?.drop();
});

describe('GET /v1/coverage/{symbol} over the raw fixture files', () => {
  it("MSFT: the 1,010 filings of its submissions JSON (2019-02-01..2025-07-30), its Form 4, ADX's holding", async () => {
    const b = await coverage('MSFT:US');
    const f = b.datasets.filings;
    expect({ ...f, forms: f.forms.slice(0, 3) }).toEqual({
      count: 1010,
      amendments: 20,
      first_date: '2019-02-01',
      latest_date: '2025-07-30',
      latest_report_period: '2025-07-30',
      forms: [
        { form: '4', count: 760 },
        { form: '8-K', count: 65 },
        { form: '144', count: 32 },
      ],
      last_ingested_at: FETCHED_AT,
      gaps: [],
    });
    expect(f.forms).toHaveLength(30);
    expect(f.forms).toEqual(tally(recent[MSFT_CIK]!.flatMap((r) => (r.form ? [r.form] : []))));
    expect(b.datasets.form4).toEqual({
      count: 2,
      superseded: 0,
      filings: 1,
      first_date: '2024-09-12',
      latest_date: '2024-09-12',
      latest_filed_date: '2024-09-13',
      last_ingested_at: FETCHED_AT,
      gaps: [],
    });
    expect(b.datasets.fund_exposure).toEqual({ count: 1, etfs: 0, holdings: 1, first_date: '2023-06-30', latest_date: '2023-06-30', last_ingested_at: CTX.extractedAt, gaps: [] });
    expect(b.datasets.segments.gaps.map((g) => g.code)).toEqual(['no_segments_reported']);
  });

  it("TSLA: the 1,001 filings of its submissions JSON (2013-12-11..2022-11-30), its 10-Q's segments, Musk's Form 4 with its listing date", async () => {
    const b = await coverage('TSLA:US');
    const f = b.datasets.filings;
    expect({ ...f, forms: f.forms.slice(0, 3) }).toEqual({
      count: 1001,
      amendments: 63,
      first_date: '2013-12-11',
      latest_date: '2022-11-30',
      latest_report_period: '2022-11-28',
      forms: [
        { form: '4', count: 502 },
        { form: '8-K', count: 163 },
        { form: 'SC 13G/A', count: 37 },
      ],
      last_ingested_at: FETCHED_AT,
      gaps: [],
    });
    expect(f.forms).toEqual(tally(recent[TSLA_CIK]!.flatMap((r) => (r.form ? [r.form] : []))));
    // The extractor finds 56 single-dimension revenue and operating income facts in the 10-Q.
    expect(tslaSegmentFacts).toBe(56);
    expect(b.datasets.segments).toMatchObject({
      count: 56,
      derived_q4: 0,
      filings: 1,
      latest_date: '2025-06-30',
      latest_period: { end_date: '2025-06-30', kind: 'quarter', calendar: '2025-Q2' },
      last_ingested_at: FETCHED_AT,
    });
    expect(b.datasets.segments.gaps.map((g) => g.code)).toEqual(['no_annual_segments']);
    expect(b.datasets.form4).toEqual({
      count: 31,
      superseded: 0,
      filings: 1,
      first_date: '2021-11-08',
      latest_date: '2021-11-08',
      latest_filed_date: '2021-11-10',
      last_ingested_at: FETCHED_AT,
      gaps: [],
    });
    expect(b.datasets.fund_exposure).toMatchObject({ count: 1, holdings: 1, latest_date: '2023-06-30' });
  });

  it.each(['MSFT:US', 'TSLA:US'])('%s: counts and date ranges are those of the list endpoints', async (symbol) => {
    const b = await coverage(symbol);
    const filings = await walk<{ filed_date: string; form: string; report_period: string | null }>(`/v1/companies/${symbol}/filings?direction=asc`);
    expect(b.datasets.filings.count).toBe(filings.length);
    expect([b.datasets.filings.first_date, b.datasets.filings.latest_date]).toEqual([filings[0]!.filed_date, filings[filings.length - 1]!.filed_date]);
    expect(b.datasets.filings.forms).toEqual(tally(filings.map((x) => x.form)));
    expect(b.datasets.filings.latest_report_period).toBe(filings.map((x) => x.report_period ?? '').sort().pop());
    const segments = await walk<{ period: { end_date: string } }>(`/v1/companies/${symbol}/segments?direction=asc`);
    expect(b.datasets.segments.count).toBe(segments.length);
    if (segments.length) expect([b.datasets.segments.first_date, b.datasets.segments.latest_date]).toEqual([segments[0]!.period.end_date, segments[segments.length - 1]!.period.end_date]);
    const insiders = await walk<unknown>(`/v1/companies/${symbol}/insiders`);
    expect(b.datasets.form4.count).toBe(insiders.length);
    const exposure = (await get(`/v1/companies/${symbol}/fund-exposure?limit=500`)).json<{ fund_count: number; data: Array<{ as_of_date: string }> }>();
    expect([b.datasets.fund_exposure.count, b.datasets.fund_exposure.holdings]).toEqual([exposure.fund_count, exposure.data.length]);
    expect(b.datasets.fund_exposure.latest_date).toBe(exposure.data.map((x) => x.as_of_date).sort().pop());
  });

  it('GE: held only as bonds by the Goldman Sachs Bond Fund, so no N-PORT holder of its common equity', async () => {
    // One GE bond among the Goldman Sachs fund's 1,685 holdings (matched by issuer name).
    expect(geOtherHoldings).toBe(1);
    const b = await coverage('GE:US');
    expect(b.datasets.fund_exposure).toMatchObject({ count: 0, holdings: 0, latest_date: null, last_ingested_at: null });
    expect(b.datasets.fund_exposure.gaps).toEqual([
      {
        code: 'no_nport_holders',
        detail:
          "No N-PORT filer held by this service reports a current holding of this issuer's common equity. " +
          `${geOtherHoldings} current holding${geOtherHoldings === 1 ? '' : 's'} of its other securities (bonds, other asset categories) ${geOtherHoldings === 1 ? 'is' : 'are'} held but not counted as exposure.`,
      },
    ]);
    expect((await get('/v1/companies/GE:US/fund-exposure')).json<{ fund_count: number }>().fund_count).toBe(0);
  });
});
