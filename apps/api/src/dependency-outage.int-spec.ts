// Postgres and Redis going away under a running api (issue 19): each sits behind a TCP proxy this
// test owns, so an outage is real (connections cut, new ones refused) without touching the shared
// servers. Requests answer 503 `unavailable` with Retry-After, one log line per transition.
// The last tests run the Nest app (what main.ts runs) under concurrent load with cold auth caches
// (issue 38: there a key lookup that failed answered Fastify's own 500 with the database's address).
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pino from 'pino';
import { createTestDatabase, expectEventually, seedMicrosoft, type TestDatabase } from '@app/testing';
import { createApiApp } from './api.app';
import type { ApiContext } from './api.context';
import { buildApiServer } from './api.server';
import { generateApiKey } from './auth/api-key.format';
import { apiConfigSchema, type ApiConfig } from './config/api.config';

const DOCS = 'https://docs.outage.test';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A TCP proxy to host:port that can be cut (every connection closed, new ones refused) and restored on the same port. */
class CuttableProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(
    private readonly host: string,
    private readonly targetPort: number,
  ) {}

  /** While set, connections are accepted and never answered: a host that drops packets. */
  private silent = false;

  async up(): Promise<void> {
    this.server = createServer((client) => {
      if (this.silent) {
        this.sockets.add(client);
        client.on('close', () => this.sockets.delete(client));
        client.on('error', () => undefined);
        return;
      }
      const upstream = connect(this.targetPort, this.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  /** Existing connections are closed; new ones hang until restore(). */
  silence(): void {
    this.silent = true;
    for (const s of this.sockets) s.destroy();
  }

  restore(): void {
    this.silent = false;
    for (const s of this.sockets) s.destroy();
  }

  async cut(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server?.close(() => resolve()));
    for (const s of this.sockets) s.destroy();
    await closed;
  }
}

/** A pino destination that keeps the parsed lines. */
function logSink(into: LogLine[]): Writable {
  return new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) into.push(JSON.parse(line) as LogLine);
      done();
    },
  });
}

interface LogLine {
  level: number;
  msg: string;
  dependency?: string;
  err?: { message?: string };
}

let db: TestDatabase;
let pg: CuttableProxy;
let redis: CuttableProxy;
let api: { server: FastifyInstance; context: ApiContext };
let key: string;
let config: (extra: Record<string, string>) => ApiConfig;
const lines: LogLine[] = [];

const get = () => api.server.inject({ method: 'GET', url: '/v1/companies', headers: { authorization: `Bearer ${key}` } });
const logged = (msg: string) => lines.filter((l) => l.msg === msg).length;

beforeAll(async () => {
  db = await createTestDatabase('outage');
  const dbUrl = new URL(db.url);
  const redisUrl = new URL(REDIS_URL);
  pg = new CuttableProxy(dbUrl.hostname, Number(dbUrl.port || 5432));
  redis = new CuttableProxy(redisUrl.hostname, Number(redisUrl.port || 6379));
  await pg.up();
  await redis.up();
  dbUrl.host = `127.0.0.1:${pg.port}`;
  redisUrl.host = `127.0.0.1:${redis.port}`;
  const sink = logSink(lines);
  const pepper = randomBytes(24).toString('hex');
  config = (extra) =>
    apiConfigSchema.parse({
      DATABASE_URL: dbUrl.toString(),
      REDIS_URL: redisUrl.toString(),
      REDIS_KEY_PREFIX: `rl:outage:${randomBytes(4).toString('hex')}:`,
      API_KEY_PEPPER: pepper,
      CURSOR_SECRET: randomBytes(24).toString('hex'),
      DOCS_URL: DOCS,
      // A burst under 20/s leases one token per Redis call: every request asks Redis.
      PLAN_BUILDER_BURST_PER_SECOND: '19',
      ...extra,
    });
  api = await buildApiServer(
    // Every request reads its key from Postgres: the outage is seen on the first request.
    config({ AUTH_CACHE_TTL_MS: '0' }),
    { logger: pino({ level: 'info' }, sink) },
  );
  const account = `acct_${randomBytes(6).toString('hex')}`;
  await api.context.dataSource.query(`INSERT INTO accounts (id, name, plan) VALUES ($1, $1, 'builder')`, [account]);
  key = (await api.context.keys.createKey({ accountId: account, mode: 'live', label: 'outage' })).key;
});

afterAll(async () => {
  await api?.server.close();
  await pg?.cut();
  await redis?.cut();
  await db?.drop();
});

async function expectUnavailableWhileDown(n: number): Promise<void> {
  for (let i = 0; i < n; i += 1) {
    const started = Date.now();
    const r = await get();
    expect(r.statusCode).toBe(503);
    // Answered at once, not after the client's reconnect attempts.
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(r.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(r.headers['retry-after']).toMatch(/^\d+$/);
    expect(r.json()).toMatchObject({ type: `${DOCS}/errors/unavailable`, status: 503, request_id: expect.stringMatching(/^req_/) });
    expect(r.body).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|stack|SELECT/);
  }
}

it.each([
  ['postgres', () => pg],
  ['redis', () => redis],
] as const)('%s down: 503 unavailable with Retry-After, logged once down and once back', async (dependency, proxy) => {
  expect((await get()).statusCode).toBe(200);
  const before = lines.length;
  await proxy().cut();
  await expectUnavailableWhileDown(20);
  const since = lines.slice(before);
  expect(since.filter((l) => l.msg === `${dependency} unavailable: answering 503 until it is back`)).toHaveLength(1);
  // One line for the transition; no per-request error lines (the request log itself is info).
  expect(since.filter((l) => l.level >= 50)).toHaveLength(1);
  await proxy().up();
  await expectEventually(async () => expect((await get()).statusCode).toBe(200), { timeoutMs: 20_000 });
  await expectEventually(() => expect(logged(`${dependency} available again`)).toBe(1), { timeoutMs: 10_000 });
}, 60_000);

it('postgres silent (connections accepted, never answered): 503 within the connect timeout, not a hung request', async () => {
  expect((await get()).statusCode).toBe(200);
  pg.silence();
  // The first request loses its pooled connection at once; the next ones need a new connection.
  for (let i = 0; i < 3; i += 1) {
    const started = Date.now();
    const r = await get();
    expect(r.statusCode).toBe(503);
    expect(r.json()).toMatchObject({ type: `${DOCS}/errors/unavailable`, status: 503 });
    expect(Date.now() - started).toBeLessThan(8_000);
  }
  pg.restore();
  await expectEventually(async () => expect((await get()).statusCode).toBe(200), { timeoutMs: 20_000 });
}, 60_000);

describe('the Nest app (main.ts) with cold auth caches, under concurrent load', () => {
  const nestLines: LogLine[] = [];
  let app: NestFastifyApplication;
  let nest: FastifyInstance;

  const rpcCall = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_company', arguments: { symbol: 'MSFT:US' } } };
  /** The routes of the black-box run, and the MCP endpoint. */
  const CALLS = [
    { method: 'GET', url: '/v1/companies' },
    { method: 'GET', url: '/v1/companies/MSFT:US' },
    { method: 'GET', url: '/v1/filings' },
    { method: 'GET', url: '/v1/search?q=microsoft' },
    { method: 'GET', url: '/v1/webhook-endpoints' },
    // Every other one with an Idempotency-Key: the idempotency store is asked first.
    { method: 'POST', url: '/v1/webhook-endpoints', payload: { url: 'http://localhost:9/hook', topics: ['filing.created'] } },
    { method: 'POST', url: '/mcp', payload: rpcCall, headers: { accept: 'application/json, text/event-stream' } },
  ] as const;

  const send = (key: string, n: number): Promise<LightMyRequestResponse> => {
    const call = CALLS[n % CALLS.length]!;
    const idempotency = call.url === '/v1/webhook-endpoints' && n % 2 === 0 ? { 'idempotency-key': randomUUID() } : {};
    return nest.inject({
      method: call.method,
      url: call.url,
      ...('payload' in call ? { payload: call.payload } : {}),
      headers: { authorization: `Bearer ${key}`, ...idempotency, ...('headers' in call ? call.headers : {}) },
    });
  };

  /** `n` valid keys of builder accounts, created and never used (so in no auth cache). */
  async function newKeys(n: number): Promise<string[]> {
    const keys: string[] = [];
    for (let i = 0; i < n; i += 1) {
      const account = `acct_${randomBytes(6).toString('hex')}`;
      await api.context.dataSource.query(`INSERT INTO accounts (id, name, plan) VALUES ($1, $1, 'builder')`, [account]);
      keys.push((await api.context.keys.createKey({ accountId: account, mode: 'live', label: 'cold' })).key);
    }
    return keys;
  }

  /** Responses counted by status, and every one that breaks the outage contract, described. */
  class Tally {
    requests = 0;
    readonly byStatus = new Map<number, number>();
    readonly broken: string[] = [];

    add(responses: LightMyRequestResponse[]): void {
      for (const r of responses) {
        this.requests += 1;
        this.byStatus.set(r.statusCode, (this.byStatus.get(r.statusCode) ?? 0) + 1);
        const what = `${r.statusCode} ${String(r.headers['content-type'])} ${r.body.slice(0, 300)}`;
        if (r.statusCode >= 500 && r.statusCode !== 503) this.broken.push(`5xx other than 503: ${what}`);
        if (r.statusCode >= 300 && !/^application\/problem\+json/.test(String(r.headers['content-type']))) this.broken.push(`not problem+json: ${what}`);
        if (r.statusCode === 503 && !/^\d+$/.test(String(r.headers['retry-after']))) this.broken.push(`503 without Retry-After: ${what}`);
        if (r.statusCode === 503 && !r.body.includes(`${DOCS}/errors/unavailable`)) this.broken.push(`503 not unavailable: ${what}`);
        if (/127\.0\.0\.1|ECONNREFUSED/.test(r.body) || r.body.includes(`:${pg.port}`) || r.body.includes(`:${redis.port}`)) this.broken.push(`internals in the body: ${what}`);
      }
    }

    count(status: number): number {
      return this.byStatus.get(status) ?? 0;
    }
  }

  const isOk = (r: LightMyRequestResponse): boolean => r.statusCode >= 200 && r.statusCode < 300 && !(r.json<{ result?: { isError?: boolean } }>().result?.isError ?? false);

  beforeAll(async () => {
    app = await createApiApp(
      config({
        WEBHOOK_SECRETS_KEY: randomBytes(32).toString('hex'),
        WEBHOOKS_ALLOW_HTTP: 'true',
        WEBHOOKS_ALLOW_PRIVATE_HOSTS: 'true',
      }),
      { logger: pino({ level: 'info' }, logSink(nestLines)) },
    );
    nest = app.getHttpAdapter().getInstance();
    await seedMicrosoft(api.context.dataSource);
  });

  afterAll(async () => {
    await app?.close();
  });

  it.each([
    ['postgres', () => pg],
    ['redis', () => redis],
  ] as const)(
    '%s cut under load: 503 unavailable problems with Retry-After and no internals, one error line, then 2xx again',
    async (dependency, proxy) => {
      // Warm keys (cached, leases taken) reach the limiter, repositories, the idempotency store and
      // the MCP tools; cold and never-existing keys need a key lookup on every request.
      const warm = await newKeys(10);
      const cold = await newKeys(150);
      const never = Array.from({ length: 50 }, () => generateApiKey('live').key);
      for (const k of warm) expect((await send(k, 0)).statusCode).toBe(200);
      const before = nestLines.length;
      const tally = new Tally();
      const inFlight = Promise.all(warm.map((k, i) => send(k, i)));
      await proxy().cut();
      tally.add(await inFlight);
      const cutAt = Date.now();
      for (let round = 0; Date.now() - cutAt < 3_000; round += 1) {
        tally.add(await Promise.all([...warm, ...cold, ...never].map((k, i) => send(k, i + round))));
      }
      const other = tally.requests - tally.count(503) - [...tally.byStatus].filter(([s]) => s < 300).reduce((n, [, c]) => n + c, 0);
      console.log(
        `${dependency} cut (Nest app, cold auth caches): ${tally.requests} requests, ${tally.count(503)} x 503, ${other} other non-2xx, ` +
          `by status ${JSON.stringify(Object.fromEntries(tally.byStatus))}`,
      );
      expect(tally.broken).toEqual([]);
      expect(tally.count(503)).toBeGreaterThan(tally.requests / 2);
      const errors = nestLines.slice(before).filter((l) => l.level >= 50);
      expect(errors).toEqual([expect.objectContaining({ msg: `${dependency} unavailable: answering 503 until it is back`, error: expect.any(String) })]);

      await proxy().up();
      await expectEventually(async () => expect(isOk(await send(warm[0]!, 0))).toBe(true), { timeoutMs: 20_000 });
      const after = await Promise.all([...warm, ...cold].map((k, i) => send(k, i)));
      expect(after.filter((r) => !isOk(r)).map((r) => `${r.statusCode} ${r.body.slice(0, 200)}`)).toEqual([]);
      expect((await Promise.all(never.map((k, i) => send(k, i)))).map((r) => r.statusCode)).toEqual(never.map(() => 401));
      await expectEventually(() => expect(nestLines.filter((l) => l.msg === `${dependency} available again`)).toHaveLength(1), { timeoutMs: 10_000 });
    },
    90_000,
  );

  it('an unexpected failure (the key table gone) answers a neutral 500 problem and logs one error line with its cause', async () => {
    const [cold] = await newKeys(1);
    await api.context.dataSource.query('ALTER TABLE api_keys RENAME TO api_keys_gone');
    try {
      const before = nestLines.length;
      const r = await send(cold!, 0);
      expect(r.statusCode).toBe(500);
      expect(r.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(r.json()).toMatchObject({ type: `${DOCS}/errors/internal-error`, status: 500, detail: `internal error; quote request id ${String(r.headers["x-request-id"])} when reporting it` });
      expect(r.body).not.toMatch(/api_keys|relation|127\.0\.0\.1|statusCode/);
      const errors = nestLines.slice(before).filter((l) => l.level >= 50);
      expect(errors).toEqual([expect.objectContaining({ msg: 'unhandled error', err: expect.objectContaining({ message: expect.stringContaining('api_keys') }) })]);
    } finally {
      await api.context.dataSource.query('ALTER TABLE api_keys_gone RENAME TO api_keys');
    }
  });
});
