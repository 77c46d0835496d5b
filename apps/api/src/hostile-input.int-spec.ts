// Hostile input on the real server over real sockets (issue 19): deeply nested JSON on every JSON
// route and on MCP, the 422 echo bounded, and every rejection Fastify or Node makes itself (431,
// 414, bad percent-encoding, unknown method, bad header bytes, a body shorter than announced)
// answered as problem+json with a request id.
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
  return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) as Record<string, unknown> };
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
