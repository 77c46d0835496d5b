// Postgres and Redis going away under a running api (issue 19): each sits behind a TCP proxy this
// test owns, so an outage is real (connections cut, new ones refused) without touching the shared
// servers. Requests answer 503 `unavailable` with Retry-After, one log line per transition.
import { randomBytes } from 'node:crypto';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { createTestDatabase, expectEventually, type TestDatabase } from '@app/testing';
import type { ApiContext } from './api.context';
import { buildApiServer } from './api.server';
import { apiConfigSchema } from './config/api.config';

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

let db: TestDatabase;
let pg: CuttableProxy;
let redis: CuttableProxy;
let api: { server: FastifyInstance; context: ApiContext };
let key: string;
const lines: Array<{ level: number; msg: string; dependency?: string }> = [];

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
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as (typeof lines)[number]);
      done();
    },
  });
  api = await buildApiServer(
    apiConfigSchema.parse({
      DATABASE_URL: dbUrl.toString(),
      REDIS_URL: redisUrl.toString(),
      REDIS_KEY_PREFIX: `rl:outage:${randomBytes(4).toString('hex')}:`,
      API_KEY_PEPPER: randomBytes(24).toString('hex'),
      CURSOR_SECRET: randomBytes(24).toString('hex'),
      DOCS_URL: DOCS,
      // Every request reads its key from Postgres: the outage is seen on the first request.
      AUTH_CACHE_TTL_MS: '0',
      // A burst under 20/s leases one token per Redis call: every request asks Redis.
      PLAN_BUILDER_BURST_PER_SECOND: '19',
    }),
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
