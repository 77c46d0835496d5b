import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { FilingData, RecordEnvelope } from '@app/contracts';
import { createLogger } from '@app/observability';
import {
  projectRecords,
} from '@app/persistence';
import { createTestDatabase, type TestDatabase } from '@app/testing';
import type { ApiContext } from '../api.context';
import { buildApiServer } from '../api.server';
import { apiConfigSchema } from '../config/api.config';

const DOCS = 'https://docs.test.example';
const example = JSON.parse(
  readFileSync(join(__dirname, '../../../../libs/contracts/src/examples/filing@1.msft-10-k.json'), 'utf8'),
) as RecordEnvelope<FilingData>;

let db: TestDatabase;
let a: { server: FastifyInstance; context: ApiContext };
let key: string;
let freeKey: string;

interface Filing { accession: string; cik: string; form: string; filed_date: string; [k: string]: unknown }
interface Page { data: Filing[]; pagination: { next_cursor: string | null; has_more: boolean }; company?: Record<string, unknown> }

const get = (url: string, k: string | undefined = key) => a.server.inject({ method: 'GET', url, headers: k ? { authorization: `Bearer ${k}` } : {} });

/** 300 synthetic filings over 2 CIKs and 60 days (5 per day: ties on filed_date), plus the real MSFT 10-K. */
function synthetic(i: number): RecordEnvelope<FilingData> {
  const day = new Date(Date.UTC(2024, 0, 1) + Math.floor(i / 5) * 86_400_000).toISOString().slice(0, 10);
  const accession = `00000000${String(10 + (i % 7)).padStart(2, '0')}-24-${String(i).padStart(6, '0')}`;
  const cik = i % 2 === 0 ? '0000789019' : '0001318605';
  const form = ['10-Q', '8-K', '4', '10-K/A', 'SC 13G'][i % 5]!;
  return {
    ...example,
    key: accession,
    provenance: { ...example.provenance, accession, quote: JSON.stringify(accession) },
    data: { ...example.data, accession, cik, company_name: cik === '0000789019' ? 'MICROSOFT CORP' : 'Tesla, Inc.', form, filed_date: day, is_amendment: form.endsWith('/A'), items: form !== '8-K' ? [] : i % 10 === 1 ? ['2.02', '9.01'] : ['5.02', '9.01'] },
  };
}

beforeAll(async () => {
  db = await createTestDatabase('api_filings');
  const config = apiConfigSchema.parse({
    DATABASE_URL: db.url,
    API_KEY_PEPPER: 'pepper-'.repeat(6),
    CURSOR_SECRET: 'cursor-'.repeat(6),
    DOCS_URL: DOCS,
    LOG_LEVEL: 'silent',
    PLAN_ENTERPRISE_BURST_PER_SECOND: '1000000',
    PLAN_ENTERPRISE_DAILY_QUOTA: '100000000',
    PLAN_FREE_BURST_PER_SECOND: '1000000',
  });
  a = await buildApiServer(config, { logger: createLogger({ level: 'silent' }) });
  const ds = a.context.dataSource;
  await ds.query(
    `INSERT INTO companies (symbol, ticker, market, cik, name, issuer_id, provenance, record_id, data_hash, observed_at)
     VALUES ('MSFT:US', 'MSFT', 'US', '0000789019', 'MICROSOFT CORP', 789019, $1::jsonb, 'rec_msft', 'h', now())`,
    [JSON.stringify(example.provenance)],
  );
  await projectRecords(ds, [example]);
  for (let i = 0; i < 300; i++) await projectRecords(ds, [synthetic(i)]);
  await ds.query(`INSERT INTO accounts (id, name, plan) VALUES ('acct_e', 'e', 'enterprise'), ('acct_f', 'f', 'free')`);
  key = (await a.context.keys.createKey({ accountId: 'acct_e', mode: 'live', label: 't' })).key;
  freeKey = (await a.context.keys.createKey({ accountId: 'acct_f', mode: 'live', label: 't' })).key;
}, 120_000);

afterAll(async () => {
  await a?.server.close();
  await db?.drop();
});

async function walk(base: string, limit: number, direction?: 'asc' | 'desc'): Promise<{ rows: Filing[]; pages: number }> {
  const rows: Filing[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const sep = base.includes('?') ? '&' : '?';
    const url: string = `${base}${sep}limit=${limit}${direction ? `&direction=${direction}` : ''}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const r = await get(url);
    expect(r.statusCode).toBe(200);
    const body = r.json<Page>();
    expect(body.data.length).toBeLessThanOrEqual(limit);
    expect(body.pagination.has_more).toBe(body.pagination.next_cursor !== null);
    rows.push(...body.data);
    cursor = body.pagination.next_cursor;
    pages += 1;
  } while (cursor !== null);
  return { rows, pages };
}

const order = (rows: Filing[]) => [...rows].sort((x, y) => (x.filed_date === y.filed_date ? (x.accession < y.accession ? -1 : 1) : x.filed_date < y.filed_date ? -1 : 1));

describe('GET /v1/filings/{accession}', () => {
  it('serves the MSFT 10-K with provenance', async () => {
    const r = await get('/v1/filings/0000950170-25-100235');
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({
      accession: '0000950170-25-100235',
      cik: '0000789019',
      company_name: 'MICROSOFT CORP',
      symbol: 'MSFT:US',
      form: '10-K',
      filed_date: '2025-07-30',
      accepted_at: '2025-07-30T20:11:40.000Z',
      // Backfilled: first seen when the submissions JSON was fetched (the record's observed_at).
      first_seen_at: example.observed_at,
      report_period: '2025-06-30',
      primary_document_url: 'https://www.sec.gov/Archives/edgar/data/789019/000095017025100235/msft-20250630.htm',
      description: '10-K',
      items: [],
      item_details: [],
      size: 34889671,
      is_amendment: false,
      amends_accession: null,
      provenance: example.provenance,
    });
  });

  it('404 unknown-filing, 422 on a malformed accession, 401 without a key', async () => {
    const r = await get('/v1/filings/0000000000-00-000000');
    expect(r.statusCode).toBe(404);
    expect(r.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(r.json()).toMatchObject({ type: `${DOCS}/errors/unknown-filing`, status: 404, instance: '/v1/filings/0000000000-00-000000' });
    const bad = await get('/v1/filings/123');
    expect(bad.statusCode).toBe(422);
    expect(bad.json<{ detail: unknown[] }>().detail).toEqual([expect.objectContaining({ type: 'string_pattern_mismatch', loc: ['path', 'accession'], input: '123' })]);
    expect((await get('/v1/filings', '')).statusCode).toBe(401);
  });
});

describe('GET /v1/filings', () => {
  it('walks every filing exactly once in both directions with limits 1, 7 and 500', async () => {
    const all = order((await walk('/v1/filings', 500, 'asc')).rows);
    expect(all).toHaveLength(301);
    for (const limit of [1, 7, 500]) {
      const desc = await walk('/v1/filings', limit);
      expect(desc.rows.map((f) => f.accession)).toEqual([...all].reverse().map((f) => f.accession));
      expect(desc.pages).toBe(Math.ceil(301 / limit));
      const asc = await walk('/v1/filings', limit, 'asc');
      expect(asc.rows.map((f) => f.accession)).toEqual(all.map((f) => f.accession));
    }
  });

  it('names the filer by its listing symbol, null for a filer with no listing', async () => {
    const { rows } = await walk('/v1/filings', 500);
    expect(rows.filter((f) => f.cik === '0000789019').every((f) => f.symbol === 'MSFT:US')).toBe(true);
    expect(rows.filter((f) => f.cik === '0001318605').every((f) => f.symbol === null)).toBe(true);
    expect(rows.some((f) => f.cik === '0001318605')).toBe(true);
  });

  it('filters by forms (repeated or comma), date range and ciks', async () => {
    const { rows } = await walk('/v1/filings?forms=8-k&forms=10-k/a&filed_from=2024-01-10&filed_to=2024-01-20&ciks=789019', 3);
    expect(rows.length).toBeGreaterThan(0);
    for (const f of rows) {
      expect(['8-K', '10-K/A']).toContain(f.form);
      expect(f.filed_date >= '2024-01-10' && f.filed_date <= '2024-01-20').toBe(true);
      expect(f.cik).toBe('0000789019');
    }
    const comma = await walk('/v1/filings?forms=8-K,10-K/A&filed_from=2024-01-10&filed_to=2024-01-20&ciks=0000789019', 500);
    expect(comma.rows.map((f) => f.accession)).toEqual(rows.map((f) => f.accession));
  });

  it('filters by 8-K items: filings stating any of them, each with its titles', async () => {
    const all = (await walk('/v1/filings?forms=8-K', 500)).rows;
    const results = (await walk('/v1/filings?items=2.02', 7)).rows;
    expect(results.length).toBeGreaterThan(0);
    expect(results.map((f) => f.accession)).toEqual(all.filter((f) => (f.items as string[]).includes('2.02')).map((f) => f.accession));
    expect(results[0]).toMatchObject({
      items: ['2.02', '9.01'],
      item_details: [
        { number: '2.02', title: 'Results of Operations and Financial Condition', legacy_number: null },
        { number: '9.01', title: 'Financial Statements and Exhibits', legacy_number: null },
      ],
    });
    // Any of several (repeated or comma; "02.02" is 2.02), and on a company's list.
    expect((await walk('/v1/filings?items=5.02&items=02.02', 500)).rows).toHaveLength(all.length);
    const msft = (await walk('/v1/companies/MSFT:US/filings?items=5.02,2.02', 500)).rows;
    expect(msft.map((f) => f.accession)).toEqual(all.filter((f) => f.cik === '0000789019').map((f) => f.accession));
    const bad = await get('/v1/filings?items=2.2.2');
    expect(bad.statusCode).toBe(422);
    expect(bad.json<{ detail: { type: string; loc: unknown[] }[] }>().detail.map((d) => [d.type, d.loc])).toEqual([['string_pattern_mismatch', ['query', 'items', 0]]]);
  });

  it('answers 422 in the pydantic form for bad parameters', async () => {
    const r = await get('/v1/filings?filed_from=2024-02-30&filed_to=20240101&limit=0&direction=up');
    expect(r.statusCode).toBe(422);
    const detail = r.json<{ detail: { type: string; loc: unknown[] }[] }>().detail;
    expect(detail.map((d) => [d.type, d.loc])).toEqual(
      expect.arrayContaining([
        ['string_pattern_mismatch', ['query', 'filed_to']],
        ['greater_than_equal', ['query', 'limit']],
        ['literal_error', ['query', 'direction']],
        ['value_error', ['query', 'filed_from']],
      ]),
    );
    const inverted = await get('/v1/filings?filed_from=2024-02-01&filed_to=2024-01-01');
    expect(inverted.json<{ detail: { loc: unknown[] }[] }>().detail).toEqual([expect.objectContaining({ type: 'value_error', loc: ['query', 'filed_to'] })]);
    const capped = await get('/v1/filings?limit=26', freeKey);
    expect(capped.json<{ detail: unknown[] }>().detail).toEqual([expect.objectContaining({ type: 'less_than_equal', ctx: expect.objectContaining({ le: 25 }) })]);
  });

  it('rejects a cursor used with other filters, another direction or tampered', async () => {
    const first = (await get('/v1/filings?limit=2&forms=4')).json<Page>();
    const cursor = encodeURIComponent(first.pagination.next_cursor!);
    for (const url of [`/v1/filings?limit=2&cursor=${cursor}`, `/v1/filings?limit=2&forms=4&direction=asc&cursor=${cursor}`, `/v1/filings?limit=2&forms=4&cursor=x${cursor}`]) {
      const r = await get(url);
      expect(r.statusCode).toBe(422);
      expect(r.json()).toMatchObject({ status: 422, detail: [expect.objectContaining({ type: 'value_error', loc: ['query', 'cursor'] })] });
    }
    expect((await get(`/v1/filings?limit=2&forms=4&cursor=${cursor}`)).statusCode).toBe(200);
  });

  it("refuses another account's cursor with the 422 of a bad cursor; the account's own goes on", async () => {
    const first = (await get('/v1/filings?limit=1')).json<Page>();
    const cursor = encodeURIComponent(first.pagination.next_cursor!);
    const foreign = await get(`/v1/filings?limit=1&cursor=${cursor}`, freeKey);
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json()).toMatchObject({ status: 422, detail: [{ type: 'value_error', loc: ['query', 'cursor'], msg: 'Value error, Invalid cursor' }] });
    const next = await get(`/v1/filings?limit=1&cursor=${cursor}`);
    expect(next.statusCode).toBe(200);
    expect(next.json<Page>().data[0]!.accession).not.toBe(first.data[0]!.accession);
  });
});

describe('GET /v1/companies/{symbol}/filings', () => {
  it("lists the company's filings with the company reference, completely in both directions", async () => {
    const asc = await walk('/v1/companies/msft:us/filings', 9, 'asc');
    expect(asc.rows).toHaveLength(151);
    expect(asc.rows.every((f) => f.cik === '0000789019')).toBe(true);
    const desc = await walk('/v1/companies/MSFT:US/filings', 9);
    expect(desc.rows.map((f) => f.accession)).toEqual([...asc.rows].reverse().map((f) => f.accession));
    const r = (await get('/v1/companies/MSFT:US/filings?limit=1&forms=10-K')).json<Page>();
    expect(r.data.map((f) => f.accession)).toEqual(['0000950170-25-100235']);
    expect(r.company).toMatchObject({ symbol: 'MSFT:US', cik: '0000789019', name: 'MICROSOFT CORP', issuer_id: 789019 });
  });

  it('404 unknown-symbol for an unknown company; 422 for a malformed symbol', async () => {
    const r = await get('/v1/companies/NOPE:US/filings');
    expect(r.statusCode).toBe(404);
    expect(r.json()).toMatchObject({ type: `${DOCS}/errors/unknown-symbol` });
    expect((await get('/v1/companies/NOPE/filings')).statusCode).toBe(422);
  });
});
