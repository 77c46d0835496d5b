import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import xxhash from 'xxhash-wasm';
import type { CompanyData, DocumentTextData, FilingData, IssuerDocumentData, RecordEnvelope } from '@app/contracts';
import { projectRecords } from '@app/persistence';
import { createTestDatabase, type TestDatabase } from '@app/testing';
import type { ApiContext } from './api.context';
import { buildApiServer } from './api.server';
import { apiConfigSchema } from './config/api.config';

// HTTP conventions (issue 16 point 2) and strict query parameters (point 3) on the real api
// (plain Fastify build, real Postgres), over real records projected by the projector's code.
const CONTRACT_EXAMPLES = resolve(__dirname, '../../../libs/contracts/src/examples');
const PROJECTION_EXAMPLES = resolve(__dirname, '../../../libs/persistence/src/projections/examples');
const json = <T>(path: string) => JSON.parse(readFileSync(path, 'utf8')) as T;
const msftCompany = json<RecordEnvelope<CompanyData>>(join(CONTRACT_EXAMPLES, 'company@1.msft.json'));
const brkCompany = json<RecordEnvelope<CompanyData>>(join(CONTRACT_EXAMPLES, 'company@1.brk-b.json'));
const msft10K = json<RecordEnvelope<FilingData>>(join(CONTRACT_EXAMPLES, 'filing@1.msft-10-k.json'));
const issuerPages = json<{ documentAnnualMeeting2015: RecordEnvelope<IssuerDocumentData>; documentTextAnnualMeeting2015: RecordEnvelope<DocumentTextData>[] }>(
  join(PROJECTION_EXAMPLES, 'issuer-pages.records.json'),
);

type Api = { server: FastifyInstance; context: ApiContext };
let db: TestDatabase;
/** Default CORS (any origin may read). */
let api: Api;
/** CORS_ALLOWED_ORIGINS set. */
let listed: Api;
let key: string;
let otherAccountKey: string;
const logLines: string[] = [];

const config = (extra: Record<string, string> = {}) =>
  apiConfigSchema.parse({
    DATABASE_URL: db.url,
    API_KEY_PEPPER: 'pepper-'.repeat(6),
    CURSOR_SECRET: 'cursor-'.repeat(6),
    DOCS_URL: 'https://docs.test.example',
    LOG_LEVEL: 'info',
    WEBHOOK_SECRETS_KEY: 'ab'.repeat(32),
    WEBHOOKS_ALLOW_HTTP: 'true',
    WEBHOOKS_ALLOW_PRIVATE_HOSTS: 'true',
    PLAN_BUILDER_BURST_PER_SECOND: '1000000',
    PLAN_BUILDER_DAILY_QUOTA: '100000000',
    ...extra,
  });

const auth = (k = key) => ({ authorization: `Bearer ${k}` });
const get = (url: string, headers: Record<string, string> = {}, on: Api = api) => on.server.inject({ method: 'GET', url, headers: { ...auth(), ...headers } });

beforeAll(async () => {
  db = await createTestDatabase('api_http');
  const capture = { write: (line: string) => void logLines.push(line) };
  api = await buildApiServer(config(), { logger: pino({ level: 'info' }, capture) });
  listed = await buildApiServer(config({ CORS_ALLOWED_ORIGINS: 'https://app.example.com, http://localhost:5173' }), { logger: pino({ level: 'silent' }) });
  const ds = api.context.dataSource;
  await projectRecords(ds, [msftCompany, brkCompany]);
  await projectRecords(ds, [msft10K]);
  await ds.query(
    `INSERT INTO companies (symbol, ticker, market, cik, name, issuer_id, provenance, record_id, data_hash, observed_at)
     VALUES ('FRPH:US', 'FRPH', 'US', '0000844059', 'FRP HOLDINGS, INC.', 844059, $1::jsonb, 'rec_frph', 'h', now())`,
    [JSON.stringify(msftCompany.provenance)],
  );
  for (const part of issuerPages.documentTextAnnualMeeting2015) await projectRecords(ds, [part]);
  await projectRecords(ds, [issuerPages.documentAnnualMeeting2015]);
  await ds.query(`INSERT INTO accounts (id, name, plan) VALUES ('acct_b1', 'b1', 'builder'), ('acct_b2', 'b2', 'builder')`);
  key = (await api.context.keys.createKey({ accountId: 'acct_b1', mode: 'live', label: 't' })).key;
  otherAccountKey = (await api.context.keys.createKey({ accountId: 'acct_b2', mode: 'live', label: 't' })).key;
}, 120_000);

afterAll(async () => {
  for (const a of [api, listed]) {
    await a?.server.close();
  }
  await db?.drop();
});

describe('CORS', () => {
  it('a preflight is answered without a key: any origin may GET with the Authorization header', async () => {
    const r = await api.server.inject({
      method: 'OPTIONS',
      url: '/v1/companies/MSFT:US',
      headers: { origin: 'https://somewhere.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(r.statusCode).toBe(204);
    expect(r.headers['access-control-allow-origin']).toBe('*');
    expect(r.headers['access-control-allow-methods']).toBe('GET, HEAD');
    expect(String(r.headers['access-control-allow-headers']).split(', ')).toContain('Authorization');
    expect(r.headers['www-authenticate']).toBeUndefined();
    expect(r.headers['x-request-id']).toMatch(/^req_[0-9a-f]{20}$/);
  });

  it('a cross-origin GET is readable, with the headers a script needs exposed', async () => {
    const r = await get('/v1/companies/MSFT:US', { origin: 'https://somewhere.example' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['access-control-allow-origin']).toBe('*');
    expect(String(r.headers['access-control-expose-headers']).split(', ')).toEqual(expect.arrayContaining(['X-Request-Id', 'X-RateLimit-Remaining', 'ETag', 'Location']));
    // The key is still required for the request itself.
    const noKey = await api.server.inject({ method: 'GET', url: '/v1/companies/MSFT:US', headers: { origin: 'https://somewhere.example' } });
    expect(noKey.statusCode).toBe(401);
    expect(noKey.headers['access-control-allow-origin']).toBe('*');
  });

  it('CORS_ALLOWED_ORIGINS: listed origins may use every method, others get no CORS headers', async () => {
    const preflight = (origin: string) =>
      listed.server.inject({ method: 'OPTIONS', url: '/v1/webhook-endpoints', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, idempotency-key' } });
    const ok = await preflight('https://app.example.com');
    expect(ok.statusCode).toBe(204);
    expect(ok.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(ok.headers['access-control-allow-methods']).toBe('GET, HEAD, POST, PATCH, DELETE');
    expect(String(ok.headers.vary)).toMatch(/origin/i);
    const other = await preflight('https://evil.example');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    expect(() => config({ CORS_ALLOWED_ORIGINS: 'app.example.com' })).toThrow();
  });
});

describe('compression', () => {
  let textUrl: string;
  beforeAll(async () => {
    const docs = (await get('/v1/documents?symbols=FRPH:US')).json<{ data: { id: string }[] }>();
    textUrl = `/v1/documents/${docs.data[0]!.id}/text`;
  });

  it('gzip and br above the threshold, as Accept-Encoding asks; the body decodes to the plain one', async () => {
    const plain = await get(textUrl);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(20_000);
    const gz = await get(textUrl, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(String(gz.headers.vary)).toMatch(/accept-encoding/i);
    expect(gz.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(gunzipSync(gz.rawPayload).equals(plain.rawPayload)).toBe(true);
    const br = await get(textUrl, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).equals(plain.rawPayload)).toBe(true);
  });

  it('not below the threshold (1 KiB)', async () => {
    const small = await api.server.inject({ method: 'GET', url: '/healthz', headers: { 'accept-encoding': 'gzip' } });
    expect(small.rawPayload.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
  });
});

describe('ETag and conditional GET', () => {
  it.each(['/v1/companies/MSFT:US', '/v1/companies?limit=1', '/v1/companies/MSFT:US/filings'])('%s: a strong ETag; If-None-Match with it is a 304 without a body', async (url) => {
    const first = await get(url);
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    // XXH64 of the uncompressed body's UTF-8 bytes, 16 hex digits.
    expect(etag).toBe(`"${(await xxhash()).h64Raw(first.rawPayload).toString(16).padStart(16, '0')}"`);
    expect((await get(url)).headers.etag).toBe(etag);
    const again = await get(url, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    // The same validator whatever the encoding: a gzip client revalidates too.
    const gz = await get(url, { 'if-none-match': etag, 'accept-encoding': 'gzip' });
    expect(gz.statusCode).toBe(304);
    expect((await get(url, { 'if-none-match': '"something-else"' })).statusCode).toBe(200);
  });

  it('a 304 spends no daily quota: X-RateLimit-Remaining is what it was before the request', async () => {
    const url = '/v1/companies/MSFT:US';
    const first = await get(url);
    const remaining = Number(first.headers['x-ratelimit-remaining']);
    const etag = String(first.headers.etag);
    for (let i = 0; i < 3; i++) {
      const again = await get(url, { 'if-none-match': etag });
      expect(again.statusCode).toBe(304);
      expect(Number(again.headers['x-ratelimit-remaining'])).toBe(remaining);
    }
    // A 200 spends one.
    expect(Number((await get(url, { 'if-none-match': '"other"' })).headers['x-ratelimit-remaining'])).toBe(remaining - 1);
  });

  it('a 304 spends no daily quota with the Redis limiter either', async () => {
    // A burst of 10/s leases one token per Redis call: every request's count is Redis's own.
    const redisApi = await buildApiServer(
      config({ REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', REDIS_KEY_PREFIX: `rl:http-int:${randomBytes(6).toString('hex')}:`, PLAN_BUILDER_BURST_PER_SECOND: '10' }),
      { logger: pino({ level: 'silent' }) },
    );
    try {
      const url = '/v1/companies/MSFT:US';
      const first = await get(url, {}, redisApi);
      const etag = String(first.headers.etag);
      const remaining = Number(first.headers['x-ratelimit-remaining']);
      for (let i = 0; i < 3; i++) {
        const again = await get(url, { 'if-none-match': etag }, redisApi);
        expect(again.statusCode).toBe(304);
        expect(Number(again.headers['x-ratelimit-remaining'])).toBe(remaining);
      }
      // The refunds reached Redis before this request's consume (one connection, in order).
      expect(Number((await get(url, { 'if-none-match': '"other"' }, redisApi)).headers['x-ratelimit-remaining'])).toBe(remaining - 1);
    } finally {
      await redisApi.server.close();
    }
  });

  it('a changed resource has another ETag', async () => {
    const before = (await get('/v1/companies?limit=25')).headers.etag;
    await api.context.dataSource.query(`UPDATE companies SET name = name || ' (renamed)' WHERE symbol = 'FRPH:US'`);
    const after = await get('/v1/companies?limit=25', { 'if-none-match': String(before) });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before);
  });

  it('no ETag on POST', async () => {
    const r = await api.server.inject({ method: 'POST', url: '/v1/webhook-endpoints', headers: auth(), payload: { url: 'http://127.0.0.1:9/etag', topics: ['filing.created'] } });
    expect(r.statusCode).toBe(201);
    expect(r.headers.etag).toBeUndefined();
  });
});

describe('Idempotency-Key on POST, Location on 201', () => {
  const create = (body: unknown, headers: Record<string, string>, k = key) =>
    api.server.inject({ method: 'POST', url: '/v1/webhook-endpoints', headers: { ...auth(k), ...headers }, payload: body as Record<string, unknown> });
  const count = async (url: string) => Number((await api.context.dataSource.query<{ n: string }[]>(`SELECT count(*) AS n FROM webhook_endpoints WHERE url = $1`, [url]))[0]!.n);

  it('201 with a Location that GET answers', async () => {
    const r = await create({ url: 'http://127.0.0.1:9/located', topics: ['form4.filed'] }, {});
    expect(r.statusCode).toBe(201);
    const { id } = r.json<{ id: string }>();
    expect(r.headers.location).toBe(`/v1/webhook-endpoints/${id}`);
    const got = await get(String(r.headers.location));
    expect(got.statusCode).toBe(200);
    expect(got.json<{ id: string }>().id).toBe(id);
  });

  it('the same key and body: the first response again, byte for byte, and one endpoint', async () => {
    const body = { url: 'http://127.0.0.1:9/idem-1', topics: ['filing.created'] };
    const first = await create(body, { 'idempotency-key': 'c0a8d1e2-0001' });
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const second = await create(body, { 'idempotency-key': 'c0a8d1e2-0001' });
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(second.headers.location).toBe(first.headers.location);
    expect(second.headers['content-type']).toBe(first.headers['content-type']);
    expect(await count(body.url)).toBe(1);
    // The recorded body (it carries the signing secret) rests sealed, never in the clear.
    const [row] = await api.context.dataSource.query<{ response_body: string }[]>(`SELECT response_body FROM idempotency_keys WHERE key = 'c0a8d1e2-0001'`);
    expect(first.body).toContain('whsec_');
    expect(row!.response_body).toMatch(/^v1\./);
    expect(row!.response_body).not.toContain('whsec_');
    // Without a key, each POST creates (as before).
    await create(body, {});
    expect(await count(body.url)).toBe(2);
  });

  it('the same key with another body is a 422 naming the header; nothing is created', async () => {
    await create({ url: 'http://127.0.0.1:9/idem-2', topics: ['filing.created'] }, { 'idempotency-key': 'key-two' });
    const r = await create({ url: 'http://127.0.0.1:9/idem-2b', topics: ['filing.created'] }, { 'idempotency-key': 'key-two' });
    expect(r.statusCode).toBe(422);
    expect(r.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(r.json<{ detail: { type: string; loc: string[] }[] }>().detail).toEqual([expect.objectContaining({ type: 'value_error', loc: ['header', 'idempotency-key'] })]);
    expect(await count('http://127.0.0.1:9/idem-2b')).toBe(0);
  });

  it('keys are per account; a failed request gives its key back; a malformed key is a 422', async () => {
    const body = { url: 'http://127.0.0.1:9/idem-3', topics: ['filing.created'] };
    expect((await create(body, { 'idempotency-key': 'shared-key' })).statusCode).toBe(201);
    const other = await create(body, { 'idempotency-key': 'shared-key' }, otherAccountKey);
    expect(other.statusCode).toBe(201);
    expect(other.headers['idempotent-replayed']).toBeUndefined();

    const invalid = await create({ url: 'http://127.0.0.1:9/idem-4', topics: ['no.such.topic'] }, { 'idempotency-key': 'retry-me' });
    expect(invalid.statusCode).toBe(422);
    const invalidAgain = await create({ url: 'http://127.0.0.1:9/idem-4', topics: ['no.such.topic'] }, { 'idempotency-key': 'retry-me' });
    expect(invalidAgain.headers['idempotent-replayed']).toBeUndefined();
    const fixed = await create({ url: 'http://127.0.0.1:9/idem-4', topics: ['form4.filed'] }, { 'idempotency-key': 'retry-me' });
    expect(fixed.statusCode).toBe(201);

    const bad = await create(body, { 'idempotency-key': 'x'.repeat(256) });
    expect(bad.statusCode).toBe(422);
    expect(bad.json<{ detail: { loc: string[] }[] }>().detail[0]!.loc).toEqual(['header', 'idempotency-key']);
  });

  it('every POST route honours the key (202 routes too)', async () => {
    const created = (await create({ url: 'http://127.0.0.1:9/idem-5', topics: ['filing.created'] }, {})).json<{ id: string }>();
    const test = (k: string) => api.server.inject({ method: 'POST', url: `/v1/webhook-endpoints/${created.id}/test`, headers: { ...auth(), 'idempotency-key': k }, payload: {} });
    const first = await test('test-once');
    expect(first.statusCode).toBe(202);
    const second = await test('test-once');
    expect(second.statusCode).toBe(202);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    const events = await api.context.dataSource.query<{ n: string }[]>(`SELECT count(*) AS n FROM webhook_deliveries WHERE endpoint_id = $1`, [created.id]);
    expect(Number(events[0]!.n)).toBe(1);
  });
  it('two requests with one key at once: one runs, the other is a 409 or the replay; one delivery', async () => {
    const created = (await create({ url: 'http://127.0.0.1:9/idem-6', topics: ['filing.created'] }, {})).json<{ id: string }>();
    const test = () => api.server.inject({ method: 'POST', url: `/v1/webhook-endpoints/${created.id}/test`, headers: { ...auth(), 'idempotency-key': 'at-once' }, payload: {} });
    const answers = await Promise.all([test(), test(), test()]);
    const ran = answers.filter((r) => r.statusCode === 202 && r.headers['idempotent-replayed'] === undefined);
    expect(ran).toHaveLength(1);
    for (const r of answers.filter((a) => a !== ran[0])) {
      if (r.statusCode === 409) {
        expect(r.json<{ type: string }>().type).toBe('https://docs.test.example/errors/idempotency-key-in-use');
        expect(r.headers['retry-after']).toBe('1');
      } else {
        expect([r.statusCode, r.headers['idempotent-replayed']]).toEqual([202, 'true']);
      }
    }
    const deliveries = await api.context.dataSource.query<{ n: string }[]>(`SELECT count(*) AS n FROM webhook_deliveries WHERE endpoint_id = $1`, [created.id]);
    expect(Number(deliveries[0]!.n)).toBe(1);
  });
});

describe('request ids', () => {
  const logged = (id: string) => logLines.map((l) => JSON.parse(l) as { request_id?: string; msg?: string }).filter((l) => l.request_id === id && l.msg === 'request');

  it('a well-formed X-Request-Id is kept: response header, problem body and request log', async () => {
    const id = '3f2b8c1e-8d4a-4c5e-9a7b-1c2d3e4f5a6b';
    const r = await get('/v1/companies/NOPE:US', { 'x-request-id': id });
    expect(r.statusCode).toBe(404);
    expect(r.headers['x-request-id']).toBe(id);
    expect(r.json<{ request_id: string }>().request_id).toBe(id);
    expect(logged(id)).toHaveLength(1);
  });

  it("a traceparent's trace id is the request id when no X-Request-Id is kept; anything malformed is replaced", async () => {
    const r = await get('/v1/companies/MSFT:US', { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', 'x-request-id': 'bad id' });
    expect(r.headers['x-request-id']).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(logged('4bf92f3577b34da6a3ce929d0e0e4736')).toHaveLength(1);
    const bad = await get('/v1/companies/MSFT:US', { traceparent: '00-00000000000000000000000000000000-00f067aa0ba902b7-01' });
    expect(bad.headers['x-request-id']).toMatch(/^req_[0-9a-f]{20}$/);
  });
});

describe('strict query parameters', () => {
  interface OpenApi { paths: Record<string, Record<string, { requestBody?: unknown; parameters?: Array<{ name: string; in: string; required?: boolean; example?: unknown; schema?: { example?: unknown } }> }>> }

  it('an unknown query parameter is a 422 extra_forbidden naming it, on every route of the OpenAPI document', async () => {
    const doc = (await api.server.inject({ method: 'GET', url: '/v1/openapi.json' })).json<OpenApi>();
    const checked: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const method of Object.keys(operations)) {
        if (!['get', 'post', 'patch', 'delete'].includes(method)) continue;
        const url = path.replace(/\{([^}]+)\}/g, (_, name: string) => (name === 'symbol' ? 'MSFT:US' : 'x1'));
        // A required query parameter (the facts route's concept) is given its documented example.
        const required = (operations[method]!.parameters ?? [])
          .filter((p) => p.in === 'query' && p.required)
          .map((p) => `${p.name}=${encodeURIComponent(String(p.example ?? p.schema?.example))}&`)
          .join('');
        // A route without a body refuses one: send a body only where the route takes it.
        const body = operations[method]!.requestBody !== undefined;
        const r = await api.server.inject({
          method: method.toUpperCase() as 'GET',
          url: `${url}?${required}not_a_param=1`,
          headers: { ...auth(), ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { payload: '{}' } : {}),
        });
        expect([method, path, r.statusCode]).toEqual([method, path, 422]);
        expect([method, path, r.json<{ detail: unknown[] }>().detail]).toEqual([
          method,
          path,
          [{ type: 'extra_forbidden', loc: ['query', 'not_a_param'], msg: 'Extra inputs are not permitted', input: '1' }],
        ]);
        checked.push(`${method} ${path}`);
      }
    }
    expect(checked.length).toBeGreaterThanOrEqual(20);
  });

  it('?form=10-K (for forms) is refused, not answered with every form; invalid declared parameters come in the same 422', async () => {
    const r = await get('/v1/companies/MSFT:US/filings?form=10-K&limit=0');
    expect(r.statusCode).toBe(422);
    expect(r.json<{ detail: { type: string; loc: string[] }[] }>().detail.map((d) => [d.type, d.loc])).toEqual([
      ['greater_than_equal', ['query', 'limit']],
      ['extra_forbidden', ['query', 'form']],
    ]);
    expect((await get('/v1/companies/MSFT:US/filings?forms=10-K')).statusCode).toBe(200);
  });
});
