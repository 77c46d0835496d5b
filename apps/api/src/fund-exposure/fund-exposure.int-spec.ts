// @infra-path: the only spec of its repository's SQL (libs/persistence): docker-compose.yml's postgres:17 in containers, the machine's (15 on CI) locally.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { CompanyData, FundHoldingsData, RecordEnvelope } from '@app/contracts';
import { createLogger } from '@app/observability';
import {
  projectRecords,
} from '@app/persistence';
import { createTestDatabase, defaultFixturesDir, type TestDatabase } from '@app/testing';
import type { ApiContext } from '../api.context';
import { buildApiServer } from '../api.server';
import { apiConfigSchema } from '../config/api.config';

// Real records (libs/contracts/src/examples, made by the N-PORT mapper from the fixtures) projected
// into a fresh database, then read through the real api on Fastify.
const EXAMPLES = resolve(__dirname, '../../../../libs/contracts/src/examples');
const example = <T>(file: string) => JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as RecordEnvelope<T>;
const adx = example<FundHoldingsData>('fund-holdings@1.adx.json');
const msftCompany = example<CompanyData>('company@1.msft.json');

let db: TestDatabase;
let api: { server: FastifyInstance; context: ApiContext };
let key: string;
let freeKey: string;

interface Body {
  data: Array<Record<string, unknown> & { fund_name: string; weight: number; shares: number | null; market_value: { raw: number }; provenance: { quote: string; accession: string } }>;
  pagination: { next_cursor: string | null; has_more: boolean };
  company: { symbol: string; cik: string };
  alpha: boolean;
  fund_count: number;
  as_of?: string;
  gaps: Array<{ code: string; field?: string; detail: string }>;
  detail?: Array<{ type: string; loc: unknown[]; ctx?: Record<string, unknown> }>;
}
const get = async (url: string, k = key) => {
  const r = await api.server.inject({ method: 'GET', url, headers: { authorization: `Bearer ${k}` } });
  return { status: r.statusCode, body: r.json<Body>() };
};

/** A copy of the ADX record as another fund / filing: `holdings` replaced, header fields overridden. */
function variant(over: { key: string; accession: string; reportDate: string; name: string; isEtf?: boolean; holdings: FundHoldingsData['holdings']; chunk?: FundHoldingsData['chunk'] }): RecordEnvelope<FundHoldingsData> {
  return {
    ...adx,
    key: over.key,
    id: `rec_${over.accession.replace(/-/g, '').padEnd(32, '0').slice(0, 32)}`,
    provenance: { ...adx.provenance, accession: over.accession },
    data: {
      ...adx.data,
      accession: over.accession,
      fund: { ...adx.data.fund, key: over.key, series_id: over.key, series_name: over.name, fund_ticker: null, is_etf: over.isEtf ?? false, report_date: over.reportDate },
      chunk: over.chunk ?? { index: 0, count: 1, holdings_total: over.holdings.length },
      holdings: over.holdings,
    },
  };
}
const adxMsft = adx.data.holdings.find((h) => h.cusip === '594918104')!;

beforeAll(async () => {
  db = await createTestDatabase('fundexp');
  const config = apiConfigSchema.parse({
    DATABASE_URL: db.url,
    API_KEY_PEPPER: 'pepper-'.repeat(6),
    CURSOR_SECRET: 'cursor-'.repeat(6),
    LOG_LEVEL: 'silent',
    PLAN_BUILDER_BURST_PER_SECOND: '1000000',
  });
  api = await buildApiServer(config, { logger: createLogger({ level: 'silent' }) });
  const ds = api.context.dataSource;
  await projectRecords(ds, [msftCompany]);
  expect(await projectRecords(ds, [adx])).toMatchObject({ inserted: [expect.any(String)] });
  // A second fund (an ETF by name) holding fewer Microsoft shares.
  await projectRecords(ds, [variant({ key: 'S000000001', accession: '0000000001-23-000001', reportDate: '2023-06-30', name: 'Example Tech ETF', isEtf: true, holdings: [{ ...adxMsft, index: 0, balance: 1000, val_usd: 340540, pct_val: 12.5 }] })]);
  await ds.query(`INSERT INTO accounts (id, name, plan) VALUES ('acct_b', 'b', 'builder'), ('acct_f', 'f', 'free')`);
  key = (await api.context.keys.createKey({ accountId: 'acct_b', mode: 'live', label: 't' })).key;
  freeKey = (await api.context.keys.createKey({ accountId: 'acct_f', mode: 'live', label: 't' })).key;
}, 120_000);

afterAll(async () => {
  await api?.server.close();
  await api?.context.close();
  await db?.drop();
});

describe('GET /v1/companies/{symbol}/fund-exposure', () => {
  it("serves ADX's Microsoft holding with its real shares, value, weight, date and provenance", async () => {
    const { status, body } = await get('/v1/companies/MSFT:US/fund-exposure?sort=value');
    expect(status).toBe(200);
    expect(body).toMatchObject({ alpha: true, fund_count: 2, company: { symbol: 'MSFT:US', cik: '0000789019' }, pagination: { has_more: false, next_cursor: null } });
    expect(body.gaps).toContainEqual({ code: 'source_scope', detail: expect.stringMatching(/^unit investment trusts do not file N-PORT/) });
    expect(body.data[0]).toEqual({
      fund_ticker: 'ADX',
      fund_name: 'Adams Diversified Equity Fund, Inc.',
      weight: 0.072998,
      weight_pct: 7.2998,
      shares: 517700,
      market_value: { raw: 176297558, normalized: 176297558, unit: 'USD', original_unit: 'USD', conversion_factor: 1 },
      as_of_date: '2023-06-30',
      provenance: { ...adx.provenance, quote: '<name>Microsoft Corporation</name>' },
    });
  });

  it('sorts by weight by default, pages with a cursor, and filters ETFs', async () => {
    const first = await get('/v1/companies/msft:us/fund-exposure?limit=1');
    expect(first.body.data.map((d) => d.fund_name)).toEqual(['Example Tech ETF']);
    expect(first.body.pagination.has_more).toBe(true);
    const second = await get(`/v1/companies/MSFT:US/fund-exposure?limit=1&cursor=${first.body.pagination.next_cursor}`);
    expect(second.body.data.map((d) => d.fund_name)).toEqual(['Adams Diversified Equity Fund, Inc.']);
    expect(second.body.pagination).toEqual({ has_more: false, next_cursor: null });
    const etfs = await get('/v1/companies/MSFT:US/fund-exposure?etfs_only=true');
    expect(etfs.body.data.map((d) => d.fund_name)).toEqual(['Example Tech ETF']);
    expect(etfs.body.fund_count).toBe(1);
    // A cursor is bound to its filters.
    expect((await get(`/v1/companies/MSFT:US/fund-exposure?limit=1&sort=value&cursor=${first.body.pagination.next_cursor}`)).status).toBe(422);
  });

  it('answers 422 in the Pydantic form for a bad sort, limit above the plan cap, and 404 for an unknown symbol', async () => {
    const bad = await get('/v1/companies/MSFT:US/fund-exposure?sort=shares');
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toEqual([{ type: 'string_pattern_mismatch', loc: ['query', 'sort'], msg: "String should match pattern '^(weight|value)$'", input: 'shares', ctx: { pattern: '^(weight|value)$' } }]);
    const capped = await get('/v1/companies/MSFT:US/fund-exposure?limit=26', freeKey);
    expect(capped.status).toBe(422);
    expect(capped.body.detail?.[0]).toMatchObject({ type: 'less_than_equal', ctx: { le: 25 } });
    expect((await get('/v1/companies/NOPE:US/fund-exposure')).status).toBe(404);
  });

  it('as_of: only reports filed by the day; a fund whose kept report came later, or is undated, is left out and counted in gaps', async () => {
    const ds = api.context.dataSource;
    // Both funds' kept reports are of 2023-06-30: the day before, neither can answer (no earlier report is kept).
    const early = await get('/v1/companies/MSFT:US/fund-exposure?as_of=2023-06-29');
    expect(early.status).toBe(200);
    expect(early.body).toMatchObject({ data: [], fund_count: 0, as_of: '2023-06-29' });
    expect(early.body.gaps).toContainEqual({ code: 'as_of_report_not_kept', detail: 'as_of 2023-06-29: 2 funds left out: their latest report came after the day and the one before it is not kept' });
    // After the report date, the filing dates are unknown: N-PORT records carry none and no filings row names them yet.
    const undated = await get('/v1/companies/MSFT:US/fund-exposure?as_of=2023-12-31');
    expect(undated.body).toMatchObject({ data: [], fund_count: 0 });
    expect(undated.body.gaps).toContainEqual({
      code: 'as_of_report_undated',
      detail: 'as_of 2023-12-31: 2 funds left out: N-PORT records carry no filing date, and the filings read model does not hold their report\'s accession',
    });
    // The filings read model dates ADX's report: the day ADX signed it (the fixture's <dateSigned>), as EDGAR's index would date it.
    const signed = /<(?:\w+:)?dateSigned>(\d{4}-\d{2}-\d{2})</.exec(readFileSync(join(defaultFixturesDir(), 'nport/ADX-CIK0000002230-primary_doc.xml'), 'utf8'))![1]!;
    await ds.query(
      `INSERT INTO filings (accession, cik, company_name, form, filed_date, is_amendment, source, provenance, record_id, data_hash, observed_at)
       VALUES ($1, '0000002230', 'ADAMS DIVERSIFIED EQUITY FUND, INC.', 'NPORT-P', $2::date, false, 'daily_index', $3::jsonb, 'rec_adx_nport', 'h', now())`,
      [adx.data.accession, signed, JSON.stringify(adx.provenance)],
    );
    const dayBefore = new Date(Date.parse(`${signed}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    const notYet = await get(`/v1/companies/MSFT:US/fund-exposure?as_of=${dayBefore}`);
    expect(notYet.body.data).toEqual([]);
    expect(notYet.body.gaps).toEqual(
      expect.arrayContaining([
        { code: 'as_of_report_not_kept', detail: expect.stringContaining('1 fund left out: their latest report came after the day') },
        { code: 'as_of_report_undated', detail: expect.stringContaining('1 fund left out: N-PORT records carry no filing date') },
      ]),
    );
    const filed = await get(`/v1/companies/MSFT:US/fund-exposure?as_of=${signed}&sort=value`);
    expect(filed.body.fund_count).toBe(1);
    expect(filed.body.data.map((d) => [d.fund_name, d.shares, d.as_of_date])).toEqual([['Adams Diversified Equity Fund, Inc.', 517700, '2023-06-30']]);
    // Without as_of the answer is today's, unchanged: both funds, no as_of key.
    const today = await get('/v1/companies/MSFT:US/fund-exposure');
    expect(today.body.fund_count).toBe(2);
    expect(today.body).not.toHaveProperty('as_of');
    expect(today.body.gaps.some((g) => g.code.startsWith('as_of'))).toBe(false);
    // 422 for a day that does not exist.
    expect((await get('/v1/companies/MSFT:US/fund-exposure?as_of=2023-02-29')).body.detail).toEqual([expect.objectContaining({ type: 'value_error', loc: ['query', 'as_of'] })]);
  });

  it('a newer complete filing of the fund supersedes the older one; an incomplete one does not yet; a replay does not regress', async () => {
    const ds = api.context.dataSource;
    const newer = (chunk: number, holdings: FundHoldingsData['holdings']) =>
      ({ ...variant({ key: 'CIK0000002230', accession: '0000002230-23-990002', reportDate: '2023-09-30', name: 'unused', holdings, chunk: { index: chunk, count: 2, holdings_total: 2 } }),
        data: { ...adx.data, accession: '0000002230-23-990002', fund: { ...adx.data.fund, report_date: '2023-09-30' }, chunk: { index: chunk, count: 2, holdings_total: 2 }, holdings } }) as RecordEnvelope<FundHoldingsData>;
    await projectRecords(ds, [newer(0, [{ ...adxMsft, index: 0, balance: 500000, val_usd: 157000000, pct_val: 6.5 }])]);
    let adxRow = (await get('/v1/companies/MSFT:US/fund-exposure?sort=value')).body.data[0]!;
    expect(adxRow).toMatchObject({ shares: 517700, as_of_date: '2023-06-30' });
    await projectRecords(ds, [newer(1, [{ ...adx.data.holdings[0]!, index: 1 }])]);
    adxRow = (await get('/v1/companies/MSFT:US/fund-exposure?sort=value')).body.data[0]!;
    expect(adxRow).toMatchObject({ shares: 500000, as_of_date: '2023-09-30', weight_pct: 6.5 });
    const [{ n }] = await ds.query<[{ n: number }]>(`SELECT count(*)::int AS n FROM fund_holdings WHERE fund_key = 'CIK0000002230'`);
    expect(n).toBe(2);
    expect(await projectRecords(ds, [adx])).toMatchObject({ inserted: [], updated: [], unchanged: 1 });
    expect((await get('/v1/companies/MSFT:US/fund-exposure?sort=value')).body.data[0]).toMatchObject({ as_of_date: '2023-09-30' });
  });
});
