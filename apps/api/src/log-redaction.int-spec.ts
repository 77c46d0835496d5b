import { randomBytes } from 'node:crypto';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createLogger, type Logger } from '@app/observability';
import { createTestDatabase, type TestDatabase } from '@app/testing';
import type { ApiContext } from './api.context';
import { buildApiServer } from './api.server';
import { apiConfigSchema } from './config/api.config';

// Issue 38: a key sent in the wrong place (the query string, a path, a header we do not read) never
// reaches a log line, a metric label or an error body. The real api on a port, logging through the
// real logger (createLogger) into a file; every secret sent is then looked for everywhere.

let db: TestDatabase;
let api: { server: FastifyInstance; context: ApiContext };
let logger: Logger;
let dir: string;
let logFile: string;
let base: string;
let key: string;

/** Every secret value sent, by what carried it: none may appear in a log line, /metrics or an error body. */
const secrets = new Map<string, string>();
/** Bodies of every error answer (status >= 400). */
const errorBodies: string[] = [];

const fakeKey = (mode: 'live' | 'test') => `sk_${mode}_${randomBytes(8).toString('hex')}_${randomBytes(32).toString('base64url')}`;
const opaque = (what: string) => `${what}-${randomBytes(12).toString('hex')}`;

async function send(path: string, init: RequestInit = {}): Promise<{ status: number; body: string }> {
  const r = await fetch(`${base}${path}`, init);
  const body = await r.text();
  if (r.status >= 400) errorBodies.push(body);
  return { status: r.status, body };
}

/** A raw HTTP/1.1 request (what fetch will not send: a header twice, a NUL byte); the whole answer. */
function sendRaw(request: string): Promise<string> {
  const { port, hostname } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request));
    let answer = '';
    socket.on('data', (d: Buffer) => (answer += d.toString('latin1')));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.setTimeout(5_000, () => socket.destroy(new Error('no answer')));
  });
}

const authorized = (extra: Record<string, string> = {}) => ({ authorization: `Bearer ${key}`, ...extra });
const jsonPost = (body: unknown, extra: Record<string, string> = {}) => ({
  method: 'POST',
  headers: authorized({ 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...extra }),
  body: JSON.stringify(body),
});

beforeAll(async () => {
  db = await createTestDatabase('api_log_redaction');
  dir = mkdtempSync(join(tmpdir(), 'log-redaction-'));
  logFile = join(dir, 'api.log');
  // Left open: the logger's periodic flush outlives the test (a write to a closed fd kills the worker).
  logger = createLogger({ level: 'info', name: 'api', fd: openSync(logFile, 'w') });
  api = await buildApiServer(
    apiConfigSchema.parse({
      DATABASE_URL: db.url,
      API_KEY_PEPPER: randomBytes(24).toString('hex'),
      CURSOR_SECRET: randomBytes(24).toString('hex'),
      DOCS_URL: 'https://docs.test.example',
      LOG_LEVEL: 'info',
      WEBHOOK_SECRETS_KEY: 'ab'.repeat(32),
      WEBHOOKS_ALLOW_HTTP: 'true',
      WEBHOOKS_ALLOW_PRIVATE_HOSTS: 'true',
    }),
    { logger },
  );
  await api.context.dataSource.query(`INSERT INTO accounts (id, name, plan) VALUES ('acct_logs', 'logs', 'builder')`);
  key = (await api.context.keys.createKey({ accountId: 'acct_logs', mode: 'live', label: 'logs' })).key;
  base = await api.server.listen({ port: 0, host: '127.0.0.1' });
}, 120_000);

afterAll(async () => {
  await api?.server.close();
  await db?.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('secrets sent to the api', () => {
  it('reach no log line, no metric and no error body', async () => {
    // A real key of the account, sent in the query string instead of the header: refused.
    const queryKey = (await api.context.keys.createKey({ accountId: 'acct_logs', mode: 'live', label: 'in the query' })).key;
    secrets.set('real sk_live_ key in ?api_key=', queryKey);
    expect((await send(`/v1/companies?api_key=${queryKey}`)).status).toBe(401);
    // With a good header as well: the unknown parameter is a 422 that would echo its value.
    expect((await send(`/v1/companies?limit=5&api_key=${queryKey}`, { headers: authorized() })).status).toBe(422);

    const queryToken = opaque('query-token');
    secrets.set('?token= value', queryToken);
    expect((await send(`/v1/companies?token=${queryToken}`, { headers: authorized() })).status).toBe(422);

    const pathKey = fakeKey('test');
    secrets.set('sk_test_ key in the path', pathKey);
    expect((await send(`/v1/companies/${pathKey}`, { headers: authorized() })).status).toBeGreaterThanOrEqual(400);
    expect((await send(`/v1/no-such-route/${pathKey}`, { headers: authorized() })).status).toBe(404);

    const bogusKey = fakeKey('live');
    secrets.set('bogus sk_live_ key in Authorization', bogusKey);
    expect((await send('/v1/companies', { headers: { authorization: `Bearer ${bogusKey}` } })).status).toBe(401);
    const bogusBearer = opaque('bearer');
    secrets.set('opaque Bearer credential', bogusBearer);
    expect((await send('/v1/companies', { headers: { authorization: `Bearer ${bogusBearer}` } })).status).toBe(401);

    const [first, second] = [fakeKey('live'), fakeKey('live')];
    secrets.set('first of two Authorization headers', first);
    secrets.set('second of two Authorization headers', second);
    const twice = await sendRaw(`GET /v1/companies HTTP/1.1\r\nHost: api\r\nAuthorization: Bearer ${first}\r\nAuthorization: Bearer ${second}\r\nConnection: close\r\n\r\n`);
    expect(twice).toMatch(/^HTTP\/1\.1 400 /);
    errorBodies.push(twice);

    const cookie = opaque('session');
    secrets.set('Cookie header', cookie);
    const apiKeyHeader = fakeKey('live');
    secrets.set('X-Api-Key header', apiKeyHeader);
    expect((await send('/v1/companies?limit=1', { headers: authorized({ cookie: `session=${cookie}; theme=dark`, 'x-api-key': apiKeyHeader }) })).status).toBe(200);
    expect((await send('/v1/companies', { headers: { cookie: `session=${cookie}`, 'x-api-key': apiKeyHeader } })).status).toBe(401);

    // Node's parser refuses this request (a NUL byte in a header): the client-error path logs the path.
    const clientErrorKey = fakeKey('live');
    secrets.set('sk_live_ key in the path of a request Node refuses', clientErrorKey);
    const refused = await sendRaw(`GET /v1/companies/${clientErrorKey} HTTP/1.1\r\nHost: api\r\nX-Bad: a\x00b\r\n\r\n`);
    expect(refused).toMatch(/^HTTP\/1\.1 400 /);
    errorBodies.push(refused);

    // A webhook endpoint whose URL carries a token, and its signing secrets.
    const endpointToken = opaque('endpoint-token');
    secrets.set('?token= in a webhook endpoint URL', endpointToken);
    const created = await send('/v1/webhook-endpoints', jsonPost({ url: `http://127.0.0.1:9/hook?token=${endpointToken}`, topics: ['filing.created'] }));
    expect(created.status).toBe(201);
    const endpoint = JSON.parse(created.body) as { id: string; signing_secret: string };
    expect(endpoint.signing_secret).toMatch(/^whsec_/);
    secrets.set('whsec_ secret of a new endpoint', endpoint.signing_secret);
    const invalidUrlToken = opaque('invalid-url-token');
    secrets.set('?token= in an invalid webhook URL (422 echo)', invalidUrlToken);
    expect((await send('/v1/webhook-endpoints', jsonPost({ url: `ftp://127.0.0.1/hook?token=${invalidUrlToken}`, topics: ['filing.created'] }))).status).toBe(422);
    const rotated = await send(`/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, { method: 'POST', headers: authorized() });
    expect(rotated.status).toBe(200);
    const rotatedSecret = (JSON.parse(rotated.body) as { signing_secret: string }).signing_secret;
    expect(rotatedSecret).toMatch(/^whsec_/);
    secrets.set('whsec_ secret from rotate-secret', rotatedSecret);

    // MCP: a key as a tool's argument, where an argument belongs and where none does.
    const mcpKey = fakeKey('live');
    secrets.set('sk_live_ key as an MCP tool argument', mcpKey);
    const mcpToken = opaque('mcp-token');
    secrets.set('token as an extra MCP tool argument', mcpToken);
    for (const args of [{ symbol: mcpKey }, { symbol: 'MSFT:US', api_key: mcpToken }]) {
      const r = await send('/mcp', jsonPost({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_company', arguments: args } }));
      expect(r.status).toBe(200);
      const result = (JSON.parse(r.body) as { result: { isError?: boolean; content: { text: string }[] } }).result;
      expect(result.isError).toBe(true);
      errorBodies.push(r.body);
    }

    const metrics = await send('/metrics');
    expect(metrics.status).toBe(200);

    await new Promise<void>((resolve, reject) => logger.flush((err) => (err ? reject(err) : resolve())));
    const log = readFileSync(logFile, 'utf8');
    const lines = log.trim().split('\n');

    console.log(`secrets tried (${secrets.size}):\n${[...secrets].map(([what, value]) => `  ${what}: ${value}`).join('\n')}`);
    const found = [...secrets].flatMap(([what, value]) => [
      ...lines.filter((l) => l.includes(value)).map((l) => `log: ${what}: ${l}`),
      ...(metrics.body.includes(value) ? [`metrics: ${what}`] : []),
      ...errorBodies.filter((b) => b.includes(value)).map((b) => `error body: ${what}: ${b}`),
    ]);
    expect(found).toEqual([]);

    // Not vacuous: every request was logged, with what was censored in place.
    expect(lines.filter((l) => l.includes('"msg":"request"')).length).toBeGreaterThanOrEqual(16);
    expect(log).toContain('"url":"/v1/companies?api_key=[redacted]"');
    expect(log).toContain('"url":"/v1/companies?token=[redacted]"');
    expect(log).toContain('"url":"/v1/companies/sk_test_[redacted]"');
    expect(log).toContain('"msg":"client error"');
    expect(errorBodies.join('\n')).toContain('No route GET /v1/no-such-route/sk_test_[redacted].');
    expect(errorBodies.length).toBeGreaterThanOrEqual(12);
    // Metrics name route patterns: the unknown route carrying a key is `unmatched`.
    expect(metrics.body).toContain('route="/v1/companies/:symbol"');
    expect(metrics.body).toContain('route="unmatched"');
  });
});
