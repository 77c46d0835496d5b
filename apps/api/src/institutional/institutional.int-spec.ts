import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CompanyData, RecordEnvelope } from '@app/contracts';
import { createLogger } from '@app/observability';
import { projectRecords } from '@app/persistence';
import { actiam2020Q4, createTestDatabase, deriveThirteenF, holdingOf, LTSONE_2023Q4_ACCESSION, ltsone2023Q3, ltsone2023Q4, seedCrosswalk, TESLA, withShares, type TestDatabase } from '@app/testing';
import type { ApiContext } from '../api.context';
import { buildApiServer } from '../api.server';
import { apiConfigSchema } from '../config/api.config';

// The 13F routes and MCP tools through the real api on Fastify, over rows the real projection wrote
// from the real ACTIAM (2020Q4, thousands) and LTSONE (2023Q3, dollars) filings; LTSONE's 2023Q4 is
// derived from its 2023Q3 record (libs/testing/src/thirteenf-seed.ts states how).
const EXAMPLES = resolve(__dirname, '../../../../libs/contracts/src/examples');
const msftCompany = JSON.parse(readFileSync(join(EXAMPLES, 'company@1.msft.json'), 'utf8')) as RecordEnvelope<CompanyData>;
const MSFT = '594918104';
const MSFT_CIK = '0000789019';

let db: TestDatabase;
let api: { server: FastifyInstance; context: ApiContext };
let key: string;
let freeKey: string;

type Row = { manager: { cik: string; name: string | null }; cusip: string; shares: number; value_usd: number; weight: number | null; change: { type: string | null; share_delta: number | null; previous_shares: number | null }; call: { shares: number; value_usd: number }; symbol: string | null; provenance: { quote: string; accession: string } | null; filing_url: string | null; accession: string | null; filed_date: string | null };
interface Body {
  data: Row[];
  pagination: { next_cursor: string | null; has_more: boolean };
  meta: { quarter: string | null; previous_quarter: string | null; quarters: string[]; cusips?: string[] };
  as_of?: string;
  gaps?: Array<{ code: string; detail: string }>;
  security?: Record<string, unknown>;
  filings?: Array<Record<string, unknown>>;
  quarters?: Array<Record<string, unknown>>;
  type?: string;
  detail?: Array<{ type: string; loc: unknown[]; ctx?: Record<string, unknown> }>;
}
const get = async (url: string, k = key) => {
  const r = await api.server.inject({ method: 'GET', url, headers: { authorization: `Bearer ${k}` } });
  return { status: r.statusCode, body: r.json<Body>() };
};

beforeAll(async () => {
  db = await createTestDatabase('thirteenf_api');
  api = await buildApiServer(
    apiConfigSchema.parse({ DATABASE_URL: db.url, API_KEY_PEPPER: 'pepper-'.repeat(6), CURSOR_SECRET: 'cursor-'.repeat(6), LOG_LEVEL: 'silent', PLAN_BUILDER_BURST_PER_SECOND: '1000000' }),
    { logger: createLogger({ level: 'silent' }) },
  );
  const ds = api.context.dataSource;
  await projectRecords(ds, [msftCompany]);
  await seedCrosswalk(ds, MSFT, MSFT_CIK, 'MSFT:US');
  const q3 = ltsone2023Q3();
  await projectRecords(ds, [actiam2020Q4(), q3]);
  await projectRecords(ds, [ltsone2023Q4(q3)]);
  await ds.query(`INSERT INTO accounts (id, name, plan) VALUES ('acct_b', 'b', 'builder'), ('acct_f', 'f', 'free')`);
  key = (await api.context.keys.createKey({ accountId: 'acct_b', mode: 'live', label: 't' })).key;
  freeKey = (await api.context.keys.createKey({ accountId: 'acct_f', mode: 'live', label: 't' })).key;
}, 120_000);

afterAll(async () => {
  await api?.server.close();
  await api?.context.close();
  await db?.drop();
});

describe('GET /v1/companies/{symbol}/institutional-holders', () => {
  it("serves ACTIAM's real Microsoft position at 2020Q4: dollars from thousands, weight, quote and the filing", async () => {
    const { status, body } = await get('/v1/companies/msft:us/institutional-holders?quarter=2020q4');
    expect(status).toBe(200);
    expect(body.meta).toEqual({ quarter: '2020Q4', period: '2020-12-31', previous_quarter: '2020Q3', quarters: ['2023Q4', '2023Q3', '2020Q4'], cusips: [MSFT] });
    expect(body.data).toHaveLength(1);
    const row = body.data[0]!;
    expect(row).toMatchObject({
      manager: { cik: '0001619124', name: 'ACTIAM N.V.' },
      cusip: MSFT,
      symbol: 'MSFT:US',
      shares: 1009277,
      value_usd: 224483000,
      put: { shares: 0, value_usd: 0 },
      change: { type: null, share_delta: null, previous_shares: null },
      weight: 0.306605, // 224,483 / 732,158 (the filing's tableValueTotal)
      accession: '0001619124-21-000002',
      filed_date: '2021-02-12',
      filing_url: 'https://www.sec.gov/Archives/edgar/data/1619124/000161912421000002/0001619124-21-000002.txt',
    });
    expect(row.provenance!.quote).toMatch(/^<ns1:infoTable>[\s\S]*<ns1:value>224483<\/ns1:value>[\s\S]*<\/ns1:infoTable>$/);
  });

  it('defaults to the latest quarter with positions, sorts by change, and pages with a cursor bound to its filters', async () => {
    const latest = await get('/v1/companies/MSFT:US/institutional-holders');
    expect(latest.body.meta.quarter).toBe('2023Q4');
    expect(latest.body.data[0]).toMatchObject({ change: { type: 'increased', share_delta: 15000, previous_shares: 65000 }, weight: 0.6 });
    const first = await get('/v1/companies/MSFT:US/institutional-holders?quarter=2023Q3&limit=1&sort=change');
    expect(first.body.pagination.has_more).toBe(false);
    const cursorCase = await get('/v1/companies/MSFT:US/institutional-holders?quarter=2020Q4&limit=1');
    expect(cursorCase.body.pagination).toEqual({ next_cursor: null, has_more: false });
  });

  it('answers a quarter without data with an empty list naming the quarters that exist; 422 for a bad quarter or sort; 404 for an unknown symbol', async () => {
    const empty = await get('/v1/companies/MSFT:US/institutional-holders?quarter=2019Q1');
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ data: [], pagination: { next_cursor: null, has_more: false }, meta: { quarter: '2019Q1', quarters: ['2023Q4', '2023Q3', '2020Q4'] } });
    const bad = await get('/v1/companies/MSFT:US/institutional-holders?quarter=2025Q5');
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toEqual([expect.objectContaining({ type: 'string_pattern_mismatch', loc: ['query', 'quarter'] })]);
    expect((await get('/v1/companies/MSFT:US/institutional-holders?sort=weight')).body.detail?.[0]).toMatchObject({ type: 'literal_error', loc: ['query', 'sort'] });
    expect((await get('/v1/companies/MSFT:US/institutional-holders?limit=26', freeKey)).body.detail?.[0]).toMatchObject({ type: 'less_than_equal', ctx: { le: 25 } });
    const unknown = await get('/v1/companies/NOPE:US/institutional-holders');
    expect(unknown.status).toBe(404);
    expect(unknown.body.type).toMatch(/unknown-symbol$/);
  });
});

describe('GET /v1/securities/{cusip}/institutional-holders', () => {
  it('keeps an unmatched CUSIP queryable', async () => {
    const { status, body } = await get('/v1/securities/824348106/institutional-holders?quarter=2023Q3');
    expect(status).toBe(200);
    expect(body.security).toEqual({ cusip: '824348106', issuer: 'SHERWIN WILLIAMS CO', class_title: 'COM', symbol: null });
    expect(body.data.map((r) => [r.manager.name, r.shares, r.value_usd, r.symbol])).toEqual([['LTS One Management LP', 80000, 20404000, null]]);
    expect(body.meta.quarters).toEqual(['2023Q4', '2023Q3']);
    expect((await get('/v1/securities/82434810/institutional-holders')).status).toBe(422);
  });
});

describe('GET /v1/institutions', () => {
  it('finds managers by folded name or CIK, and 404s an unknown CIK', async () => {
    expect((await get('/v1/institutions?q=actiam')).body.data).toEqual([expect.objectContaining({ cik: '0001619124', name: 'ACTIAM N.V.', latest_quarter: '2020Q4' })]);
    expect((await get('/v1/institutions?q=1894188')).body.data.map((d) => (d as unknown as { cik: string }).cik)).toEqual(['0001894188']);
    const detail = await get('/v1/institutions/1894188');
    expect(detail.status).toBe(200);
    expect(detail.body.filings).toEqual([
      expect.objectContaining({ accession: LTSONE_2023Q4_ACCESSION, form: '13F-HR', period: '2023-12-31', holdings_count: 4, value_total: 50120000, value_unit: 'dollars' }),
      expect.objectContaining({ accession: '0001894188-23-000007', form: '13F-HR', report_type: 'holdings', amendment_type: null, period: '2023-09-30', superseded_by: null, holdings_count: 14, value_total: 454926000, value_unit: 'dollars', unit_flag: null }),
    ]);
    expect(detail.body.quarters!.map((q) => q.quarter)).toEqual(['2023Q4', '2023Q3']);
    const unknown = await get('/v1/institutions/42');
    expect(unknown.status).toBe(404);
    expect(unknown.body.type).toMatch(/unknown-institution$/);
  });

  it("serves a manager's portfolio with sold_out rows, options apart and matched symbols", async () => {
    const { body } = await get('/v1/institutions/0001894188/holdings?sort=change&limit=20');
    expect(body.meta).toMatchObject({ quarter: '2023Q4', previous_quarter: '2023Q3' });
    // 2023Q4 files Microsoft, Amazon and Tesla; the twelve other 2023Q3 rows are served sold_out.
    expect(body.data.map((r) => [r.cusip, r.change.type, r.change.share_delta, r.symbol]).slice(0, 3)).toEqual([
      [MSFT, 'increased', 15000, 'MSFT:US'],
      [TESLA, 'new', 1000, null],
      ['023135106', 'unchanged', 0, null],
    ]);
    expect(body.data.slice(3).map((r) => r.change.type)).toEqual(Array(12).fill('sold_out'));
    const sherwin = body.data.find((r) => r.cusip === '824348106')!;
    expect(sherwin).toMatchObject({ shares: 0, change: { type: 'sold_out', share_delta: -80000, previous_shares: 80000 }, symbol: null, accession: '0001894188-23-000007', filed_date: '2023-11-14' });
    expect(sherwin.provenance!.quote).toContain('<ns1:nameOfIssuer>SHERWIN WILLIAMS CO</ns1:nameOfIssuer>');
    expect(body.data[1]!.call).toEqual({ shares: 500, value_usd: 120000 });
    const page1 = await get('/v1/institutions/0001894188/holdings?quarter=2023Q3&limit=5');
    expect(page1.body.data.map((r) => r.value_usd)).toEqual([...page1.body.data.map((r) => r.value_usd)].sort((a, b) => b - a));
    const page2 = await get(`/v1/institutions/0001894188/holdings?quarter=2023Q3&limit=10&cursor=${page1.body.pagination.next_cursor}`);
    expect([...page1.body.data, ...page2.body.data].map((r) => r.cusip)).toHaveLength(14);
    expect(page2.body.pagination.has_more).toBe(false);
    expect((await get(`/v1/institutions/0001894188/holdings?quarter=2023Q3&sort=change&cursor=${page1.body.pagination.next_cursor}`)).status).toBe(422);
  });
});

describe('the 13F MCP tools', () => {
  it('answer as the REST routes do', async () => {
    const url = await api.server.listen({ port: 0, host: '127.0.0.1' });
    const client = new Client({ name: 'int', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
    try {
      const holders = await client.callTool({ name: 'get_institutional_holders', arguments: { symbol: 'MSFT:US', quarter: '2020Q4' } });
      expect(holders.structuredContent).toEqual((await get('/v1/companies/MSFT:US/institutional-holders?quarter=2020Q4&limit=10')).body);
      const byCusip = await client.callTool({ name: 'get_institutional_holders', arguments: { cusip: '824348106' } });
      expect(byCusip.structuredContent).toEqual((await get('/v1/securities/824348106/institutional-holders?limit=10')).body);
      const found = await client.callTool({ name: 'search_institutions', arguments: { q: 'lts one' } });
      expect((found.structuredContent as Body).data).toEqual([expect.objectContaining({ cik: '0001894188' })]);
      const holdings = await client.callTool({ name: 'get_institution_holdings', arguments: { cik: '1894188' } });
      expect(holdings.structuredContent).toEqual((await get('/v1/institutions/1894188/holdings?limit=10')).body);
    } finally {
      await client.close();
    }
  });
});

describe('GET /v1/companies/{symbol}/institutional-holders?as_of=', () => {
  const holders = async (query: string) => (await get(`/v1/companies/MSFT:US/institutional-holders?${query}`)).body;

  it('as of a day after every filing: the rows the projection serves, in every sort', async () => {
    for (const quarter of ['2020Q4', '2023Q3', '2023Q4']) {
      for (const sort of ['value', 'shares', 'change']) {
        const today = await holders(`quarter=${quarter}&sort=${sort}`);
        const asOf = await holders(`quarter=${quarter}&sort=${sort}&as_of=2025-01-01`);
        expect(asOf.data).toEqual(today.data);
        expect(asOf.meta).toEqual(today.meta);
        expect(asOf.as_of).toBe('2025-01-01');
        expect(today).not.toHaveProperty('as_of');
        expect(asOf.gaps!.slice(0, today.gaps!.length)).toEqual(today.gaps);
        expect(asOf.gaps!.slice(today.gaps!.length).map((g) => g.code)).toEqual(['as_of_rule', 'as_of_not_point_in_time', 'as_of_not_point_in_time']);
      }
    }
  });

  it('the quarters some holder had filed by the day: ACTIAM filed 2020Q4 on 2021-02-12, LTSONE 2023Q3 on 2023-11-14 and 2023Q4 on 2024-02-14', async () => {
    const none = await holders('as_of=2021-02-11');
    expect(none).toMatchObject({ data: [], meta: { quarter: null, quarters: [], cusips: [] } });
    expect((await holders('as_of=2021-02-12')).meta).toMatchObject({ quarter: '2020Q4', quarters: ['2020Q4'] });
    const q3 = await holders('as_of=2023-11-14');
    expect(q3.meta).toMatchObject({ quarter: '2023Q3', quarters: ['2023Q3', '2020Q4'], cusips: [MSFT] });
    expect(q3.data).toEqual((await holders('quarter=2023Q3')).data);
    // Asked for a quarter not yet filed that day: empty, as any quarter without data.
    expect((await holders('quarter=2023Q4&as_of=2024-02-13')).data).toEqual([]);
    expect((await holders('as_of=2024-02-14')).meta.quarter).toBe('2023Q4');
  });

  it('a restatement filed later: as of a day before it, the quarter as first filed and the next quarter changed against it', async () => {
    const before = { q3: await holders('quarter=2023Q3'), q4: await holders('quarter=2023Q4&sort=change') };
    // LTSONE's 2023Q3 restated on 2024-03-01 (derived from its real filing): Microsoft 70,000 shares, the other rows as filed.
    const q3 = ltsone2023Q3();
    const restated = deriveThirteenF(
      q3,
      { accession: '0001894188-24-990002', form: '13F-HR/A', amendment: { number: 1, type: 'restatement' }, filed_date: '2024-03-01', accepted_at: null },
      q3.data.holdings.map((h) => (h.cusip === MSFT ? withShares(holdingOf(q3, MSFT), 70_000) : h)),
    );
    await projectRecords(api.context.dataSource, [restated]);
    const today = { q3: await holders('quarter=2023Q3'), q4: await holders('quarter=2023Q4&sort=change') };
    expect(today.q3.data.map((r) => [r.shares, r.accession])).toEqual([[70000, '0001894188-24-990002']]);
    expect(today.q4.data[0]!.change).toEqual({ type: 'increased', share_delta: 10000, previous_shares: 70000 });
    // The day before the restatement: the quarter as first filed, and 2023Q4 against it.
    expect((await holders('quarter=2023Q3&as_of=2024-02-29')).data).toEqual(before.q3.data);
    expect((await holders('quarter=2023Q4&sort=change&as_of=2024-02-29')).data).toEqual(before.q4.data);
    expect(before.q4.data[0]!.change).toEqual({ type: 'increased', share_delta: 15000, previous_shares: 65000 });
    // From its filing day on: as today.
    expect((await holders('quarter=2023Q3&as_of=2024-03-01')).data).toEqual(today.q3.data);
    expect((await holders('quarter=2023Q4&sort=change&as_of=2024-03-01')).data).toEqual(today.q4.data);
  });

  it('pages with a cursor bound to as_of; 422 for a bad day; the MCP tool takes as_of', async () => {
    const page = await holders('quarter=2020Q4&as_of=2025-01-01&limit=1');
    expect(page.pagination).toEqual({ next_cursor: null, has_more: false });
    const bad = await get('/v1/companies/MSFT:US/institutional-holders?as_of=2024-02-30');
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toEqual([expect.objectContaining({ type: 'value_error', loc: ['query', 'as_of'] })]);
    // The MCP tools' test above left the server listening.
    const address = api.server.addresses()[0] as AddressInfo;
    const client = new Client({ name: 'int', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://${address.address}:${address.port}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
    try {
      const viaTool = await client.callTool({ name: 'get_institutional_holders', arguments: { symbol: 'MSFT:US', as_of: '2023-11-14' } });
      expect(viaTool.structuredContent).toEqual(await holders('as_of=2023-11-14&limit=10'));
    } finally {
      await client.close();
    }
  });
});
