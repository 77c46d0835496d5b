// The MCP endpoint's HTTP behaviour on a real Postgres, over real HTTP with the SDK's own client:
// auth and its challenge, the metadata document, rate limits per HTTP request, 405s and batches.
// The data side (every tool against ingested fixtures, equal to REST) is test/mcp.e2e-spec.ts.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createLogger } from '@app/observability';
import { createTestDatabase, seedMicrosoft, type TestDatabase } from '@app/testing';
import type { ApiContext } from '../api.context';
import { buildApiServer } from '../api.server';
import { apiConfigSchema } from '../config/api.config';

const PUBLIC_BASE_URL = 'https://api.filings.test';
const DOCS = 'https://docs.filings.test';

let db: TestDatabase;
let api: { server: FastifyInstance; context: ApiContext };
let url: string;
let key: string;

async function newKey(plan: 'free' | 'builder' | 'enterprise', mode: 'live' | 'test' = 'live'): Promise<string> {
  const id = `acct_${randomBytes(6).toString('hex')}`;
  await api.context.dataSource.query(`INSERT INTO accounts (id, name, plan) VALUES ($1, $1, $2)`, [id, plan]);
  return (await api.context.keys.createKey({ accountId: id, mode, label: 'mcp' })).key;
}

const rpc = (method: string, params: Record<string, unknown> = {}, id = 1) => ({ jsonrpc: '2.0', id, method, params });
const INITIALIZE = rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } });

function post(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
}

async function connect(apiKey: string): Promise<Client> {
  const client = new Client({ name: 'mcp-int', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${apiKey}` } } }));
  return client;
}

beforeAll(async () => {
  db = await createTestDatabase('mcp');
  api = await buildApiServer(
    apiConfigSchema.parse({
      DATABASE_URL: db.url,
      API_KEY_PEPPER: randomBytes(24).toString('hex'),
      CURSOR_SECRET: randomBytes(24).toString('hex'),
      DOCS_URL: DOCS,
      PUBLIC_BASE_URL,
      PLAN_FREE_DAILY_QUOTA: '3',
      LOG_LEVEL: 'silent',
    }),
    { logger: createLogger({ level: 'silent' }) },
  );
  await seedMicrosoft(api.context.dataSource);
  url = await api.server.listen({ port: 0, host: '127.0.0.1' });
  key = await newKey('enterprise');
});

afterAll(async () => {
  await api?.server.close();
  await db?.drop();
});

describe('the MCP endpoint over HTTP', () => {
  it('answers 401 without a key, naming the protected-resource metadata in the challenge', async () => {
    const r = await post(INITIALIZE);
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${PUBLIC_BASE_URL}/.well-known/oauth-protected-resource"`);
    expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await r.json()).toMatchObject({ type: `${DOCS}/errors/invalid-key`, status: 401, instance: '/mcp' });

    const bad = await post(INITIALIZE, { authorization: `Bearer sk_live_${'0'.repeat(16)}_${'A'.repeat(43)}` });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${PUBLIC_BASE_URL}/.well-known/oauth-protected-resource", error="invalid_token"`);
    // A key in the URL is no key.
    expect((await fetch(`${url}/mcp?api_key=${encodeURIComponent(key)}`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })).status).toBe(401);
    // A percent-encoded path reaches the same route: it is guarded the same way.
    const encoded = await fetch(`${url}/%6Dcp`, { method: 'POST', body: JSON.stringify(INITIALIZE), headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } });
    expect(encoded.status).toBe(401);
    expect(encoded.headers.get('www-authenticate')).toContain('resource_metadata=');
    // REST keeps its plain challenge.
    expect((await fetch(`${url}/v1/companies`)).headers.get('www-authenticate')).toBe('Bearer');

    const client = new Client({ name: 'mcp-int', version: '1.0.0' });
    await expect(client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)))).rejects.toThrow();
  });

  it('publishes OAuth protected-resource metadata (RFC 9728) without auth, at the root and the path-specific URI', async () => {
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const r = await fetch(`${url}${path}`);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^application\/json/);
      const doc = (await r.json()) as Record<string, unknown>;
      expect(doc).toEqual({
        resource: `${PUBLIC_BASE_URL}/mcp`,
        resource_name: 'Filings platform MCP server',
        resource_documentation: `${PUBLIC_BASE_URL}/docs`,
        bearer_methods_supported: ['header'],
      });
      expect(doc).not.toHaveProperty('authorization_servers');
    }
  });

  it('serves the SDK client: initialize, tools/list and a call, with the request id and rate-limit headers', async () => {
    const client = await connect(key);
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'filings-platform' });
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['search_companies', 'get_company', 'list_filings', 'get_document_pages']));
      const result = await client.callTool({ name: 'get_company', arguments: { symbol: 'msft:us' } });
      const rest = await api.server.inject({ method: 'GET', url: '/v1/companies/msft:us', headers: { authorization: `Bearer ${key}` } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual(rest.json());
      // The text is the same JSON (MCP: structured content also goes serialized as text), unindented.
      expect(result.content).toEqual([{ type: 'text', text: JSON.stringify(result.structuredContent) }]);
      expect(JSON.parse((result.content as { text: string }[])[0]!.text)).toEqual(rest.json());
    } finally {
      await client.close();
    }
    const raw = await post(rpc('tools/call', { name: 'get_company', arguments: { symbol: 'MSFT:US' } }), { authorization: `Bearer ${key}` });
    expect(raw.status).toBe(200);
    expect(raw.headers.get('x-request-id')).toMatch(/^req_/);
    expect(Number(raw.headers.get('x-ratelimit-limit'))).toBeGreaterThan(0);
    expect(raw.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
  });

  it('answers a failed call with the REST problem as text', async () => {
    const r = await post(rpc('tools/call', { name: 'get_company', arguments: { symbol: 'ZZZZ:US' } }), { authorization: `Bearer ${key}` });
    const body = (await r.json()) as { result: { isError: boolean; content: { text: string }[]; structuredContent?: unknown } };
    expect(body.result.isError).toBe(true);
    expect(body.result.structuredContent).toBeUndefined();
    const problem = JSON.parse(body.result.content[0]!.text) as Record<string, unknown>;
    const rest = await api.server.inject({ method: 'GET', url: '/v1/companies/ZZZZ:US', headers: { authorization: `Bearer ${key}` } });
    expect({ ...problem, request_id: null }).toEqual({ ...rest.json<Record<string, unknown>>(), request_id: null });
    expect(problem.request_id).toBe(r.headers.get('x-request-id'));

    // A lone surrogate in a path argument (JSON can carry it, no URL can): the 422 problem, not an internal error.
    const lone = await post(rpc('tools/call', { name: 'get_company', arguments: { symbol: '\uD800' } }), { authorization: `Bearer ${key}` });
    expect(lone.status).toBe(200);
    const loneBody = (await lone.json()) as { error?: unknown; result: { isError: boolean; content: { text: string }[] } };
    expect(loneBody.error).toBeUndefined();
    expect(loneBody.result.isError).toBe(true);
    expect(JSON.parse(loneBody.result.content[0]!.text)).toMatchObject({
      type: `${DOCS}/errors/validation-error`,
      status: 422,
      instance: '/v1/companies/%EF%BF%BD',
      detail: [expect.objectContaining({ type: 'string_pattern_mismatch', loc: ['path', 'symbol'] })],
    });
    // In free text too (the search tool's q): 422, not a query with U+FFFD in it.
    const loneQ = (await (await post(rpc('tools/call', { name: 'search', arguments: { q: 'micro\uDC00' } }), { authorization: `Bearer ${key}` })).json()) as {
      result: { isError: boolean; content: { text: string }[] };
    };
    expect(loneQ.result.isError).toBe(true);
    expect(JSON.parse(loneQ.result.content[0]!.text)).toMatchObject({ status: 422, detail: [expect.objectContaining({ type: 'value_error', loc: ['query', 'q'], input: 'micro\uFFFD' })] });

    const unknownTool = (await (await post(rpc('tools/call', { name: 'drop_tables', arguments: {} }), { authorization: `Bearer ${key}` })).json()) as { error: { code: number } };
    expect(unknownTool.error.code).toBe(-32602);
  });

  it('charges one request per HTTP request and answers 429 with Retry-After once the quota is spent', async () => {
    const tiny = await newKey('free');
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await post(i === 0 ? INITIALIZE : rpc('tools/list', {}, i), { authorization: `Bearer ${tiny}` });
      expect(r.status).toBe(200);
      remaining.push(r.headers.get('x-ratelimit-remaining'));
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const refused = await post(rpc('tools/call', { name: 'get_company', arguments: { symbol: 'MSFT:US' } }), { authorization: `Bearer ${tiny}` });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(await refused.json()).toMatchObject({ type: `${DOCS}/errors/rate-limited`, status: 429, instance: '/mcp' });
    await expect(connect(tiny)).rejects.toThrow(/429/);

    // The SDK client: initialize and its notification are two requests (its GET for a stream is free), tools/list a third.
    const client = await connect(await newKey('free'));
    try {
      await client.listTools();
      await expect(client.callTool({ name: 'get_company', arguments: { symbol: 'MSFT:US' } })).rejects.toMatchObject({ code: 429 });
    } finally {
      await client.close();
    }
  });

  it('answers GET and DELETE with 405 and refuses JSON-RPC batches', async () => {
    for (const method of ['GET', 'DELETE']) {
      const r = await fetch(`${url}/mcp`, { method, headers: { accept: 'text/event-stream' } });
      expect(r.status).toBe(405);
      expect(r.headers.get('allow')).toBe('POST');
      expect(await r.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 }, id: null });
    }
    const batch = await post([rpc('tools/list', {}, 1), rpc('tools/list', {}, 2)], { authorization: `Bearer ${key}` });
    expect(batch.status).toBe(400);
    expect(await batch.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
  });
});
