// The shared EDGAR budget on a real Redis, against the fixture EDGAR server: several clients, each
// on a budget object and Redis connection of its own (as separate processes have), fetch real
// fixture paths at once; the server's arrival times are what SEC would count.
// @infra-path: its Lua scripts run on the Redis server, on its clock (TIME): docker-compose.yml's redis:7 in containers, the machine's locally.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Socket, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Redis from 'ioredis';
import { expectEventually, freePort, maxRequestsInAnyWindow, median, startFixtureServer, swcRegisterScript, type FixtureServer } from '@app/testing';
import { EdgarClient } from '../edgar.client';
import type { EdgarLogger } from '../edgar.logger';
import type { EdgarPriority } from './edgar-budget';
import { RedisEdgarBudget } from './redis-edgar-budget';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

let fixtures: FixtureServer;
let prefix: string;
/** Where this test's requests begin in the fixture server's log. */
let mark = 0;
const seen = () => fixtures.requests.slice(mark);
const budgets: RedisEdgarBudget[] = [];

/** A logger that keeps what it was told. */
function recordingLogger(): EdgarLogger & { lines: Array<{ level: string; msg: string }> } {
  const lines: Array<{ level: string; msg: string }> = [];
  return {
    lines,
    info: (_o, msg) => lines.push({ level: 'info', msg }),
    warn: (_o, msg) => lines.push({ level: 'warn', msg }),
    debug: (_o, msg) => lines.push({ level: 'debug', msg }),
  };
}

/** One "process": its own budget (own Redis connection) and a client at `priority`, named by its User-Agent. */
function processClient(name: string, priority: EdgarPriority, options: { url?: string; throttlePauseMs?: number } = {}) {
  const budgetLogger = recordingLogger();
  const clientLogger = recordingLogger();
  const budget = RedisEdgarBudget.connect(options.url ?? REDIS_URL, { maxRps: 10, keyPrefix: prefix, logger: budgetLogger });
  budgets.push(budget);
  const client = new EdgarClient({
    userAgent: `Budget-${name} test@example.com`,
    wwwBaseUrl: fixtures.url,
    dataBaseUrl: fixtures.url,
    maxRps: 10,
    budget,
    priority,
    throttlePauseMs: options.throttlePauseMs ?? 600_000,
    maxAttempts: 1,
    logger: clientLogger,
  });
  return { name, client, budget, budgetLogger, clientLogger };
}

/** Fetches `paths` with `concurrency` requests in flight; returns each request's time from call to answer. */
async function fetchAll(client: EdgarClient, paths: readonly string[], concurrency: number, gapMs = 0): Promise<number[]> {
  const waits: number[] = [];
  let next = 0;
  const lane = async () => {
    while (next < paths.length) {
      const path = paths[next++]!;
      const started = Date.now();
      const result = path.startsWith('/submissions/') ? await client.getData(path) : await client.getWww(path);
      waits.push(Date.now() - started);
      expect(result.kind).toBe('ok');
      if (gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return waits;
}

const repeat = (paths: readonly string[], n: number) => Array.from({ length: n }, (_, i) => paths[i % paths.length]!);
const byAgent = (name: string) => seen().filter((r) => r.userAgent === `Budget-${name} test@example.com`);

const DISCOVERY = ['/cgi-bin/current', '/Archives/edgar/daily-index/2020/QTR1/form.20200318.idx'];
// Documents of at most a few hundred kB: the fixture server gzips each answer synchronously in this
// process's event loop, and multi-MB 10-Ks stall it long enough to bunch arrivals by hundreds of ms,
// which would measure the test harness, not the budget.
const FILING_DOCS = [
  '/Archives/edgar/data/1648960/000121390024004875/index.json',
  '/Archives/edgar/data/51143/000156218017002633/0001562180-17-002633-index.htm',
  '/Archives/edgar/data/2230/000000223023990001/primary_doc.xml',
  '/Archives/edgar/data/1883685/0001104659-25-025206.txt',
];
const FORM4_DOCS = [
  '/Archives/edgar/data/789019/000106299324016587/form4.xml',
  '/Archives/edgar/data/1572616/000095017024012830/ownership.xml',
  '/Archives/edgar/data/1512673/000106299323020702/form4.xml',
  '/Archives/edgar/data/1318605/000089924321044060/doc4.xml',
];
const BACKFILL = ['/submissions/CIK0000789019.json', '/submissions/CIK0001318605.json', '/submissions/CIK0000717423.json', '/files/company_tickers_exchange.json'];

beforeAll(async () => {
  fixtures = await startFixtureServer();
});

beforeEach(() => {
  prefix = `edgar-budget:int:${randomBytes(6).toString('hex')}:`;
  mark = fixtures.requests.length;
});

afterEach(async () => {
  await Promise.all(budgets.splice(0).map((b) => b.close()));
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
});

afterAll(async () => {
  await fixtures.close();
});

describe('RedisEdgarBudget across processes', () => {
  it('holds a poller, two followers and a backfill to 10 per sliding second together, uses the rate, and serves discovery first', async () => {
    const discovery = processClient('discovery', 'discovery');
    const filingDocs = processClient('filing-docs', 'documents');
    const form4 = processClient('form4', 'documents');
    const backfill = processClient('backfill', 'backfill');

    const [discoveryWaits, docsWaits, form4Waits, backfillWaits] = await Promise.all([
      // A poller: one request at a time, with a pause between, arriving while the others have a backlog.
      fetchAll(discovery.client, repeat(DISCOVERY, 12), 1, 250),
      fetchAll(filingDocs.client, repeat(FILING_DOCS, 16), 2),
      fetchAll(form4.client, repeat(FORM4_DOCS, 16), 2),
      fetchAll(backfill.client, repeat(BACKFILL, 40), 8),
    ]);

    const all = seen();
    expect(all).toHaveLength(12 + 16 + 16 + 40);
    const busiest = maxRequestsInAnyWindow(all, 1000);
    expect(busiest).toBeLessThanOrEqual(10);
    // The rate is used, not only respected.
    expect(busiest).toBeGreaterThanOrEqual(8);
    for (const [name, n] of [['discovery', 12], ['filing-docs', 16], ['form4', 16], ['backfill', 40]] as const) expect(byAgent(name)).toHaveLength(n);
    expect(discovery.budget.stats.grants.discovery).toBe(12);
    expect(backfill.budget.stats.grants.backfill).toBe(40);
    // Discovery is not starved behind the backlog: it waits least, backfill most.
    expect(median(discoveryWaits)).toBeLessThan(median([...docsWaits, ...form4Waits]));
    expect(median([...docsWaits, ...form4Waits])).toBeLessThan(median(backfillWaits));

    const span = (all.at(-1)!.at - all[0]!.at) / 1000;
    console.log(JSON.stringify({
      busiestSecond: busiest,
      requests: all.length,
      spanS: span,
      perSecond: Number((all.length / span).toFixed(2)),
      medianWaitMs: { discovery: median(discoveryWaits), documents: median([...docsWaits, ...form4Waits]), backfill: median(backfillWaits) },
    }));
  });

  it('gives a lone backfill the full rate', async () => {
    const backfill = processClient('lone', 'backfill');
    await fetchAll(backfill.client, repeat(BACKFILL, 30), 10);
    const busiest = maxRequestsInAnyWindow(seen(), 1000);
    expect(busiest).toBeLessThanOrEqual(10);
    expect(busiest).toBeGreaterThanOrEqual(9);
  });

  it('a 403 to one process pauses every process; the pause is logged once where it was seen and noticed once elsewhere', async () => {
    const pauseMs = 1500;
    const seer = processClient('seer', 'documents', { throttlePauseMs: pauseMs });
    const backfill = processClient('pause-backfill', 'backfill', { throttlePauseMs: pauseMs });
    const poller = processClient('pause-poller', 'discovery', { throttlePauseMs: pauseMs });
    fixtures.failNext('/files/company_tickers.json', 403, 1);

    await Promise.all([
      fetchAll(seer.client, [...FORM4_DOCS, '/files/company_tickers.json', ...FORM4_DOCS], 1),
      fetchAll(backfill.client, repeat(BACKFILL, 24), 4),
      fetchAll(poller.client, repeat(DISCOVERY, 10), 1, 300),
    ]);

    const refused = seen().filter((r) => r.status === 403);
    expect(refused).toHaveLength(1);
    const t403 = refused[0]!.at;
    // Requests granted before the 403's answer was back may still arrive just after it; then nothing
    // reaches the server from anyone until the pause is over.
    const during = seen().filter((r) => r.at > t403 + 200 && r.at < t403 + pauseMs - 100);
    expect(during).toEqual([]);
    // All three went on after it.
    for (const name of ['seer', 'pause-backfill', 'pause-poller']) expect(byAgent(name).some((r) => r.at >= t403 + pauseMs - 100)).toBe(true);
    expect(maxRequestsInAnyWindow(seen(), 1000)).toBeLessThanOrEqual(10);

    expect(seer.budget.stats.throttles).toBe(1);
    expect(seer.clientLogger.lines.filter((l) => l.level === 'warn')).toEqual([{ level: 'warn', msg: 'SEC throttled us: pausing all EDGAR requests' }]);
    expect(seer.budgetLogger.lines).toEqual([]);
    for (const other of [backfill, poller]) {
      expect(other.budget.stats.throttles).toBe(0);
      expect(other.budgetLogger.lines).toEqual([{ level: 'info', msg: 'EDGAR budget: SEC throttled another process, pausing EDGAR requests here too' }]);
    }

    const firstAfter = Math.min(...seen().filter((r) => r.at > t403 + 200).map((r) => r.at));
    console.log(JSON.stringify({ pauseMs, silenceAfter403Ms: firstAfter - t403, requests: seen().length }));
  });
});

/** A TCP relay to Redis that a test can cut and restore (Redis "going away" without stopping the shared one). */
async function redisRelay(): Promise<{ url: string; cut(): Promise<void>; restore(): Promise<void>; close(): Promise<void> }> {
  const port = await freePort();
  const target = new URL(REDIS_URL);
  const sockets = new Set<Socket>();
  const relay: { server: Server | null } = { server: null };
  const listen = () =>
    new Promise<void>((resolve) => {
      relay.server = createServer((inbound) => {
        const outbound = new Socket();
        outbound.connect(Number(target.port || 6379), target.hostname);
        for (const s of [inbound, outbound]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => undefined);
        }
        inbound.pipe(outbound).pipe(inbound);
      });
      relay.server.listen(port, '127.0.0.1', () => resolve());
    });
  const cut = async () => {
    const s = relay.server;
    relay.server = null;
    for (const socket of sockets) socket.destroy();
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  };
  await listen();
  return { url: `redis://127.0.0.1:${port}`, cut, restore: listen, close: cut };
}

describe('RedisEdgarBudget when Redis goes away', () => {
  it('falls back to 1 request/s in the process, says so once, and returns to the shared budget when Redis is back', async () => {
    const relay = await redisRelay();
    try {
      const p = processClient('outage', 'documents', { url: relay.url });
      await fetchAll(p.client, FORM4_DOCS.slice(0, 2), 1);
      expect(p.budget.stats.degraded).toBe(false);

      await relay.cut();
      const before = seen().length;
      await fetchAll(p.client, FORM4_DOCS, 1);
      expect(p.budget.stats.degraded).toBe(true);
      // The fallback's rate: one start per second (the full rate would put 9 in one).
      expect(seen().length - before).toBe(4);
      expect(maxRequestsInAnyWindow(seen().slice(before), 1000)).toBe(1);

      await relay.restore();
      await expectEventually(async () => {
        await p.client.getWww(FORM4_DOCS[0]!);
        expect(p.budget.stats.degraded).toBe(false);
      }, { timeoutMs: 20_000, intervalMs: 0 });
      const said = p.budgetLogger.lines.map((l) => `${l.level}: ${l.msg}`);
      expect(said).toEqual([
        'warn: EDGAR budget: Redis unreachable, this process falls back to a local limiter',
        'info: EDGAR budget: Redis is back, the shared budget applies again',
      ]);
    } finally {
      await relay.close();
    }
  });
});

/** A child node process (the sources through swc) with its own budget and client, fetching `paths` 4 at a time; resolves with its budget's stats. */
function childProcessClient(register: string, name: string, priority: EdgarPriority, paths: readonly string[]): Promise<{ grants: Record<EdgarPriority, number> }> {
  const script = `
const { EdgarClient, RedisEdgarBudget } = require('@app/edgar');
const env = process.env;
(async () => {
  const budget = RedisEdgarBudget.connect(env.REDIS_URL, { maxRps: 10, keyPrefix: env.BUDGET_PREFIX });
  const client = new EdgarClient({ userAgent: env.UA, wwwBaseUrl: env.BASE, dataBaseUrl: env.BASE, maxRps: 10, budget, priority: env.PRIORITY, maxAttempts: 1 });
  const paths = JSON.parse(env.PATHS);
  let next = 0;
  await Promise.all([0, 1, 2, 3].map(async () => {
    while (next < paths.length) {
      const path = paths[next++];
      const r = path.startsWith('/submissions/') ? await client.getData(path) : await client.getWww(path);
      if (r.kind !== 'ok') throw new Error(path + ': ' + r.kind);
    }
  }));
  await budget.close();
  process.stdout.write(JSON.stringify(budget.stats));
})().catch((e) => { console.error(e); process.exit(1); });`;
  const child = spawn(process.execPath, ['-r', register, '-e', script], {
    env: { ...process.env, REDIS_URL, BUDGET_PREFIX: prefix, UA: `Budget-${name} test@example.com`, BASE: fixtures.url, PRIORITY: priority, PATHS: JSON.stringify(paths) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolvePromise, reject) => {
    child.on('exit', (code) => (code === 0 ? resolvePromise(JSON.parse(out) as { grants: Record<EdgarPriority, number> }) : reject(new Error(`${name} exited ${code}: ${err}`))));
  });
}

describe('RedisEdgarBudget between two node processes', () => {
  let dir: string;
  let register: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'edgar-budget-'));
    register = join(dir, 'register.js');
    writeFileSync(register, swcRegisterScript(resolve(__dirname, '../../../..')));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps two processes, each with 30 requests, at 10 per sliding second together', async () => {
    const [a, b] = await Promise.all([
      childProcessClient(register, 'child-a', 'documents', repeat(FORM4_DOCS, 30)),
      childProcessClient(register, 'child-b', 'documents', repeat(BACKFILL, 30)),
    ]);
    expect(a.grants.documents).toBe(30);
    expect(b.grants.documents).toBe(30);
    const [ra, rb] = [byAgent('child-a'), byAgent('child-b')];
    expect([ra.length, rb.length]).toEqual([30, 30]);
    // The two ran at the same time (else the bound below would prove nothing): at least 10
    // requests of each arrived while the other was running.
    const from = Math.max(ra[0]!.at, rb[0]!.at);
    const to = Math.min(ra.at(-1)!.at, rb.at(-1)!.at);
    for (const r of [ra, rb]) expect(r.filter((x) => x.at >= from && x.at <= to).length).toBeGreaterThanOrEqual(10);
    const busiest = maxRequestsInAnyWindow(seen(), 1000);
    expect(busiest).toBeLessThanOrEqual(10);
    expect(busiest).toBeGreaterThanOrEqual(8);
    console.log(JSON.stringify({ processes: 2, busiestSecond: busiest, overlapMs: to - from }));
  }, 60_000);

  it('a backfill process gets no slot while a documents process waits, and the whole rate after it', async () => {
    await Promise.all([
      childProcessClient(register, 'child-docs', 'documents', repeat(FORM4_DOCS, 30)),
      childProcessClient(register, 'child-backfill', 'backfill', repeat(BACKFILL, 30)),
    ]);
    const docs = byAgent('child-docs');
    const backfill = byAgent('child-backfill');
    // From the documents process's first arrival until it has fewer than 4 requests left (its 4
    // lanes keep demand up until then), at most one backfill request (granted before the
    // documents demand appeared) arrives.
    const during = backfill.filter((r) => r.at > docs[0]!.at && r.at < docs[26]!.at);
    expect(during.length).toBeLessThanOrEqual(1);
    const after = backfill.filter((r) => r.at > docs.at(-1)!.at);
    expect(after.length).toBeGreaterThanOrEqual(10);
    expect(maxRequestsInAnyWindow(after, 1000)).toBeGreaterThanOrEqual(8);
    console.log(JSON.stringify({ backfillDuringDocuments: during.length, backfillAfter: after.length, busiestSecondAfter: maxRequestsInAnyWindow(after, 1000) }));
  }, 60_000);
});
