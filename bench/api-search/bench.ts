import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { Pool } from 'pg';
import { runSearchStatement, SEARCH_KINDS, SEARCH_SQL, SEARCH_TRANSACTION_START, searchParams } from '@app/persistence';
import { createScratchDb, migrate, type ScratchDb } from '../api-companies/scratch-db';
import { spawnServer, type ServerProcess } from '../api-companies/servers';
import { seedSearchData } from './seed';
import { cleanup, cleanups, cleanUpOnSignals, positiveNumberEnv } from '../bench-support';

/*
 * `npm run bench:search`: GET /v1/search requests/s at concurrency 16 against the very statement
 * the API runs (SEARCH_SQL with searchParams) run directly: a bare `pg` pool driven by 16
 * workers, and pgbench with 16 clients when it is installed. Side by side, per query, with the
 * ratio. Prints figures; asserts nothing about speed. Aborts when a response is not 2xx or a
 * query does not find what it should. See README.md.
 */

const env = process.env;
const num = positiveNumberEnv;

const settings = {
  databaseUrl: env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
  seconds: num('BENCH_SECONDS', 10),
  rounds: num('BENCH_ROUNDS', 2),
  warmupSeconds: num('BENCH_WARMUP_SECONDS', 5),
  concurrency: num('BENCH_CONCURRENCY', 16),
  poolSize: num('BENCH_POOL_SIZE', 10),
  apiLogLevel: env.BENCH_API_LOG_LEVEL || 'info',
  pgbench: env.BENCH_PGBENCH !== '0',
};

// dist/bench/api-search -> dist; the repository root (examples, sample fixtures) is its parent.
const DIST = resolve(__dirname, '..', '..');
const ROOT = env.BENCH_ROOT ? resolve(env.BENCH_ROOT) : resolve(DIST, '..');
const FIXTURES = env.FIXTURES_DIR ? resolve(env.FIXTURES_DIR) : join(ROOT, 'sample/fixtures');
const PAGE_SIZE = 50;

interface Query {
  name: string;
  q: string;
  /** What the first hit must be: the figures mean nothing if the search misses. */
  first: { kind: string; title: RegExp };
}

const QUERIES: Query[] = [
  { name: 'company name', q: 'microsoft', first: { kind: 'company', title: /^MICROSOFT CORP$/ } },
  { name: 'person', q: 'musk', first: { kind: 'person', title: /^Musk Elon$/ } },
  { name: 'deck phrase', q: 'use their separate publicly traded stock as acquisition currency', first: { kind: 'document_page', title: /Annual Meeting.* — page 7$/ } },
];

interface Figures {
  reqPerSec: number;
  meanMs: number;
  p99Ms: number;
  requests: number;
  load1: number;
}

cleanUpOnSignals();

async function main(): Promise<void> {
  const t0 = Date.now();
  const tag = `${process.pid}_${randomBytes(3).toString('hex')}`;
  const pepper = randomBytes(32).toString('hex');

  const db: ScratchDb = await createScratchDb(settings.databaseUrl, `bench_search_${tag}`);
  cleanups.push(() => db.drop());
  console.log(`scratch database ${db.name}`);
  const applied = await migrate(db.url);
  console.log(`migrations: ${applied.join(', ') || 'none'}`);
  const seedStart = Date.now();
  const counts = await seedSearchData(db.url, { root: ROOT, fixtures: FIXTURES });
  console.log(`seeded in ${((Date.now() - seedStart) / 1000).toFixed(1)} s: ${JSON.stringify(counts)}`);

  const apiKey = await createKey(db.url, pepper);
  const headers = { authorization: `Bearer ${apiKey}` };
  const api = await spawnServer({
    label: 'api',
    script: join(DIST, 'apps/api/src/main.js'),
    env: {
      DATABASE_URL: db.url,
      DATABASE_POOL_SIZE: String(settings.poolSize),
      API_KEY_PEPPER: pepper,
      CURSOR_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: settings.apiLogLevel,
      PLAN_ENTERPRISE_BURST_PER_SECOND: '1000000000',
      PLAN_ENTERPRISE_DAILY_QUOTA: '1000000000',
    },
  });
  cleanups.push(() => api.stop());
  const pool = new Pool({ connectionString: db.url, max: settings.poolSize, application_name: 'bench-search-direct' });
  cleanups.push(() => pool.end());
  const pgbench = settings.pgbench ? pgbenchVersion() : null;
  console.log(`api pid ${api.pid} ${api.baseUrl}, LOG_LEVEL=${settings.apiLogLevel}; pg pool ${settings.poolSize} for the api and the direct client`);
  console.log(pgbench ? `pgbench: ${pgbench}, -M prepared (a named statement per connection, as the api's)` : 'pgbench: not run');

  // The API's own normalization and parameters: the direct runs execute exactly what it executes.
  const targets = QUERIES.map((query) => ({ ...query, path: `/v1/search?q=${encodeURIComponent(query.q)}`, values: searchParams({ q: query.q, kinds: SEARCH_KINDS, limit: PAGE_SIZE + 1 }) }));
  for (const t of targets) {
    const hit = await firstHit(api.baseUrl + t.path, headers);
    if (hit.kind !== t.first.kind || !t.first.title.test(hit.title)) throw new Error(`"${t.q}": first hit ${hit.kind} "${hit.title}", expected ${t.first.kind} ${t.first.title}`);
    const direct = await runSearchStatement<{ kind: string; id: string }>(pool, t.values);
    if (direct[0]?.id !== hit.id) throw new Error(`"${t.q}": the direct query's first row ${direct[0]?.id} is not the api's ${hit.id}`);
    console.log(`"${t.q}": ${direct.length} rows (page of ${PAGE_SIZE} + 1), first ${hit.kind} ${hit.id} "${hit.title}"`);
  }

  const dir = mkdtempSync(join(tmpdir(), 'bench-search-'));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));

  console.log(`\nwarm-up ${settings.warmupSeconds}s per target, then ${settings.rounds} rounds x ${settings.seconds}s, concurrency ${settings.concurrency}\n`);
  for (const t of targets) {
    await measureApi(api, t.path, headers, settings.warmupSeconds);
    await measureDirect(pool, t.values, settings.warmupSeconds);
  }
  console.log(row(['query', 'target', 'round', 'req/s', 'mean ms', 'p99 ms', 'requests', 'load1']));
  const runs: Array<Figures & { query: string; target: string }> = [];
  const record = (query: string, target: string, round: number, f: Figures): void => {
    runs.push({ ...f, query, target });
    console.log(row([query, target, String(round), f.reqPerSec.toFixed(0), f.meanMs.toFixed(2), Number.isNaN(f.p99Ms) ? '-' : f.p99Ms.toFixed(2), String(f.requests), f.load1.toFixed(1)]));
  };
  // Alternating per query and round, so drift (other work on the machine, caches) hits every side alike.
  for (let r = 1; r <= settings.rounds; r++) {
    for (const t of targets) {
      record(t.name, 'api', r, await measureApi(api, t.path, headers, settings.seconds));
      record(t.name, 'pg pool', r, await measureDirect(pool, t.values, settings.seconds));
      if (pgbench) record(t.name, 'pgbench', r, runPgbench(db.url, dir, t.values, settings.seconds));
    }
  }

  console.log(`\nMedians over ${settings.rounds} rounds: requests/s at concurrency ${settings.concurrency}`);
  console.log(row(['query', 'api', 'pg pool', 'api/pg pool', ...(pgbench ? ['pgbench', 'api/pgbench'] : []), 'api mean ms', 'pg mean ms']));
  for (const t of targets) {
    const m = (target: string) => median(runs.filter((x) => x.query === t.name && x.target === target));
    const mApi = m('api');
    const mPg = m('pg pool');
    const mBench = pgbench ? m('pgbench') : null;
    console.log(
      row([
        t.name,
        mApi.reqPerSec.toFixed(0),
        mPg.reqPerSec.toFixed(0),
        (mApi.reqPerSec / mPg.reqPerSec).toFixed(3),
        ...(mBench ? [mBench.reqPerSec.toFixed(0), (mApi.reqPerSec / mBench.reqPerSec).toFixed(3)] : []),
        mApi.meanMs.toFixed(2),
        mPg.meanMs.toFixed(2),
      ]),
    );
  }
  const load = runs.map((x) => x.load1);
  console.log(`(${Math.round((Date.now() - t0) / 1000)} s in all; node ${process.version}; ${cpus().length} cores, 1-min load ${Math.min(...load).toFixed(1)}-${Math.max(...load).toFixed(1)} during runs)`);
}

async function measureApi(api: ServerProcess, path: string, headers: Record<string, string>, seconds: number): Promise<Figures> {
  const result = await autocannon({ url: api.baseUrl + path, connections: settings.concurrency, duration: seconds, headers, timeout: 10 });
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0) throw new Error(`api ${path}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts; aborting`);
  return { reqPerSec: result.requests.total / result.duration, meanMs: result.latency.mean, p99Ms: result.latency.p99, requests: result.requests.total, load1: loadavg()[0]! };
}

/**
 * The statement straight on a pg pool, the way the repository runs it (runSearchStatement: its
 * read-only transaction, prepared, generic plan): `concurrency` workers, each sending the next
 * query when its last one answers.
 */
async function measureDirect(pool: Pool, values: unknown[], seconds: number): Promise<Figures> {
  const latencies: number[] = [];
  const start = performance.now();
  const deadline = start + seconds * 1000;
  const worker = async (): Promise<void> => {
    while (performance.now() < deadline) {
      const t = performance.now();
      await runSearchStatement(pool, values);
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: settings.concurrency }, worker));
  const wall = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    reqPerSec: latencies.length / wall,
    meanMs: latencies.reduce((s, x) => s + x, 0) / latencies.length,
    p99Ms: latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))]!,
    requests: latencies.length,
    load1: loadavg()[0]!,
  };
}

function pgbenchVersion(): string | null {
  const r = spawnSync('pgbench', ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

/**
 * The statement through pgbench, prepared on each of its connections, in the repository's
 * transaction: each $n becomes the variable :pn (a bound parameter), a NULL parameter the literal
 * NULL (pgbench variables cannot be NULL). One pgbench transaction is one search.
 */
function runPgbench(url: string, dir: string, values: unknown[], seconds: number): Figures {
  const defines: string[] = [];
  // Comments out first: pgbench would read `:word` and `$n` in them too.
  const script = SEARCH_SQL.replace(/--[^\n]*/g, '').replace(/\$(\d+)/g, (_, n: string) => {
    const v = values[Number(n) - 1];
    return v === null || v === undefined ? 'NULL' : `:p${n}`;
  });
  values.forEach((v, i) => {
    if (v === null || v === undefined) return;
    const text = Array.isArray(v) ? `{${v.join(',')}}` : typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v);
    defines.push('-D', `p${i + 1}=${text}`);
  });
  const file = join(dir, 'search.sql');
  writeFileSync(file, `${SEARCH_TRANSACTION_START.split('; ').join(';\n')};\n${script.trim()};\nCOMMIT;\n`);
  const u = new URL(url);
  const args = ['-n', '-M', 'prepared', '-c', String(settings.concurrency), '-j', String(Math.min(settings.concurrency, cpus().length)), '-T', String(seconds), '-r', '-f', file, ...defines];
  const r = spawnSync('pgbench', [...args, '-h', u.hostname, '-p', u.port || '5432', '-U', decodeURIComponent(u.username) || 'postgres', u.pathname.slice(1)], {
    encoding: 'utf8',
    env: { ...env, PGPASSWORD: decodeURIComponent(u.password) },
  });
  const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(r.stdout)?.[1];
  const latency = /latency average = ([\d.]+) ms/.exec(r.stdout)?.[1];
  const processed = /number of transactions actually processed: (\d+)/.exec(r.stdout)?.[1];
  const failed = /number of failed transactions: (\d+)/.exec(r.stdout)?.[1];
  if (r.status !== 0 || !tps || (failed !== undefined && failed !== '0')) throw new Error(`pgbench failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return { reqPerSec: Number(tps), meanMs: Number(latency), p99Ms: NaN, requests: Number(processed), load1: loadavg()[0]! };
}

function median(runs: Figures[]): Figures {
  const med = (xs: number[]): number => {
    const s = [...xs].sort((a, b) => a - b);
    const mid = Math.floor(s.length / 2);
    return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  };
  return {
    reqPerSec: med(runs.map((r) => r.reqPerSec)),
    meanMs: med(runs.map((r) => r.meanMs)),
    p99Ms: med(runs.map((r) => r.p99Ms)),
    requests: med(runs.map((r) => r.requests)),
    load1: med(runs.map((r) => r.load1)),
  };
}

const WIDTHS = [14, 12, 12, 12, 10, 12, 12, 12];
function row(cells: string[]): string {
  return cells.map((c, i) => (i === 0 ? c.padEnd(WIDTHS[i] ?? 12) : c.padStart(WIDTHS[i] ?? 12))).join(' ');
}

async function firstHit(url: string, headers: Record<string, string>): Promise<{ kind: string; id: string; title: string }> {
  const res = await fetch(url, { headers });
  if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { data: { kind: string; id: string; title: string }[] };
  const first = body.data[0];
  if (!first) throw new Error(`GET ${url}: no hits`);
  return first;
}

async function createKey(databaseUrl: string, pepper: string): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [join(DIST, 'apps/api/src/keys.cli.js'), 'create', '--plan', 'enterprise', '--account', 'bench', '--label', 'bench'], {
    env: { PATH: env.PATH ?? '', DATABASE_URL: databaseUrl, API_KEY_PEPPER: pepper },
  });
  const key = /^secret:\s+(\S+)/m.exec(stdout)?.[1];
  if (!key) throw new Error(`keys CLI printed no secret:\n${stdout}`);
  return key;
}

main()
  .catch((err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exitCode = 1;
  })
  .finally(() => cleanup());
