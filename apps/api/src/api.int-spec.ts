// @infra-path: the only spec of its repository's SQL (libs/persistence): docker-compose.yml's postgres:17 in containers, the machine's (15 on CI) locally.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import Redis from 'ioredis';
import { createLogger } from '@app/observability';
import { createTestDatabase, SEC_TICKERS_PROVENANCE, seedMicrosoft, type TestDatabase } from '@app/testing';
import type { ApiContext } from './api.context';
import { buildApiServer } from './api.server';
import { apiConfigSchema, type ApiConfig } from './config/api.config';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const DOCS = 'https://docs.test.example';

let db: TestDatabase;
let prefix: string;
let a: { server: FastifyInstance; context: ApiContext };
let b: { server: FastifyInstance; context: ApiContext };
let config: ApiConfig;
let builderKey: string;


async function newKey(plan: 'free' | 'builder' | 'pro' | 'enterprise', mode: 'live' | 'test' = 'live'): Promise<{ id: string; key: string }> {
  const account = await a.context.dataSource.query<{ id: string }[]>(
    `INSERT INTO accounts (id, name, plan) VALUES ($1, $2, $3) RETURNING id`,
    [`acct_${randomBytes(6).toString('hex')}`, `acct ${plan}`, plan],
  );
  return a.context.keys.createKey({ accountId: account[0]!.id, mode, label: 'test' });
}

const auth = (key: string) => ({ authorization: `Bearer ${key}` });
interface ListBody {
  data: { symbol: string; ticker: string; market: string; name: string; cik: string; issuer_id: number }[];
  pagination: { next_cursor: string | null; has_more: boolean };
}
const list = (r: { json<T>(): T }): ListBody => r.json<ListBody>();
const get = (url: string, key?: string, server = a.server) => server.inject({ method: 'GET', url, headers: key ? auth(key) : {} });

async function untilStartOfSecond(): Promise<void> {
  const ms = Date.now() % 1000;
  if (ms > 50) await new Promise((r) => setTimeout(r, 1000 - ms + 5));
}

beforeAll(async () => {
  db = await createTestDatabase('api');
  prefix = `rl:test:${randomBytes(6).toString('hex')}:`;
  config = apiConfigSchema.parse({
    DATABASE_URL: db.url,
    REDIS_URL,
    REDIS_KEY_PREFIX: prefix,
    API_KEY_PEPPER: 'pepper-'.repeat(6),
    CURSOR_SECRET: 'cursor-'.repeat(6),
    DOCS_URL: DOCS,
    LOG_LEVEL: 'silent',
    PLAN_BUILDER_BURST_PER_SECOND: '1000000',
    PLAN_BUILDER_DAILY_QUOTA: '100000000',
  });
  const logger = createLogger({ level: 'silent' });
  a = await buildApiServer(config, { logger });
  b = await buildApiServer(config, { logger });
  // 3,000 listings (every 10th inactive) plus Microsoft with full detail.
  await a.context.dataSource.query(`
    INSERT INTO companies (symbol, ticker, market, cik, name, issuer_id, status, provenance, record_id, data_hash, observed_at)
    SELECT 'T' || lpad(i::text, 4, '0') || ':' || (CASE WHEN i % 3 = 0 THEN 'CA' ELSE 'US' END),
           'T' || lpad(i::text, 4, '0'), CASE WHEN i % 3 = 0 THEN 'CA' ELSE 'US' END,
           lpad((100000 + i)::text, 10, '0'), 'Company ' || i || CASE WHEN i % 100 = 7 THEN ' Zebra' ELSE '' END,
           100000 + i, CASE WHEN i % 10 = 0 THEN 'delisted' ELSE 'active' END,
           $1::jsonb, 'rec_' || i, 'h' || i, now()
      FROM generate_series(1, 3000) AS i`, [JSON.stringify(SEC_TICKERS_PROVENANCE)]);
  await seedMicrosoft(a.context.dataSource);
  builderKey = (await newKey('builder')).key;
});

afterAll(async () => {
  await a?.server.close();
  await b?.server.close();
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
  await db?.drop();
});

describe('auth', () => {
  it('401s a missing key with WWW-Authenticate: Bearer and a problem body', async () => {
    const r = await get('/v1/companies');
    expect(r.statusCode).toBe(401);
    expect(r.headers['www-authenticate']).toBe('Bearer');
    expect(r.headers['content-type']).toContain('application/problem+json');
    const body = r.json();
    expect(body).toMatchObject({ type: `${DOCS}/errors/invalid-key`, status: 401, instance: '/v1/companies' });
    expect(body.request_id).toMatch(/^req_/);
    expect(r.headers['x-request-id']).toBe(body.request_id);
  });

  it.each(['/%761/companies', '/v%31/companies/MSFT:US', '/%76%31/companies?limit=1', '/v1/compan%69es'])('401s %s: the router decodes the path, so does the guard', async (url) => {
    const r = await get(url);
    expect(r.statusCode).toBe(401);
    expect(r.json()).toMatchObject({ type: `${DOCS}/errors/invalid-key`, status: 401 });
  });

  it.each([
    ['malformed', 'Basic Zm9vOmJhcg=='],
    ['JWT', 'Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxIn0.sig'],
    ['unknown', `Bearer sk_live_0123456789abcdef_${'A'.repeat(43)}`],
    ['other token', 'Bearer sk_live_abc'],
  ])('401s a %s key with error="invalid_token"', async (_name, header) => {
    const r = await a.server.inject({ method: 'GET', url: '/v1/companies', headers: { authorization: header } });
    expect(r.statusCode).toBe(401);
    expect(r.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    expect(r.json().type).toBe(`${DOCS}/errors/invalid-key`);
  });

  it('401s a key whose secret is wrong, and a revoked key (with rate-limit headers)', async () => {
    const { id, key } = await newKey('pro');
    expect((await get('/v1/companies?limit=1', key)).statusCode).toBe(200);
    const wrong = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
    expect((await get('/v1/companies', wrong)).statusCode).toBe(401);
    await a.context.keys.revoke(id);
    const r = await get('/v1/companies', key);
    expect(r.statusCode).toBe(401);
    expect(r.json().detail).toMatch(/revoked/);
    expect(r.headers['x-ratelimit-limit']).toBe('500000');
  });

  it('updates last_used_at off the request path', async () => {
    const { id, key } = await newKey('builder');
    await get('/v1/companies?limit=1', key);
    for (let i = 0; i < 50; i++) {
      const rows = await a.context.dataSource.query(`SELECT last_used_at FROM api_keys WHERE id = $1`, [id]);
      if (rows[0].last_used_at) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error('last_used_at never set');
  });

  it('keeps health, readiness, OpenAPI and docs public', async () => {
    expect((await get('/healthz')).json()).toEqual({ status: 'ok' });
    expect((await get('/readyz')).json()).toEqual({ status: 'ready', checks: { postgres: 'ok', redis: 'ok' } });
    const doc = await get('/v1/openapi.json');
    expect(doc.statusCode).toBe(200);
    expect(doc.json().openapi).toBe('3.1.0');
    expect(doc.json().paths['/v1/companies']).toBeDefined();
    const docs = await get('/docs');
    expect(docs.headers['content-type']).toContain('text/html');
    expect(docs.body).toContain('/docs/swagger-ui-bundle.js');
    expect((await get('/docs/swagger-ui-bundle.js')).statusCode).toBe(200);
    expect((await get('/docs/..%2fpackage.json')).statusCode).toBe(404);
  });
});

describe('companies', () => {
  it('lists company references in the envelope, sorted by symbol asc by default', async () => {
    const r = await get('/v1/companies?limit=3', builderKey);
    expect(r.statusCode).toBe(200);
    const body = list(r);
    expect(body.data).toHaveLength(3);
    expect(Object.keys(body.data[0]!).sort()).toEqual(['cik', 'figi', 'isin', 'issuer_id', 'market', 'name', 'symbol', 'ticker']);
    expect(typeof body.data[0]!.issuer_id).toBe('number');
    expect(body.pagination.has_more).toBe(true);
    expect(typeof body.pagination.next_cursor).toBe('string');
    expect(r.headers['x-ratelimit-limit']).toBeDefined();
    expect(r.headers['x-ratelimit-remaining']).toBeDefined();
    expect(Number(r.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
  });

  it('filters: q, tickers (repeated and comma), ciks (unpadded), issuer_ids, markets, active_only, sector no-op', async () => {
    const q = list(await get('/v1/companies?q=zEbRa&limit=500', builderKey)).data;
    expect(q.length).toBeGreaterThan(0);
    expect(q.every((c) => c.name.includes('Zebra'))).toBe(true);
    const t = list(await get('/v1/companies?tickers=msft&tickers=T0001,T0002', builderKey)).data.map((c) => c.ticker);
    expect(t).toEqual(['MSFT', 'T0001', 'T0002']);
    const c = list(await get('/v1/companies?ciks=789019&ciks=0000100001', builderKey)).data.map((x) => x.cik);
    expect(c.sort()).toEqual(['0000100001', '0000789019']);
    expect(list(await get('/v1/companies?issuer_ids=789019', builderKey)).data[0]!.symbol).toBe('MSFT:US');
    const ca = list(await get('/v1/companies?markets=ca&limit=500', builderKey)).data;
    expect(ca.every((x) => x.market === 'CA')).toBe(true);
    const inactive = list(await get('/v1/companies?tickers=T0010', builderKey)).data;
    expect(inactive).toEqual([]);
    expect(list(await get('/v1/companies?tickers=T0010&active_only=false', builderKey)).data).toHaveLength(1);
    expect(list(await get('/v1/companies?tickers=T0001&sector=Technology', builderKey)).data).toHaveLength(1);
  });

  it('serves Microsoft detail with provenance and gaps', async () => {
    const r = await get('/v1/companies/msft:us', builderKey);
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body).toMatchObject({
      symbol: 'MSFT:US', ticker: 'MSFT', cik: '0000789019', issuer_id: 789019, listing_exchange: 'Nasdaq', country: 'US',
      sector: null, industry: null, employee_count: null, website: null, description: null, status: 'active', is_etf: false,
    });
    expect(body.provenance).toEqual(SEC_TICKERS_PROVENANCE);
    expect(body.gaps).toEqual(
      expect.arrayContaining([
        { code: 'not_stored', field: 'sector', detail: 'sector: not stored by this service' },
        { code: 'not_in_source', field: 'website', detail: 'website: SEC submissions list no website for this issuer' },
      ]),
    );
    const t = (await get('/v1/companies/T0001:US', builderKey)).json();
    expect(t.gaps[0]).toEqual({ code: 'sec_submissions_pending', detail: expect.stringMatching(/^detail: SEC submissions not fetched yet/) });
  });

  it('404s an unknown symbol and an unknown route; 405s a wrong method', async () => {
    const r = await get('/v1/companies/NOPE:US', builderKey);
    expect(r.statusCode).toBe(404);
    expect(r.json()).toMatchObject({ type: `${DOCS}/errors/unknown-symbol`, status: 404, instance: '/v1/companies/NOPE:US' });
    expect(r.json().detail).toContain('NOPE:US');
    const nf = await get('/v1/nothing', builderKey);
    expect(nf.statusCode).toBe(404);
    expect(nf.json().type).toBe(`${DOCS}/errors/not-found`);
    const m = await a.server.inject({ method: 'DELETE', url: '/v1/companies', headers: auth(builderKey) });
    expect(m.statusCode).toBe(405);
    expect(m.headers.allow).toContain('GET');
    const post = await a.server.inject({ method: 'POST', url: '/v1/companies', headers: { ...auth(builderKey), 'content-type': 'application/json' }, payload: '{bad' });
    expect([400, 405, 422]).toContain(post.statusCode);
    expect(post.headers['content-type']).toContain('application/problem+json');
  });

  it.each([
    ['limit=0', { type: 'greater_than_equal', loc: ['query', 'limit'], ctx: { ge: 1 }, input: '0' }],
    ['limit=501', { type: 'less_than_equal', loc: ['query', 'limit'], msg: 'Input should be less than or equal to 500', ctx: { le: 500 } }],
    ['limit=abc', { type: 'int_parsing', loc: ['query', 'limit'], msg: 'Input should be a valid integer, unable to parse string as an integer' }],
    ['direction=up', { type: 'literal_error', loc: ['query', 'direction'], msg: "Input should be 'asc' or 'desc'", ctx: { expected: "'asc' or 'desc'" } }],
    ['active_only=maybe', { type: 'bool_parsing', loc: ['query', 'active_only'], msg: 'Input should be a valid boolean, unable to interpret input' }],
    ['ciks=12x', { type: 'string_pattern_mismatch', loc: ['query', 'ciks', 0] }],
    ['q=', { type: 'string_too_short', loc: ['query', 'q'], ctx: { min_length: 1 } }],
    ['cursor=garbage', { type: 'value_error', loc: ['query', 'cursor'], msg: 'Value error, Invalid cursor' }],
  ])('422s %s with a Pydantic item', async (qs, item) => {
    const r = await get(`/v1/companies?${qs}`, builderKey);
    expect(r.statusCode).toBe(422);
    const body = r.json();
    expect(body.detail).toHaveLength(1);
    expect(body.detail[0]).toMatchObject(item);
    expect(body.request_id).toMatch(/^req_/);
  });

  it('422s a bad symbol pattern at path.symbol', async () => {
    const r = await get('/v1/companies/not-a-symbol', builderKey);
    expect(r.statusCode).toBe(422);
    expect(r.json().detail[0]).toMatchObject({ type: 'string_pattern_mismatch', loc: ['path', 'symbol'], input: 'not-a-symbol' });
  });

  it('caps limit at 25 for free and sk_test_ keys (422 with the cap)', async () => {
    for (const { key } of [await newKey('free'), await newKey('enterprise', 'test')]) {
      const r = await get('/v1/companies?limit=26', key);
      expect(r.statusCode).toBe(422);
      expect(r.json().detail[0]).toMatchObject({ type: 'less_than_equal', loc: ['query', 'limit'], ctx: { le: 25 } });
      expect((await get('/v1/companies?limit=25', key)).statusCode).toBe(200);
    }
  });

  it('never 500s on odd input', async () => {
    const odd = ['limit=1e3', 'limit=-0', 'limit=99999999999999999999999999', 'cursor=%00', 'q=%F0%9F%99%82', 'q=%00', 'limit=1&limit=2',
      'direction=asc&direction=desc', 'tickers=' + 'A,'.repeat(500), 'q=' + 'x'.repeat(5000), 'q=%E0%A4%A', 'issuer_ids=1e400', 'cursor=' + 'a'.repeat(3000),
      'q=%25_%5C', 'markets[]=US', '%ZZ=1'];
    for (const qs of odd) {
      const r = await get(`/v1/companies?${qs}`, builderKey);
      expect([qs, [200, 422].includes(r.statusCode)]).toEqual([qs, true]);
    }
    for (const path of ['/v1/companies/%00', '/v1/companies/%F0%9F%99%82:US', `/v1/companies/${'A'.repeat(300)}`, '/v1/companies/A:US/extra']) {
      const r = await get(path, builderKey);
      expect([404, 422]).toContain(r.statusCode);
    }
  });
});

describe('pagination', () => {
  async function walk(query: string, limit: number, direction: 'asc' | 'desc'): Promise<string[]> {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 10_000; page++) {
      const url = `/v1/companies?${query}&limit=${limit}&direction=${direction}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const r = await get(url, builderKey);
      expect(r.statusCode).toBe(200);
      const body = list(r);
      seen.push(...body.data.map((c) => c.symbol));
      expect(body.pagination.has_more).toBe(body.pagination.next_cursor !== null);
      if (!body.pagination.has_more) return seen;
      cursor = body.pagination.next_cursor;
    }
    throw new Error('no end');
  }

  async function expected(where: string, direction: 'asc' | 'desc'): Promise<string[]> {
    const rows = await a.context.dataSource.query<{ symbol: string }[]>(`SELECT symbol FROM companies ${where} ORDER BY symbol ${direction}`);
    return rows.map((r) => r.symbol);
  }

  it.each([
    ['active_only=false', '', 500],
    ['active_only=false', '', 25],
    ['active_only=true', `WHERE status = 'active'`, 500],
    ['q=zebra', `WHERE status = 'active' AND name ILIKE '%zebra%'`, 1],
  ])('walks %s with limit %#: every row once, in order, both directions', async (query, where, limit) => {
    for (const direction of ['asc', 'desc'] as const) {
      const seen = await walk(query, limit, direction);
      expect(seen).toEqual(await expected(where, direction));
    }
  });

  it('422s a tampered cursor, a cursor used with other filters, or another direction', async () => {
    const first = (await get('/v1/companies?limit=2&markets=US', builderKey)).json();
    const cursor: string = first.pagination.next_cursor;
    const bytes = Buffer.from(cursor, 'base64url');
    bytes[20] = bytes[20]! ^ 0x01;
    const forged = bytes.toString('base64url');
    for (const url of [
      `/v1/companies?limit=2&markets=US&cursor=${encodeURIComponent(forged)}`,
      `/v1/companies?limit=2&markets=CA&cursor=${encodeURIComponent(cursor)}`,
      `/v1/companies?limit=2&markets=US&direction=desc&cursor=${encodeURIComponent(cursor)}`,
    ]) {
      const r = await get(url, builderKey);
      expect(r.statusCode).toBe(422);
      expect(r.json().detail[0]).toMatchObject({ type: 'value_error', loc: ['query', 'cursor'] });
    }
    const ok = await get(`/v1/companies?limit=2&markets=us&cursor=${encodeURIComponent(cursor)}`, builderKey);
    expect(ok.statusCode).toBe(200);
  });

  it("422s another account's cursor; the account's own continues", async () => {
    const other = (await newKey('builder')).key;
    const first = list(await get('/v1/companies?limit=1', builderKey));
    const cursor = first.pagination.next_cursor!;
    expect(Buffer.from(cursor, 'base64url').toString('latin1')).not.toContain(first.data[0]!.symbol);
    const foreign = await get(`/v1/companies?limit=1&cursor=${encodeURIComponent(cursor)}`, other);
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json()).toMatchObject({ status: 422, detail: [{ type: 'value_error', loc: ['query', 'cursor'], msg: 'Value error, Invalid cursor' }] });
    const next = await get(`/v1/companies?limit=1&cursor=${encodeURIComponent(cursor)}`, builderKey);
    expect(next.statusCode).toBe(200);
    expect(list(next).data[0]!.symbol > first.data[0]!.symbol).toBe(true);
  });
});

describe('rate limits (Redis)', () => {
  it('429s a free key over its burst with Retry-After and X-RateLimit-*, without spending daily quota', async () => {
    const { key } = await newKey('free');
    await untilStartOfSecond();
    const responses = await Promise.all(Array.from({ length: 20 }, () => get('/v1/companies?limit=1', key)));
    const ok = responses.filter((r) => r.statusCode === 200);
    const limited = responses.filter((r) => r.statusCode === 429);
    expect(ok.length).toBeGreaterThanOrEqual(5);
    expect(ok.length).toBeLessThanOrEqual(10);
    expect(limited.length).toBe(20 - ok.length);
    const r = limited[0]!;
    expect(r.headers['retry-after']).toBe('1');
    expect(r.headers['x-ratelimit-limit']).toBe('1000');
    expect(r.headers['x-ratelimit-reset']).toBeDefined();
    expect(r.json()).toMatchObject({ type: `${DOCS}/errors/rate-limited`, status: 429 });
    await new Promise((res) => setTimeout(res, 1100));
    const next = await get('/v1/companies?limit=1', key);
    expect(next.statusCode).toBe(200);
    expect(Number(next.headers['x-ratelimit-remaining'])).toBe(1000 - ok.length - 1);
  });

  it('shares counters between two api instances', async () => {
    const { key } = await newKey('free');
    await untilStartOfSecond();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await get('/v1/companies?limit=1', key, i % 2 ? b.server : a.server)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const remainingB = Number((await get('/v1/companies/MSFT:US', key, b.server)).headers['x-ratelimit-remaining']);
    expect(remainingB).toBeLessThanOrEqual(1000 - 5);
  });
});
