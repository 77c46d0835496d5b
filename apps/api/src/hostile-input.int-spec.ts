// Hostile input on the real server over real sockets (issue 19): deeply nested JSON on every JSON
// route and on MCP, the 422 echo bounded, and every rejection Fastify or Node makes itself (431,
// 414, bad percent-encoding, unknown method, bad header bytes, a body shorter than announced)
// answered as problem+json with a request id. Issue 38: two Authorization headers, unknown body
// fields, bodies on routes that take none, and bodies that are not JSON.
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createLogger } from '@app/observability';
import { createTestDatabase, type TestDatabase } from '@app/testing';
import type { ApiContext } from './api.context';
import { buildApiServer, REQUEST_TIMEOUT_MS } from './api.server';
import { apiConfigSchema } from './config/api.config';
import { ECHO_LIMITS } from './platform/api.errors';
import { MAX_JSON_DEPTH } from './platform/json-body.parser';

const DOCS = 'https://docs.hostile.test';
const REQUEST_ID = /^req_[0-9a-f]{20}$/;

let db: TestDatabase;
let api: { server: FastifyInstance; context: ApiContext };
let port: number;
let key: string;
let endpointId: string;

const nested = (depth: number, leaf = '1'): string => '['.repeat(depth) + leaf + ']'.repeat(depth);

/** Sends raw bytes on a fresh connection; resolves with everything the server wrote before closing (or after `waitMs`). */
function rawRequest(bytes: string | Buffer, waitMs = 5_000): Promise<{ text: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), waitMs);
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', (err) => (chunks.length ? undefined : reject(err)));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text: Buffer.concat(chunks).toString('latin1'), ms: Date.now() - started });
    });
    socket.write(bytes);
  });
}

/** Status, headers (lower-case) and JSON body of a raw HTTP/1.1 response. */
function parseRaw(text: string): { status: number; headers: Record<string, string>; body: Record<string, unknown> } {
  const [head = '', body = ''] = text.split('\r\n\r\n', 2);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, body: (body === '' ? {} : JSON.parse(body)) as Record<string, unknown> };
}

function expectProblem(r: { status: number; headers: Record<string, string>; body: Record<string, unknown> }, status: number, slug: string): void {
  expect(r.status).toBe(status);
  expect(r.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(r.body).toMatchObject({ type: `${DOCS}/errors/${slug}`, status, request_id: expect.stringMatching(REQUEST_ID) });
  expect(r.headers['x-request-id']).toBe(r.body.request_id);
}

async function httpJson(method: string, path: string, body: string): Promise<{ status: number; headers: Record<string, string>; body: Record<string, unknown> }> {
  const r = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    body,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${key}` },
  });
  return { status: r.status, headers: Object.fromEntries(r.headers), body: (await r.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  db = await createTestDatabase('hostile');
  api = await buildApiServer(
    apiConfigSchema.parse({
      DATABASE_URL: db.url,
      API_KEY_PEPPER: randomBytes(24).toString('hex'),
      CURSOR_SECRET: randomBytes(24).toString('hex'),
      DOCS_URL: DOCS,
      LOG_LEVEL: 'silent',
      WEBHOOK_SECRETS_KEY: randomBytes(32).toString('hex'),
      WEBHOOKS_ALLOW_HTTP: 'true',
      WEBHOOKS_ALLOW_PRIVATE_HOSTS: 'true',
    }),
    { logger: createLogger({ level: 'silent' }) },
  );
  await api.server.listen({ port: 0, host: '127.0.0.1' });
  port = (api.server.server.address() as { port: number }).port;
  const account = `acct_${randomBytes(6).toString('hex')}`;
  await api.context.dataSource.query(`INSERT INTO accounts (id, name, plan) VALUES ($1, $1, 'enterprise')`, [account]);
  key = (await api.context.keys.createKey({ accountId: account, mode: 'live', label: 'hostile' })).key;
  const created = await httpJson('POST', '/v1/webhook-endpoints', JSON.stringify({ url: 'http://127.0.0.1:9/hook', topics: ['filing.created'] }));
  expect(created.status).toBe(201);
  endpointId = created.body.id as string;
});

afterAll(async () => {
  await api?.server.close();
  await db?.drop();
});

describe('deeply nested JSON', () => {
  const routes = (): Array<[string, string]> => [
    ['POST', '/v1/webhook-endpoints'],
    ['PATCH', `/v1/webhook-endpoints/${endpointId}`],
    ['POST', `/v1/webhook-endpoints/${endpointId}/test`],
    ['POST', `/v1/webhook-endpoints/${endpointId}/recover`],
    ['POST', '/v1/citations/verify'],
    ['POST', '/mcp'],
  ];

  it('is a 400 problem on every JSON route, 5,000 to 20,000 levels deep, at the top or inside a field', async () => {
    for (const [method, path] of routes()) {
      for (const body of [nested(5_000), nested(20_000), `{"url": ${nested(10_000, '"x"')}}`]) {
        const r = await httpJson(method, path, body);
        expectProblem(r, 400, 'bad-request');
        expect(r.body.detail).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);
      }
    }
  });

  it('just under the limit: a 422 whose echoed input is cut to the echo bounds', async () => {
    const deep = nested(MAX_JSON_DEPTH - 2);
    const long = 'y'.repeat(20_000);
    for (const [method, path] of routes().filter(([, p]) => p !== '/mcp')) {
      const fields = ['url', 'topics', 'since', 'provenance'].map((f) => `"${f}": ${deep}`).join(', ');
      for (const body of [deep, `{${fields}, "topic": "${long}", "description": "${long}"}`]) {
        const r = await httpJson(method, path, body);
        expectProblem(r, 422, 'validation-error');
        const text = JSON.stringify(r.body);
        expect(text.length).toBeLessThan(4_000);
        expect(text).not.toContain('y'.repeat(ECHO_LIMITS.chars + 1));
      }
    }
  });

  it('MCP: a tool argument nested under the limit is the same bounded 422, as a tool error', async () => {
    const call = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_company","arguments":{"symbol":${nested(MAX_JSON_DEPTH - 5, '"A"')}}}}`;
    const r = await httpJson('POST', '/mcp', call);
    expect(r.status).toBe(200);
    const result = (r.body as { result: { isError: boolean; content: Array<{ text: string }> } }).result;
    expect(result.isError).toBe(true);
    const problem = JSON.parse(result.content[0]!.text) as Record<string, unknown>;
    expect(problem).toMatchObject({ type: `${DOCS}/errors/validation-error`, status: 422 });
    expect(result.content[0]!.text.length).toBeLessThan(4_000);
  });
});

describe("Fastify's and Node's own rejections are problem+json", () => {
  it('431: a query string over the header limit', async () => {
    const r = parseRaw((await rawRequest(`GET /v1/companies?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`)).text);
    expectProblem(r, 431, 'header-fields-too-large');
    expect(r.body.instance).toBe('/v1/companies');
  });

  it('414: a path parameter over 2 KiB', async () => {
    const r = await fetch(`http://127.0.0.1:${port}/v1/companies/${'A'.repeat(3_000)}`, { headers: { authorization: `Bearer ${key}` } });
    expectProblem({ status: r.status, headers: Object.fromEntries(r.headers), body: (await r.json()) as Record<string, unknown> }, 414, 'uri-too-long');
  });

  it('400: malformed percent-encoding', async () => {
    const r = parseRaw((await rawRequest('GET /v1/companies/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).text);
    expectProblem(r, 400, 'bad-request');
    expect(r.body.detail).toContain('percent-encoding');
  });

  it('400: an unknown method and a NUL byte in a header', async () => {
    const method = parseRaw((await rawRequest('FROB /v1/companies HTTP/1.1\r\nHost: x\r\n\r\n')).text);
    expectProblem(method, 400, 'bad-request');
    expect(method.body.instance).toBe('/v1/companies');
    const nul = parseRaw((await rawRequest(Buffer.from('GET /v1/companies HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0000b\r\n\r\n', 'latin1'))).text);
    expectProblem(nul, 400, 'bad-request');
  });

  it('408 within seconds: an authenticated POST whose body is shorter than its Content-Length', async () => {
    const head = `POST /v1/citations/verify HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"provenance":`;
    const { text, ms } = await rawRequest(head, REQUEST_TIMEOUT_MS + 10_000);
    const r = parseRaw(text);
    expectProblem(r, 408, 'request-timeout');
    expect(ms).toBeLessThan(REQUEST_TIMEOUT_MS + 3_000);
  }, 30_000);
});

/** A request over a real socket with its headers given as raw lines (so a header can come twice). */
async function rawHttp(method: string, path: string, headerLines: string[], body = ''): Promise<ReturnType<typeof parseRaw>> {
  const head = [`${method} ${path} HTTP/1.1`, 'Host: x', 'Connection: close', ...headerLines, ...(body === '' && method === 'GET' ? [] : [`Content-Length: ${Buffer.byteLength(body)}`])];
  return parseRaw((await rawRequest(`${head.join('\r\n')}\r\n\r\n${body}`)).text);
}

describe('two Authorization headers (issue 38)', () => {
  it('are a 400 whichever comes first, valid or not, on /v1 and /mcp; one valid header still passes', async () => {
    for (const [first, second] of [
      [`Bearer ${key}`, 'Bearer sk_live_0000000000000000_invalid'],
      ['Bearer sk_live_0000000000000000_invalid', `Bearer ${key}`],
      [`Bearer ${key}`, `Bearer ${key}`],
    ]) {
      const r = await rawHttp('GET', `/v1/webhook-endpoints/${endpointId}`, [`Authorization: ${first}`, `authorization: ${second}`]);
      expectProblem(r, 400, 'bad-request');
      expect(r.body.detail).toBe('The request carries 2 Authorization headers; send exactly one.');
      expect(r.headers['x-ratelimit-remaining']).toBeUndefined();
    }
    const mcp = await rawHttp('POST', '/mcp', [`Authorization: Bearer ${key}`, 'Authorization: Basic eDp5', 'Content-Type: application/json'], '{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
    expectProblem(mcp, 400, 'bad-request');
    expect((await rawHttp('GET', `/v1/webhook-endpoints/${endpointId}`, [`Authorization: Bearer ${key}`])).status).toBe(200);
    // A public route reads no key: the header is not looked at.
    expect((await rawHttp('GET', '/healthz', ['Authorization: Bearer a', 'Authorization: Bearer b'])).status).toBe(200);
  });
});

describe('request bodies are strict (issue 38)', () => {
  const json = (): string[] => ['Content-Type: application/json', `Authorization: Bearer ${key}`];
  const noDelivery = () => `/v1/webhook-endpoints/${endpointId}/deliveries/del_${'0'.repeat(24)}/retry`;

  it('an unknown body field is a 422 extra_forbidden at its loc, nested ones too; nothing is created', async () => {
    const before = await api.context.dataSource.query<{ n: string }[]>('SELECT count(*) AS n FROM webhook_endpoints');
    const r = await httpJson('POST', '/v1/webhook-endpoints', JSON.stringify({ url: 'http://127.0.0.1:9/x', topics: ['filing.created'], account_id: 'acct_other', signing_secret: 'whsec_x', id: 'we_x' }));
    expectProblem(r, 422, 'validation-error');
    expect(r.body.detail).toEqual([
      { type: 'extra_forbidden', loc: ['body', 'account_id'], msg: 'Extra inputs are not permitted', input: 'acct_other' },
      // A secret is never echoed, not even a refused one.
      { type: 'extra_forbidden', loc: ['body', 'signing_secret'], msg: 'Extra inputs are not permitted', input: '[redacted]' },
      { type: 'extra_forbidden', loc: ['body', 'id'], msg: 'Extra inputs are not permitted', input: 'we_x' },
    ]);
    expect(await api.context.dataSource.query('SELECT count(*) AS n FROM webhook_endpoints')).toEqual(before);
    const patch = await httpJson('PATCH', `/v1/webhook-endpoints/${endpointId}`, JSON.stringify({ enabled: true, status: 'enabled' }));
    expect(patch.status).toBe(422);
    expect(patch.body.detail).toEqual([{ type: 'extra_forbidden', loc: ['body', 'status'], msg: 'Extra inputs are not permitted', input: 'enabled' }]);
    const test = await httpJson('POST', `/v1/webhook-endpoints/${endpointId}/test`, JSON.stringify({ topics: ['filing.created'] }));
    expect(test.body.detail).toEqual([{ type: 'extra_forbidden', loc: ['body', 'topics'], msg: 'Extra inputs are not permitted', input: ['filing.created'] }]);
    const recover = await httpJson('POST', `/v1/webhook-endpoints/${endpointId}/recover`, JSON.stringify({ since: '2020-01-01T00:00:00Z', until: '2030-01-01' }));
    expect(recover.body.detail).toEqual([{ type: 'extra_forbidden', loc: ['body', 'until'], msg: 'Extra inputs are not permitted', input: '2030-01-01' }]);
    const provenance = { source_url: 'https://www.sec.gov/x', quote: 'q', content_hash: `sha256:${'a'.repeat(64)}`, trusted: true };
    const verify = await httpJson('POST', '/v1/citations/verify', JSON.stringify({ provenance }));
    expect(verify.body.detail).toEqual([{ type: 'extra_forbidden', loc: ['body', 'provenance', 'trusted'], msg: 'Extra inputs are not permitted', input: true }]);
  });

  it('a route without a body refuses any body with a 422 at ["body"] ({} and null too); an empty body, with or without a Content-Type, is none', async () => {
    for (const path of [`/v1/webhook-endpoints/${endpointId}/rotate-secret`, noDelivery()]) {
      for (const body of ['{"reason":"x"}', '{}', 'null']) {
        const r = await rawHttp('POST', path, json(), body);
        expectProblem(r, 422, 'validation-error');
        expect(r.body.detail).toEqual([{ type: 'extra_forbidden', loc: ['body'], msg: 'Extra inputs are not permitted', input: JSON.parse(body) as unknown }]);
      }
    }
    const del = await rawHttp('DELETE', `/v1/webhook-endpoints/${endpointId}`, json(), '{}');
    expect([del.status, (del.body.detail as { loc: string[] }[])[0]!.loc]).toEqual([422, ['body']]);
    // No body: empty with application/json, empty with another type, or no Content-Type at all.
    for (const headers of [json(), ['Content-Type: text/plain', `Authorization: Bearer ${key}`], [`Authorization: Bearer ${key}`]]) {
      const rotated = await rawHttp('POST', `/v1/webhook-endpoints/${endpointId}/rotate-secret`, headers);
      expect([headers[0], rotated.status]).toEqual([headers[0], 200]);
      expect(rotated.body.signing_secret).toMatch(/^whsec_/);
      const retry = await rawHttp('POST', noDelivery(), headers);
      expectProblem(retry, 404, 'unknown-delivery');
    }
  });

  it('a body that is not JSON is a 415, on routes with a body and without; a body route with an empty JSON body is a 422 missing', async () => {
    const routes: Array<[string, string]> = [
      ['POST', '/v1/webhook-endpoints'],
      ['PATCH', `/v1/webhook-endpoints/${endpointId}`],
      ['POST', `/v1/webhook-endpoints/${endpointId}/rotate-secret`],
      ['POST', noDelivery()],
      ['POST', '/v1/citations/verify'],
      ['DELETE', `/v1/webhook-endpoints/${endpointId}`],
    ];
    const body = JSON.stringify({ url: 'http://127.0.0.1:9/x', topics: ['filing.created'] });
    for (const [method, path] of routes) {
      for (const type of ['Content-Type: text/plain', 'Content-Type: application/x-www-form-urlencoded', null]) {
        const r = await rawHttp(method, path, [`Authorization: Bearer ${key}`, ...(type ? [type] : [])], body);
        expectProblem(r, 415, 'unsupported-media-type');
        expect(r.body.detail).toBe('Request bodies are JSON only: send Content-Type: application/json, or no body.');
      }
    }
    const empty = await rawHttp('POST', '/v1/webhook-endpoints', json());
    expectProblem(empty, 422, 'validation-error');
    expect(empty.body.detail).toEqual([{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }]);
    // Still there: none of the refused requests reached the endpoint.
    expect((await rawHttp('GET', `/v1/webhook-endpoints/${endpointId}`, [`Authorization: Bearer ${key}`])).status).toBe(200);
  });

  it('valid requests are unchanged: create 201, test with {} or no body 202, charset parameter accepted', async () => {
    const created = await rawHttp('POST', '/v1/webhook-endpoints', ['Content-Type: application/json; charset=utf-8', `Authorization: Bearer ${key}`], JSON.stringify({ url: 'http://127.0.0.1:9/ok', topics: ['filing.created'], description: null }));
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect((await rawHttp('POST', `/v1/webhook-endpoints/${id}/test`, json(), '{}')).status).toBe(202);
    expect((await rawHttp('POST', `/v1/webhook-endpoints/${id}/test`, [`Authorization: Bearer ${key}`])).status).toBe(202);
    expect((await rawHttp('DELETE', `/v1/webhook-endpoints/${id}`, [`Authorization: Bearer ${key}`])).status).toBe(204);
  });
});
