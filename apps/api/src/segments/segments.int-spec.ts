// @infra-path: the only spec of its repository's SQL (libs/persistence): docker-compose.yml's postgres:17 in containers, the machine's (15 on CI) locally.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { RecordEnvelope, SegmentData } from '@app/contracts';
import { createLogger } from '@app/observability';
import {
  createDataSource,
  projectRecords,
  catalogColumns,
  schemaDifferences,
  TABLES,
} from '@app/persistence';
import { createTestDatabase, type TestDatabase } from '@app/testing';
import type { ApiContext } from '../api.context';
import { buildApiServer } from '../api.server';
import { apiConfigSchema } from '../config/api.config';

const EXAMPLES = join(__dirname, '../../../../libs/contracts/src/examples');
const americas = JSON.parse(readFileSync(join(EXAMPLES, 'segment@1.aapl-americas-q2-fy2025.json'), 'utf8')) as RecordEnvelope<SegmentData>;
const iphoneYtd = JSON.parse(readFileSync(join(EXAMPLES, 'segment@1.aapl-iphone-ytd-fy2025.json'), 'utf8')) as RecordEnvelope<SegmentData>;
const americasIncome = JSON.parse(readFileSync(join(EXAMPLES, 'segment@1.aapl-americas-operating-income-q2-fy2025.json'), 'utf8')) as RecordEnvelope<SegmentData>;

let db: TestDatabase;
let api: { server: FastifyInstance; context: ApiContext };
let key: string;
let freeKey: string;

interface Body {
  data: Array<{ member: string; metric_key: string; period: { end_date: string; kind: string; calendar: string }; value: { raw: number; normalized: number; conversion_factor: number; unit: string; original_unit: string }; tier: string; provenance: { quote: string; accession: string }; reconciliation: unknown }>;
  pagination: { next_cursor: string | null; has_more: boolean };
  company: { symbol: string; cik: string };
  gaps: Array<{ code: string; field?: string; detail: string }>;
}

const get = (url: string, k = key) => api.server.inject({ method: 'GET', url, headers: { authorization: `Bearer ${k}` } });

/** A copy of a real record for another quarter (for paging): same shape, other key and period end. */
function shifted(base: RecordEnvelope<SegmentData>, i: number): RecordEnvelope<SegmentData> {
  const end = new Date(Date.UTC(2020, 0, 1) + i * 7 * 86_400_000).toISOString().slice(0, 10);
  return { ...base, key: `${base.key}#${i}`, data: { ...base.data, period: { ...base.data.period, end_date: end }, member: `${base.data.member} ${i % 3}` } };
}

beforeAll(async () => {
  db = await createTestDatabase('segments');
  api = await buildApiServer(
    apiConfigSchema.parse({ DATABASE_URL: db.url, API_KEY_PEPPER: 'pepper-'.repeat(6), CURSOR_SECRET: 'cursor-'.repeat(6), LOG_LEVEL: 'silent', PLAN_BUILDER_BURST_PER_SECOND: '1000000', PLAN_BUILDER_DAILY_QUOTA: '100000000' }),
    { logger: createLogger({ level: 'silent' }) },
  );
  const ds = api.context.dataSource;
  await ds.query(
    `INSERT INTO companies (symbol, ticker, market, cik, name, issuer_id, provenance, record_id, data_hash, observed_at)
     VALUES ('AAPL:US', 'AAPL', 'US', '0000320193', 'Apple Inc.', 320193, $1::jsonb, 'rec_aapl', 'h', now()),
            ('MSFT:US', 'MSFT', 'US', '0000789019', 'MICROSOFT CORP', 789019, $1::jsonb, 'rec_msft', 'h', now())`,
    [JSON.stringify(americas.provenance)],
  );
  await ds.query(`INSERT INTO accounts (id, name, plan) VALUES ('acct_b', 'b', 'builder'), ('acct_f', 'f', 'free')`);
  key = (await api.context.keys.createKey({ accountId: 'acct_b', mode: 'live', label: 't' })).key;
  freeKey = (await api.context.keys.createKey({ accountId: 'acct_f', mode: 'live', label: 't' })).key;
});

afterAll(async () => {
  await api?.server.close();
  await db?.drop();
});

describe('segment_observations read model', () => {
  it('agrees with its table spec (the migration creates exactly what the spec describes)', async () => {
    const ds = createDataSource({ url: db.url });
    await ds.initialize();
    try {
      const differences = schemaDifferences(TABLES, await catalogColumns(ds));
      expect(differences.filter((q) => q.includes('segment_observations'))).toEqual([]);
    } finally {
      await ds.destroy();
    }
  });

  it('projects idempotently: insert, then unchanged on replay', async () => {
    const ds = api.context.dataSource;
    expect(await projectRecords(ds, [americas])).toMatchObject({ inserted: [expect.any(String)] });
    expect(await projectRecords(ds, [americas])).toMatchObject({ inserted: [], updated: [], unchanged: 1 });
    expect(await projectRecords(ds, [iphoneYtd])).toMatchObject({ inserted: [expect.any(String)] });
    const rows = await ds.query<Array<{ value: string; period_end: string }>>(`SELECT value::text AS value, to_char(period_end, 'YYYY-MM-DD') AS period_end FROM segment_observations WHERE record_key = $1`, [americas.key]);
    expect(rows).toEqual([{ value: '40315000000', period_end: '2025-03-29' }]);
  });
});

describe('derived fourth quarters', () => {
  // Synthetic records built from the real example's shape: the SQL path of the derivation (the
  // arithmetic itself is unit-tested in libs/edgar). Apple reported Americas net sales of $167,045M
  // for fiscal 2024 and $125,381M for its first nine months. Cleaned up afterwards.
  const annual = { ...americas, key: 'test-annual', data: { ...americas.data, form: '10-K', value: 167_045_000_000, period: { kind: 'annual' as const, start_date: '2023-10-01', end_date: '2024-09-28', calendar: '2024-Q3', fiscal: 'FY2024' } } };
  const nine = { ...americas, key: 'test-nine', data: { ...americas.data, value: 125_381_000_000, period: { kind: 'ytd' as const, start_date: '2023-10-01', end_date: '2024-06-29', calendar: '2024-Q2', fiscal: 'FY2024-Q3-YTD' } } };

  afterAll(async () => {
    await api.context.dataSource.query(`DELETE FROM segment_observations WHERE record_key LIKE 'test-%'`);
  });

  it('derives Q4 = annual - nine months as a separate derived_q4 row, whichever lands first', async () => {
    const ds = api.context.dataSource;
    await projectRecords(ds, [annual]);
    expect(await ds.query(`SELECT 1 FROM segment_observations WHERE tier = 'derived_q4'`)).toEqual([]);
    await projectRecords(ds, [nine]);
    await projectRecords(ds, [nine]);
    const rows = await ds.query<Array<Record<string, string>>>(
      `SELECT record_key, value::text AS value, period_kind, to_char(period_start, 'YYYY-MM-DD') AS start, to_char(period_end, 'YYYY-MM-DD') AS "end", period_fiscal, tier
         FROM segment_observations WHERE tier = 'derived_q4'`,
    );
    expect(rows).toEqual([{ record_key: 'test-annual#derived_q4', value: '41664000000', period_kind: 'quarter', start: '2024-06-30', end: '2024-09-28', period_fiscal: 'FY2024-Q4', tier: 'derived_q4' }]);
  });
});

describe('GET /v1/companies/{symbol}/segments', () => {
  it('serves the observations with the company, gaps and provenance (as_reported by default)', async () => {
    const r = await get('/v1/companies/aapl:us/segments');
    expect(r.statusCode).toBe(200);
    const body = r.json<Body>();
    expect(body.company).toMatchObject({ symbol: 'AAPL:US', cik: '0000320193' });
    expect(body.pagination).toEqual({ next_cursor: null, has_more: false });
    const a = body.data.find((d) => d.member === 'Americas')!;
    expect(a).toMatchObject({
      metric_key: 'segment_revenue.segment',
      issuer_label: 'Net sales',
      dimension: 'segment',
      period: { calendar: '2025-Q1', fiscal: 'FY2025-Q2', end_date: '2025-03-29', kind: 'quarter', start_date: '2024-12-29' },
      value: { raw: 40_315_000_000, normalized: 40_315_000_000, unit: 'USD', original_unit: 'USD millions', conversion_factor: 1 },
      tier: 'verified',
      provenance: { accession: '0000320193-25-000057', quote: 'Americas:Net sales$40,315 $37,273 $92,963 $87,703', source_provider: 'sec' },
    });
    expect(body.gaps).toEqual(
      expect.arrayContaining([
        { code: 'no_annual_segments', detail: expect.stringMatching(/^no 10-K segment facts yet/) },
        { code: 'derived_q4', field: 'tier', detail: expect.stringMatching(/derived_q4/) },
      ]),
    );
  });

  it("serves each figure's reconciliation: Apple's Note 13 takes segment operating income $40,136M to total operating income $29,589M", async () => {
    await projectRecords(api.context.dataSource, [americasIncome]);
    try {
      const body = (await get('/v1/companies/AAPL:US/segments')).json<Body>();
      const income = body.data.find((d) => d.metric_key === 'segment_operating_income.segment' && d.member === 'Americas')!;
      expect(income.reconciliation).toEqual({
        members: 5,
        subtotals: [],
        segments_sum: 40_136_000_000,
        operating_segments_total: 40_136_000_000,
        segments_match: true,
        reconciling_items: [
          { concept: 'us-gaap:ResearchAndDevelopmentExpense', member_qname: 'us-gaap:MaterialReconcilingItemsMember', member_kind: 'other', label: 'Research and development expense', value: -8_550_000_000 },
          { concept: 'us-gaap:OtherGeneralAndAdministrativeExpense', member_qname: 'us-gaap:CorporateNonSegmentMember', member_kind: 'corporate', label: 'Other corporate expenses, net', value: -1_997_000_000 },
        ],
        total: 29_589_000_000,
        total_concept: 'us-gaap:OperatingIncomeLoss',
        total_from: 'filer_table',
        method: 'with_reconciling_items',
        difference: 0,
        matches: true,
      });
      // Net sales by segment add up alone to total net sales $95,359M.
      const sales = body.data.find((d) => d.metric_key === 'segment_revenue.segment' && d.member === 'Americas')!;
      expect(sales.reconciliation).toMatchObject({ segments_sum: 95_359_000_000, total: 95_359_000_000, total_from: 'consolidated', method: 'segments_alone', reconciling_items: [], matches: true });
    } finally {
      await api.context.dataSource.query('DELETE FROM segment_observations WHERE record_key = $1', [americasIncome.key]);
    }
  });

  it.each([
    ['thousand', 40_315_000, 1e-3],
    ['million', 40_315, 1e-6],
    ['billion', 40.315, 1e-9],
  ])('unit=%s scales normalized and names the factor', async (unit, normalized, factor) => {
    const body = (await get(`/v1/companies/AAPL:US/segments?unit=${unit}`)).json<Body>();
    const a = body.data.find((d) => d.member === 'Americas')!;
    expect(a.value).toMatchObject({ raw: 40_315_000_000, normalized, conversion_factor: factor });
  });

  it('answers 422 literal_error for an unknown unit', async () => {
    const r = await get('/v1/companies/AAPL:US/segments?unit=crore');
    expect(r.statusCode).toBe(422);
    expect(r.json()).toMatchObject({
      detail: [expect.objectContaining({ type: 'literal_error', loc: ['query', 'unit'], input: 'crore' })],
    });
  });

  it('answers 404 for an unknown symbol and 422 for a malformed one', async () => {
    const r = await get('/v1/companies/NOPE:US/segments');
    expect(r.statusCode).toBe(404);
    expect(r.json<{ type: string }>().type).toMatch(/\/errors\/unknown-symbol$/);
    expect((await get('/v1/companies/NOPE/segments')).statusCode).toBe(422);
  });

  it('answers an empty page with gaps for a company without segment data', async () => {
    const body = (await get('/v1/companies/MSFT:US/segments')).json<Body>();
    expect(body.data).toEqual([]);
    expect(body.gaps[0]).toEqual({ code: 'no_segments_reported', detail: expect.stringMatching(/^no segment facts ingested yet/) });
  });

  it('caps limit at the plan limit', async () => {
    const r = await get('/v1/companies/AAPL:US/segments?limit=26', freeKey);
    expect(r.statusCode).toBe(422);
    expect(r.json<{ detail: Array<{ type: string; ctx: { le: number } }> }>().detail[0]).toMatchObject({ type: 'less_than_equal', ctx: { le: 25 } });
  });

  it('walks every row exactly once in both directions, latest period first by default', async () => {
    for (let i = 0; i < 57; i++) await projectRecords(api.context.dataSource, [shifted(i % 2 ? americas : iphoneYtd, i)]);
    const total = 59;
    const walks = new Map<string, string[]>();
    for (const direction of ['asc', undefined] as const) {
      for (const limit of [1, 7, 50]) {
        const seen: string[] = [];
        let cursor: string | null = null;
        do {
          const url: string = `/v1/companies/AAPL:US/segments?limit=${limit}${direction ? `&direction=${direction}` : ''}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
          const r = await get(url);
          expect(r.statusCode).toBe(200);
          const body = r.json<Body>();
          seen.push(...body.data.map((d) => `${d.period.end_date}|${d.metric_key}|${d.member}`));
          cursor = body.pagination.next_cursor;
          expect(body.pagination.has_more).toBe(cursor !== null);
        } while (cursor);
        expect(seen.length).toBe(total);
        expect(new Set(seen).size).toBe(total);
        const ends = seen.map((s) => s.slice(0, 10));
        expect(ends).toEqual([...ends].sort((a, b) => (direction === 'asc' ? a.localeCompare(b) : b.localeCompare(a))));
        const asc = walks.get(`asc${limit}`);
        if (asc) expect(seen).toEqual([...asc].reverse());
        else walks.set(`asc${limit}`, seen);
      }
    }
  });

  it('refuses a tampered or foreign cursor', async () => {
    const first = (await get('/v1/companies/AAPL:US/segments?limit=1')).json<Body>();
    const cursor = first.pagination.next_cursor!;
    expect((await get(`/v1/companies/AAPL:US/segments?cursor=${encodeURIComponent(`${cursor}x`)}`)).statusCode).toBe(422);
    expect((await get(`/v1/companies/MSFT:US/segments?cursor=${encodeURIComponent(cursor)}`)).statusCode).toBe(422);
    expect((await get(`/v1/companies/AAPL:US/segments?direction=asc&cursor=${encodeURIComponent(cursor)}`)).statusCode).toBe(422);
  });
});
