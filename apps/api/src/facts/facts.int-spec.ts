import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createLogger } from '@app/observability';
import { projectRecords } from '@app/persistence';
import { companyFactsRecords, createTestDatabase, defaultFixturesDir, type TestDatabase } from '@app/testing';
import type { ApiContext } from '../api.context';
import { buildApiServer } from '../api.server';
import { apiConfigSchema } from '../config/api.config';

// Apple's real company facts (../shared/fixtures/xbrl), projected through the real projection.
const FILE = join(defaultFixturesDir(), 'xbrl/AAPL-companyfacts-CIK0000320193.json');

let db: TestDatabase;
let api: { server: FastifyInstance; context: ApiContext };
let key: string;

interface Fact {
  concept: string;
  period: { kind: string; start_date: string | null; end_date: string };
  value: { raw: number; normalized: number; unit: string; conversion_factor: number };
  status: string;
  previous_value: number | null;
  filing: { accession: string; form: string; filed: string };
  provenance: { accession: string; source_url: string; src_id: string };
}
interface FactList {
  data: Fact[];
  pagination: { next_cursor: string | null; has_more: boolean };
  company: { symbol: string };
  concept: { concept: string };
  as_of: string | null;
  gaps: Array<{ code: string; field?: string; detail: string }>;
}
interface Statement {
  periods: Array<{ fiscal_year: number; fiscal_period: string; end_date: string }>;
  line_items: Array<{ key: string; values: Array<{ end_date: string; value: { raw: number } | null; derived: boolean; filing: { accession: string } | null; derivation: { method: string } | null; gap: string | null }> }>;
  gaps: Array<{ code: string; field?: string; detail: string }>;
}

const get = (url: string) => api.server.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });

beforeAll(async () => {
  db = await createTestDatabase('facts_api');
  api = await buildApiServer(
    apiConfigSchema.parse({ DATABASE_URL: db.url, API_KEY_PEPPER: 'pepper-'.repeat(6), CURSOR_SECRET: 'cursor-'.repeat(6), LOG_LEVEL: 'silent', PLAN_BUILDER_BURST_PER_SECOND: '1000000', PLAN_BUILDER_DAILY_QUOTA: '100000000' }),
    { logger: createLogger({ level: 'silent' }) },
  );
  const ds = api.context.dataSource;
  const records = companyFactsRecords(readFileSync(FILE), { url: 'https://data.sec.gov/api/xbrl/companyfacts/CIK0000320193.json', fetchedAt: '2026-01-31T00:00:00.000Z' });
  await projectRecords(ds, records);
  await ds.query(
    `INSERT INTO companies (symbol, ticker, market, cik, name, issuer_id, provenance, record_id, data_hash, observed_at)
     VALUES ('AAPL:US', 'AAPL', 'US', '0000320193', 'Apple Inc.', 320193, $1::jsonb, 'rec_aapl', 'h', now())`,
    [JSON.stringify(records[0]!.provenance)],
  );
  await ds.query(`INSERT INTO accounts (id, name, plan) VALUES ('acct_b', 'b', 'builder')`);
  key = (await api.context.keys.createKey({ accountId: 'acct_b', mode: 'live', label: 't' })).key;
}, 120_000);

afterAll(async () => {
  await api?.server.close();
  await db?.drop();
});

describe('GET /v1/companies/{symbol}/facts', () => {
  it("serves a concept's annual values with their filings: Apple's fiscal 2024 revenue as its 10-K reported it", async () => {
    const r = await get('/v1/companies/AAPL:US/facts?concept=us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax&period=annual&as_of=2024-11-01');
    expect(r.statusCode).toBe(200);
    const body = r.json<FactList>();
    expect(body).toMatchObject({ company: { symbol: 'AAPL:US' }, concept: { concept: 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax' }, as_of: '2024-11-01' });
    expect(body.data[0]).toMatchObject({
      period: { kind: 'annual', start_date: '2023-10-01', end_date: '2024-09-28' },
      value: { raw: 391_035_000_000, unit: 'USD' },
      status: 'first_reported',
      filing: { accession: '0000320193-24-000123', form: '10-K', filed: '2024-11-01' },
      provenance: { accession: '0000320193-24-000123', source_url: 'https://data.sec.gov/api/xbrl/companyfacts/CIK0000320193.json' },
    });
    expect(body.data.every((d) => d.period.kind === 'annual')).toBe(true);
    expect(body.gaps[0]).toMatchObject({ code: 'source_scope', detail: expect.stringMatching(/^values come from SEC company facts/) });
  });

  it("as_of: Apple's fiscal 2009 net sales as first reported, then as the 10-K/A of 2010-01-25 restated them; a bare name resolves in us-gaap", async () => {
    const fy2009 = (b: FactList) => b.data.find((d) => d.period.end_date === '2009-09-26' && d.period.start_date === '2008-09-28')!;
    const before = fy2009((await get('/v1/companies/AAPL:US/facts?concept=SalesRevenueNet&period=annual&as_of=2010-01-24')).json<FactList>());
    expect(before).toMatchObject({ concept: 'us-gaap:SalesRevenueNet', value: { raw: 36_537_000_000 }, status: 'first_reported', filing: { accession: '0001193125-09-214859', form: '10-K' } });
    const after = fy2009((await get('/v1/companies/AAPL:US/facts?concept=SalesRevenueNet&period=annual&as_of=2010-01-25&unit=million')).json<FactList>());
    expect(after).toMatchObject({ value: { raw: 42_905_000_000, normalized: 42_905, conversion_factor: 1e-6 }, status: 'restated', previous_value: 36_537_000_000, filing: { accession: '0001193125-10-012091', form: '10-K/A' } });
  });

  it('history=true lists every report of a value, oldest first, with its status', async () => {
    const body = (await get('/v1/companies/AAPL:US/facts?concept=us-gaap:SalesRevenueNet&period=annual&history=true&limit=500')).json<FactList>();
    const fy2009 = body.data.filter((d) => d.period.end_date === '2009-09-26' && d.period.start_date === '2008-09-28');
    expect(fy2009.map((d) => [d.filing.accession, d.status])).toEqual([
      ['0001193125-09-214859', 'first_reported'],
      ['0001193125-10-012091', 'restated'],
      ['0001193125-10-238044', 'reaffirmed'],
      ['0001193125-11-282113', 'reaffirmed'],
    ]);
  });

  it('walks every value exactly once with the cursor, newest period first', async () => {
    const all = (await get('/v1/companies/AAPL:US/facts?concept=us-gaap:Assets&limit=500')).json<FactList>().data.map((d) => `${d.period.end_date}|${d.filing.accession}`);
    expect(all.length).toBeGreaterThan(50);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: FactList = (await get(`/v1/companies/AAPL:US/facts?concept=us-gaap:Assets&limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)).json<FactList>();
      seen.push(...page.data.map((d) => `${d.period.end_date}|${d.filing.accession}`));
      cursor = page.pagination.next_cursor;
    } while (cursor);
    expect(seen).toEqual(all);
    const ends = all.map((s) => s.slice(0, 10));
    expect(ends).toEqual([...ends].sort().reverse());
  });

  it('answers 404 unknown-concept naming close concepts, and 422 for a missing concept or an invalid as_of', async () => {
    const r = await get('/v1/companies/AAPL:US/facts?concept=Revenue');
    expect(r.statusCode).toBe(404);
    expect(r.json<{ type: string; detail: string }>()).toMatchObject({ type: expect.stringMatching(/\/errors\/unknown-concept$/), detail: expect.stringContaining('us-gaap:Revenues') });
    expect((await get('/v1/companies/NOPE:US/facts?concept=Revenues')).statusCode).toBe(404);
    const missing = await get('/v1/companies/AAPL:US/facts');
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toMatchObject({ detail: [expect.objectContaining({ type: 'missing', loc: ['query', 'concept'] })] });
    expect((await get('/v1/companies/AAPL:US/facts?concept=Revenues&as_of=2025-02-30')).json()).toMatchObject({ detail: [expect.objectContaining({ type: 'value_error', loc: ['query', 'as_of'] })] });
    expect((await get('/v1/companies/AAPL:US/facts?concept=Revenues&as_of=yesterday')).json()).toMatchObject({ detail: [expect.objectContaining({ type: 'string_pattern_mismatch', loc: ['query', 'as_of'] })] });
  });
});

describe('GET /v1/companies/{symbol}/financials', () => {
  const item = (s: Statement, key: string, end: string) => s.line_items.find((i) => i.key === key)!.values.find((v) => v.end_date === end)!;

  it("builds Apple's income statement as of its fiscal 2024 10-K: revenue, net income, diluted EPS from that filing, newest period first", async () => {
    const r = await get('/v1/companies/AAPL:US/financials?statement=income&period=annual&as_of=2024-11-01&limit=3');
    expect(r.statusCode).toBe(200);
    const s = r.json<Statement>();
    expect(s.periods.map((p) => [p.fiscal_year, p.fiscal_period, p.end_date])).toEqual([
      [2024, 'FY', '2024-09-28'],
      [2023, 'FY', '2023-09-30'],
      [2022, 'FY', '2022-09-24'],
    ]);
    expect([item(s, 'revenue', '2024-09-28'), item(s, 'net_income', '2024-09-28'), item(s, 'eps_diluted', '2024-09-28')].map((v) => [v.value?.raw, v.filing?.accession])).toEqual([
      [391_035_000_000, '0000320193-24-000123'],
      [93_736_000_000, '0000320193-24-000123'],
      [6.08, '0000320193-24-000123'],
    ]);
  });

  it('derives the fourth quarter and says why EPS has none; the balance sheet and cash flow answer too', async () => {
    const q = (await get('/v1/companies/AAPL:US/financials?statement=income&period=quarter&as_of=2024-11-01&limit=1')).json<Statement>();
    expect(q.periods).toEqual([{ fiscal_year: 2024, fiscal_period: 'Q4', start_date: '2024-06-30', end_date: '2024-09-28' }]);
    expect(item(q, 'revenue', '2024-09-28')).toMatchObject({ value: { raw: 94_930_000_000 }, derived: true, filing: null, derivation: { method: 'ytd_difference' } });
    expect(item(q, 'eps_diluted', '2024-09-28')).toMatchObject({ value: null, gap: expect.stringContaining('not derived') });
    expect(q.gaps).toContainEqual({ code: 'not_reported_for_period', field: 'eps_diluted', detail: `eps_diluted: ${item(q, 'eps_diluted', '2024-09-28').gap}` });
    const b = (await get('/v1/companies/AAPL:US/financials?statement=balance&as_of=2024-11-01&limit=1')).json<Statement>();
    expect(item(b, 'total_assets', '2024-09-28').value?.raw).toBe(364_980_000_000);
    const c = (await get('/v1/companies/AAPL:US/financials?statement=cash_flow&as_of=2024-11-01&limit=1')).json<Statement>();
    expect(item(c, 'free_cash_flow', '2024-09-28')).toMatchObject({ value: { raw: 108_807_000_000 }, derived: true });
  });

  it('answers 422 for an unknown statement and 404 for an unknown symbol', async () => {
    expect((await get('/v1/companies/AAPL:US/financials?statement=equity')).json()).toMatchObject({ detail: [expect.objectContaining({ type: 'literal_error', loc: ['query', 'statement'] })] });
    expect((await get('/v1/companies/NOPE:US/financials')).statusCode).toBe(404);
  });
});
