import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import Redis from 'ioredis';
import { createScratchDb, loadCompanies, migrate, tickerMapRecords, type ScratchDb } from './scratch-db';
import { spawnServer, type ServerProcess } from './servers';
import { cleanup, cleanups, cleanUpOnSignals, positiveNumberEnv } from '../bench-support';

/*
 * `npm run bench`: GET /v1/companies throughput and latency, real api vs a bare Fastify + pg
 * server running the same query, and page 1 vs a deep keyset page. Prints figures; asserts
 * nothing about speed. Aborts when any response is not 2xx. See README.md.
 */

const env = process.env;
const num = positiveNumberEnv;

const settings = {
  databaseUrl: env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
  redisUrl: env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
  seconds: num('BENCH_SECONDS', 10),
  rounds: num('BENCH_ROUNDS', 2),
  // The api has more code for V8 to optimize than the raw server: a short warm-up measures the JIT.
  warmupSeconds: num('BENCH_WARMUP_SECONDS', 15),
  connections: num('BENCH_CONNECTIONS', 32),
  poolSize: num('BENCH_POOL_SIZE', 10),
  // The api's own default (LOG_LEVEL=info): one request log line per request, as in production.
  apiLogLevel: env.BENCH_API_LOG_LEVEL || 'info',
  cpuProfDir: env.BENCH_CPU_PROF_DIR || '',
};

const ROOT = resolve(__dirname, '..', '..', '..');
const DIST = join(ROOT, 'dist');
const TICKER_MAP = join(ROOT, 'sample/fixtures/tickers/company_tickers_exchange.json');
const PAGE = '/v1/companies?limit=50';
const RATIO_TARGET = 0.85;
const DEEP_TARGET = 1.2;

interface Run {
  target: string;
  round: number;
  reqPerSec: number;
  meanMs: number;
  p99Ms: number;
  requests: number;
  /** Server CPU use over the run, in % of one core. */
  serverCpu: number;
  /** Server CPU time per request, µs: steadier than req/s when other work shares the cores. */
  cpuPerReqUs: number;
  /** This (load generator) process's CPU use, in % of one core. */
  clientCpu: number;
  /** 1-minute load average at the end of the run (2 cores: above ~3 means other work competed). */
  load1: number;
}

interface Target {
  name: string;
  server: ServerProcess;
  path: string;
}

cleanUpOnSignals();

async function main(): Promise<void> {
  const t0 = Date.now();
  const tag = `${process.pid}_${randomBytes(3).toString('hex')}`;
  const pepper = randomBytes(32).toString('hex');
  const cursorSecret = randomBytes(32).toString('hex');

  // Scratch database: migrate, load the companies read model from the real ticker map.
  const db: ScratchDb = await createScratchDb(settings.databaseUrl, `bench_companies_${tag}`);
  cleanups.push(() => db.drop());
  console.log(`scratch database ${db.name}`);
  const applied = await migrate(db.url);
  console.log(`migrations: ${applied.join(', ') || 'none'}`);
  const records = tickerMapRecords(TICKER_MAP, new Date().toISOString());
  const loaded = await loadCompanies(db.url, records);
  console.log(`ticker map: ${records.length} entries -> ${loaded.rows} active companies rows (${JSON.stringify(loaded.outcomes)})`);

  // An enterprise key made by the api's own keys CLI (its key service and repository).
  const apiKey = await createKey(db.url, pepper);
  const headers = { authorization: `Bearer ${apiKey}` };

  // Limits far above anything 32 connections can reach: no request may be refused.
  const apiEnv = {
    DATABASE_URL: db.url,
    DATABASE_POOL_SIZE: String(settings.poolSize),
    API_KEY_PEPPER: pepper,
    CURSOR_SECRET: cursorSecret,
    LOG_LEVEL: settings.apiLogLevel,
    PLAN_ENTERPRISE_BURST_PER_SECOND: '1000000000',
    PLAN_ENTERPRISE_DAILY_QUOTA: '1000000000',
  };
  const profile = settings.cpuProfDir !== '';
  if (profile) mkdirSync(settings.cpuProfDir, { recursive: true });
  const apiScript = join(DIST, 'apps/api/src/main.js');
  const servers: ServerProcess[] = [];
  const start = async (...args: Parameters<typeof spawnServer>): Promise<ServerProcess> => {
    const s = await spawnServer(...args);
    servers.push(s);
    cleanups.push(() => s.stop());
    return s;
  };
  const apiMem = await start({
    label: 'api',
    script: apiScript,
    env: apiEnv,
    nodeArgs: profile ? ['--cpu-prof', `--cpu-prof-dir=${resolve(settings.cpuProfDir)}`, '-r', join(__dirname, 'exit-on-message.js')] : [],
    ipcExit: profile,
  });
  let apiRedis: ServerProcess | null = null;
  if (settings.redisUrl) {
    const prefix = `bench:${tag}:`;
    cleanups.push(() => deleteRedisKeys(settings.redisUrl, prefix));
    apiRedis = await start({ label: 'api+redis', script: apiScript, env: { ...apiEnv, REDIS_URL: settings.redisUrl, REDIS_KEY_PREFIX: prefix } });
  }
  const raw = await start({
    label: 'raw',
    script: join(__dirname, 'raw-server.js'),
    env: { DATABASE_URL: db.url, DATABASE_POOL_SIZE: String(settings.poolSize) },
  });
  console.log(`servers: ${servers.map((s) => `${s.label} pid ${s.pid} ${s.baseUrl}`).join('; ')}`);
  console.log(`api LOG_LEVEL=${settings.apiLogLevel}; pg pool ${settings.poolSize} on every server`);

  // Same response shape check on both sides before measuring.
  const first = await getPage(apiMem.baseUrl + PAGE, headers);
  const rawFirst = await getPage(raw.baseUrl + PAGE, headers);
  if (first.data.length !== 50 || rawFirst.data.length !== 50 || first.data[0]?.symbol !== rawFirst.data[0]?.symbol) {
    throw new Error('api and raw server disagree on page 1');
  }

  const deep = await deepCursor(apiMem.baseUrl, headers, loaded.rows, 0.9);
  console.log(`deep cursor: after row ${deep.position} of ${loaded.rows} (${((deep.position / loaded.rows) * 100).toFixed(1)}%), next symbol ${deep.nextSymbol}, ${deep.pages} pages walked at limit=500`);
  const deepPath = `${PAGE}&cursor=${encodeURIComponent(deep.cursor)}`;

  const api: Target = { name: 'api (in-memory limiter)', server: apiMem, path: PAGE };
  const apiR: Target | null = apiRedis ? { name: 'api (redis limiter)', server: apiRedis, path: PAGE } : null;
  const rawT: Target = { name: 'raw fastify+pg', server: raw, path: PAGE };
  const deepT: Target = { name: 'api deep page (90%)', server: apiMem, path: deepPath };
  const firstT: Target = { name: 'api page 1', server: apiMem, path: PAGE };

  console.log(`\nwarm-up ${settings.warmupSeconds}s per target, then ${settings.rounds} rounds x ${settings.seconds}s, ${settings.connections} connections\n`);
  for (const t of [api, apiR, rawT, deepT]) if (t) await measure(t, 0, headers, settings.warmupSeconds);

  console.log(row(['target', 'round', 'req/s', 'mean ms', 'p99 ms', 'requests', 'server cpu', 'cpu µs/req', 'client cpu', 'load1']));
  const runs: Run[] = [];
  // Each round reverses the previous one's order (A B, B A, ...): drift (thermal, noisy neighbours,
  // pg cache, the GC state one run leaves to the next) hits both sides alike, and neither side
  // always runs right after the other.
  const ordered = <T>(targets: T[], r: number): T[] => (r % 2 === 1 ? targets : [...targets].reverse());
  // 1. api vs raw.
  for (let r = 1; r <= settings.rounds; r++) {
    for (const t of ordered([api, rawT, apiR, apiR ? rawT : null], r)) {
      if (!t) continue;
      runs.push(await measure(t, r, headers, settings.seconds));
      console.log(runRow(runs[runs.length - 1]!));
    }
  }
  // 2. page 1 vs the deep page.
  for (let r = 1; r <= settings.rounds; r++) {
    for (const t of ordered([firstT, deepT], r)) {
      runs.push(await measure(t, r, headers, settings.seconds));
      console.log(runRow(runs[runs.length - 1]!));
    }
  }

  const m = (name: string) => medians(runs.filter((x) => x.target === name));
  const mApi = m(api.name);
  const mRaw = m(rawT.name);
  const mApiR = apiR ? m(apiR.name) : null;
  const mFirst = m(firstT.name);
  const mDeep = m(deepT.name);

  console.log(`\nMedians over ${settings.rounds} rounds (raw: ${runs.filter((x) => x.target === rawT.name).length} runs)`);
  console.log(row(['target', '', 'req/s', 'mean ms', 'p99 ms', '', 'server cpu', 'cpu µs/req', 'client cpu', 'load1']));
  for (const [name, s] of [[api.name, mApi], [apiR?.name, mApiR], [rawT.name, mRaw], [firstT.name, mFirst], [deepT.name, mDeep]] as const) {
    if (name && s) console.log(row([name, '', s.reqPerSec.toFixed(0), s.meanMs.toFixed(2), s.p99Ms.toFixed(2), '', pct(s.serverCpu), s.cpuPerReqUs.toFixed(0), pct(s.clientCpu), s.load1.toFixed(1)]));
  }

  console.log('\nSummary');
  const ratio = mApi.reqPerSec / mRaw.reqPerSec;
  console.log(verdict(`api/raw req/s, in-memory limiter: ${mApi.reqPerSec.toFixed(0)} / ${mRaw.reqPerSec.toFixed(0)} = ${ratio.toFixed(3)}`, ratio >= RATIO_TARGET, `>= ${RATIO_TARGET}`));
  console.log(`  server CPU per request, api/raw: ${mApi.cpuPerReqUs.toFixed(0)} / ${mRaw.cpuPerReqUs.toFixed(0)} µs = ${(mApi.cpuPerReqUs / mRaw.cpuPerReqUs).toFixed(2)}x (req/s ratio if both were CPU-bound: ${(mRaw.cpuPerReqUs / mApi.cpuPerReqUs).toFixed(3)})`);
  if (mApiR) {
    const ratioR = mApiR.reqPerSec / mRaw.reqPerSec;
    console.log(verdict(`api/raw req/s, redis limiter:     ${mApiR.reqPerSec.toFixed(0)} / ${mRaw.reqPerSec.toFixed(0)} = ${ratioR.toFixed(3)}`, ratioR >= RATIO_TARGET, `>= ${RATIO_TARGET}`));
    console.log(`  server CPU per request, api/raw: ${mApiR.cpuPerReqUs.toFixed(0)} / ${mRaw.cpuPerReqUs.toFixed(0)} µs = ${(mApiR.cpuPerReqUs / mRaw.cpuPerReqUs).toFixed(2)}x`);
  }
  const deepRatio = mDeep.meanMs / mFirst.meanMs;
  const deepP99 = mDeep.p99Ms / mFirst.p99Ms;
  console.log(
    verdict(
      `deep/page-1 mean latency: ${mDeep.meanMs.toFixed(2)} / ${mFirst.meanMs.toFixed(2)} ms = ${deepRatio.toFixed(3)} (p99 ${deepP99.toFixed(3)}; req/s ${mDeep.reqPerSec.toFixed(0)} vs ${mFirst.reqPerSec.toFixed(0)})`,
      deepRatio <= DEEP_TARGET,
      `<= ${DEEP_TARGET}`,
    ),
  );
  const load = runs.map((x) => x.load1);
  console.log(`(${Math.round((Date.now() - t0) / 1000)} s in all; node ${process.version}; ${cpus().length} cores, 1-min load ${Math.min(...load).toFixed(1)}-${Math.max(...load).toFixed(1)} during runs)`);
}

async function measure(t: Target, round: number, headers: Record<string, string>, seconds: number): Promise<Run> {
  const cpu0 = t.server.cpuSeconds();
  const client0 = process.cpuUsage();
  const wall0 = process.hrtime.bigint();
  const result = await autocannon({ url: t.server.baseUrl + t.path, connections: settings.connections, duration: seconds, headers, timeout: 10 });
  const wall = Number(process.hrtime.bigint() - wall0) / 1e9;
  const client = process.cpuUsage(client0);
  const serverCpu = (t.server.cpuSeconds() - cpu0) / wall;
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0) {
    const codes = Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => `${code}: ${s.count}`).join(', ');
    throw new Error(`${t.name}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts (status codes ${codes}); aborting`);
  }
  return {
    target: t.name,
    round,
    reqPerSec: result.requests.total / result.duration,
    meanMs: result.latency.mean,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    serverCpu,
    cpuPerReqUs: ((t.server.cpuSeconds() - cpu0) / result.requests.total) * 1e6,
    clientCpu: (client.user + client.system) / 1e6 / wall,
    load1: loadavg()[0]!,
  };
}

function medians(runs: Run[]): Run {
  const med = (xs: number[]): number => {
    const s = [...xs].sort((a, b) => a - b);
    const mid = Math.floor(s.length / 2);
    return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  };
  const pick = (k: keyof Omit<Run, 'target'>) => med(runs.map((r) => r[k]));
  return {
    target: runs[0]?.target ?? '',
    round: 0,
    reqPerSec: pick('reqPerSec'),
    meanMs: pick('meanMs'),
    p99Ms: pick('p99Ms'),
    requests: pick('requests'),
    serverCpu: pick('serverCpu'),
    cpuPerReqUs: pick('cpuPerReqUs'),
    clientCpu: pick('clientCpu'),
    load1: pick('load1'),
  };
}

const WIDTHS = [26, 6, 9, 9, 9, 10, 11, 9, 11, 6];
function row(cells: string[]): string {
  return cells.map((c, i) => (i === 0 ? c.padEnd(WIDTHS[i]!) : c.padStart(WIDTHS[i]!))).join(' ');
}
const pct = (x: number): string => `${(x * 100).toFixed(0)}%`;
function runRow(r: Run): string {
  return row([r.target, String(r.round), r.reqPerSec.toFixed(0), r.meanMs.toFixed(2), r.p99Ms.toFixed(2), String(r.requests), pct(r.serverCpu), r.cpuPerReqUs.toFixed(0), pct(r.clientCpu), r.load1.toFixed(1)]);
}
function verdict(text: string, met: boolean, target: string): string {
  return `${text}  [target ${target}: ${met ? 'met' : 'NOT met'}]`;
}

interface Page {
  data: { symbol: string }[];
  pagination: { next_cursor: string | null; has_more: boolean };
}

async function getPage(url: string, headers: Record<string, string>): Promise<Page> {
  const res = await fetch(url, { headers });
  if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Page;
}

/** Walks the list through the api at limit=500 until `fraction` of the rows are behind the cursor. */
async function deepCursor(baseUrl: string, headers: Record<string, string>, total: number, fraction: number) {
  let cursor: string | null = null;
  let position = 0;
  let pages = 0;
  while (position < total * fraction) {
    const page = await getPage(`${baseUrl}/v1/companies?limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, headers);
    pages += 1;
    position += page.data.length;
    cursor = page.pagination.next_cursor;
    if (!cursor) throw new Error(`list ended after ${position} rows, before ${fraction * 100}% of ${total}`);
  }
  const next = await getPage(`${baseUrl}${PAGE}&cursor=${encodeURIComponent(cursor!)}`, headers);
  if (next.data.length !== 50) throw new Error(`deep page has ${next.data.length} rows, expected 50`);
  return { cursor: cursor!, position, pages, nextSymbol: next.data[0]!.symbol };
}

async function createKey(databaseUrl: string, pepper: string): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [join(DIST, 'apps/api/src/keys.cli.js'), 'create', '--plan', 'enterprise', '--account', 'bench', '--label', 'bench'], {
    env: { PATH: env.PATH ?? '', DATABASE_URL: databaseUrl, API_KEY_PEPPER: pepper },
  });
  const key = /^secret:\s+(\S+)/m.exec(stdout)?.[1];
  if (!key) throw new Error(`keys CLI printed no secret:\n${stdout}`);
  return key;
}

async function deleteRedisKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

main()
  .catch((err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exitCode = 1;
  })
  .finally(() => cleanup());
