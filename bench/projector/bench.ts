import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { namespacedTopic, TOPICS, type TopicDefinition } from '@app/contracts';
import { consumerLag, ensureTopics, RecordProducer, type KafkaSettings } from '@app/messaging';
import { runMigrations } from '@app/persistence';
import { cleanup, cleanups, cleanUpOnSignals, positiveNumberEnv } from '../bench-support';
import { anyRowSql, copyTables, loadOrder, rowCounts, tableHash, tablesOf } from './copy-baseline';
import { BenchRecords, fixturesDir, type TopicKey } from './records.generator';
import { deleteNamespacedTopics } from './topics-cleanup';

/*
 * `npm run bench:projector`: replay speed of the projector against COPY of the same rows.
 * 1. BENCH_RECORDS records (default 1,000,000) made from the real fixtures by the ingestors'
 *    parsers and mappers (records.generator.ts) are produced once to fresh namespaced topics.
 * 2. The built projector (dist/apps/projector/src/main.js) runs as a child process with a fresh
 *    group into a fresh migrated database until the group's lag is 0; its peak RSS is read from
 *    /proc/<pid>/status (VmHWM).
 * 3. The rows it wrote are copied with COPY into a second fresh migrated database (loads timed).
 * 4. Checks (exit 1 when one fails): per table, same row count and content hash in both
 *    databases; row counts the generator expects. Speed is printed, not asserted.
 * See README.md.
 */

const env = process.env;
const num = positiveNumberEnv;

const settings = {
  databaseUrl: env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
  brokers: (env.KAFKA_BROKERS || '127.0.0.1:9092').split(','),
  records: Math.floor(num('BENCH_RECORDS', 1_000_000)),
  form4Share: env.BENCH_FORM4_SHARE === '0' ? 0 : num('BENCH_FORM4_SHARE', 0.02),
  chunk: Math.floor(num('BENCH_CHUNK', 5_000)),
  timeoutMs: num('BENCH_TIMEOUT_S', 3_600) * 1000,
  keepTopics: env.BENCH_KEEP_TOPICS === '1',
};

const ROOT = process.cwd();
const DIST = resolve(__dirname, '..', '..');
const PRODUCED: Record<TopicKey, TopicDefinition> = { companies: TOPICS.companies, fundHoldings: TOPICS.fundHoldings, form4: TOPICS.form4, filings: TOPICS.filings };
/** The projector's own knobs pass through to the child (batch sizes, pool size, consumer settings). */
const PASSTHROUGH = /^(PROJECTOR_|CONSUMER_|KAFKA_CONSUMER_|DATABASE_POOL|NODE_OPTIONS$)/;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const int = (n: number) => Math.round(n).toLocaleString('en-US');
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Records in groups of at most `max` bytes of JSON (a record larger than that alone). */
function bySize<T>(records: T[], max: number): T[][] {
  const out: T[][] = [];
  let group: T[] = [];
  let bytes = 0;
  for (const r of records) {
    const n = Buffer.byteLength(JSON.stringify(r));
    if (group.length && bytes + n > max) {
      out.push(group);
      group = [];
      bytes = 0;
    }
    group.push(r);
    bytes += n;
  }
  if (group.length) out.push(group);
  return out;
}

/**
 * Writes out the server's dirty buffers before a timed phase, so neither the replay nor the COPY
 * loads pay for the other's writes (a checkpoint of the replay's WAL used to fall into the loads).
 */
async function checkpoint(url: string): Promise<void> {
  await withClient(url, (c) => c.query('CHECKPOINT'));
}

async function withClient<T>(url: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: url, application_name: 'bench-projector' });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** A fresh migrated database on the server of DATABASE_URL, dropped at clean-up. */
async function scratchDatabase(label: string): Promise<string> {
  const name = `bench_projector_${label}_${process.pid}_${randomBytes(3).toString('hex')}`;
  await withClient(settings.databaseUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  cleanups.push(() => withClient(settings.databaseUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined));
  const url = new URL(settings.databaseUrl);
  url.pathname = `/${name}`;
  await runMigrations({ url: url.toString(), applicationName: 'bench-projector-migrate' });
  return url.toString();
}

/** Peak and current resident set of a process, in MiB (null once it is gone). */
function memoryOf(pid: number): { hwm: number; rss: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { hwm: kb('VmHWM') / 1024, rss: kb('VmRSS') / 1024 };
  } catch {
    return null;
  }
}

/** User + system CPU seconds a process has used (null once it is gone, or when /proc is not readable). */
function cpuSecondsOf(pid: number): number | null {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th, in clock ticks (100 a second on Linux).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

interface Projector {
  child: ChildProcess;
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

/** The built projector in its own process, as deployed; its output is prefixed and passed on. */
function spawnProjector(childEnv: Record<string, string>): Projector {
  const script = join(DIST, 'apps', 'projector', 'src', 'main.js');
  if (!existsSync(script)) throw new Error(`${script} not found: build first (npm run build)`);
  const child = spawn(process.execPath, [script], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [child.stdout, child.stderr]) stream?.on('data', (c: Buffer) => process.stderr.write(c.toString().replace(/^(?=.)/gm, '[projector] ')));
  const exited = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));
  let stopping: Promise<void> | undefined;
  return {
    child,
    exited,
    stop() {
      stopping ??= (async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(killer);
      })();
      return stopping;
    },
  };
}

async function main(): Promise<number> {
  cleanUpOnSignals();
  const namespace = `bench${randomBytes(4).toString('hex')}`;
  const kafka: KafkaSettings = { brokers: settings.brokers, clientId: 'bench-projector', logLevel: 'warn' };
  const topics = Object.fromEntries(Object.entries(PRODUCED).map(([k, t]) => [k, namespacedTopic(t, namespace)])) as Record<TopicKey, TopicDefinition>;

  // 1. Records from the fixtures.
  const dir = fixturesDir(ROOT);
  let t = performance.now();
  const gen = new BenchRecords(dir, settings.records, settings.form4Share);
  const expected = gen.expected();
  console.log(`projector bench: ${int(expected.records)} records from ${dir} (${cpus().length} cores)`);
  console.log(`  plan: ${int(gen.plan.companies)} company@1, ${int(gen.plan.fundHoldingsRecords)} fund-holdings@1 (${int(gen.fundHoldingRows)} holdings), ${int(gen.plan.form4)} form4@1 (${int(expected.form4Rows)} rows), ${int(gen.plan.filings)} filing@1; fixtures parsed in ${secs(performance.now() - t)}`);

  const replayUrl = await scratchDatabase('replay');
  const copyUrl = await scratchDatabase('copy');
  const tables = await withClient(replayUrl, tablesOf);
  const baseline = await withClient(replayUrl, (c) => rowCounts(c, tables.values()));
  const readModels = [...tables.values()].filter((x) => baseline.get(x.name) === 0);

  // 2. Produce once.
  if (!settings.keepTopics) cleanups.push(() => deleteNamespacedTopics(kafka, namespace));
  await ensureTopics(kafka, Object.values(topics));
  const producer = new RecordProducer(kafka);
  await producer.connect();
  cleanups.push(() => producer.disconnect());
  t = performance.now();
  let produced = 0;
  let pending: Promise<void> = Promise.resolve();
  // The next chunk is made while the previous one is sent.
  for (const chunk of gen.chunks(settings.chunk)) {
    // Filings are small (500 a send stay under the broker's 1 MiB batch); Form 4s and holdings go in sends of at most ~900 KB.
    for (const part of chunk.topic === 'filings' ? [chunk.records] : bySize(chunk.records, 900_000)) {
      await pending;
      pending = producer.publish(topics[chunk.topic], part);
    }
    produced += chunk.records.length;
  }
  await pending;
  await producer.disconnect();
  const produceMs = performance.now() - t;
  console.log(`  produced ${int(produced)} records to ${namespace}.* in ${secs(produceMs)} (${int(produced / (produceMs / 1000))} records/s, validated)`);

  // 3. Replay: a fresh group into the fresh database, until its lag is 0.
  const groupId = `projector-${namespace}`;
  const childEnv: Record<string, string> = { PATH: env.PATH ?? '', LOG_LEVEL: 'warn' };
  for (const [k, v] of Object.entries(env)) if (PASSTHROUGH.test(k) && v !== undefined) childEnv[k] = v;
  Object.assign(childEnv, { DATABASE_URL: replayUrl, KAFKA_BROKERS: settings.brokers.join(','), KAFKA_TOPIC_NAMESPACE: namespace, PROJECTOR_GROUP_ID: groupId });
  const anyRow = anyRowSql(readModels.map((x) => x.name));
  const pg = new Client({ connectionString: replayUrl, application_name: 'bench-projector-watch' });
  await pg.connect();
  cleanups.push(() => pg.end());

  await checkpoint(replayUrl);
  const started = performance.now();
  const projector = spawnProjector(childEnv);
  cleanups.push(() => projector.stop());
  const pid = projector.child.pid!;
  let exitCode: number | null | undefined;
  void projector.exited.then((c) => (exitCode = c));
  let peak = memoryOf(pid);
  let firstRow: number | null = null;
  let lastLagCheck = 0;
  let lagInterval = 250;
  let lag = Number.NaN;
  const deadline = Date.now() + settings.timeoutMs;
  let nextProgress = Date.now() + 10_000;
  for (;;) {
    if (exitCode !== undefined) throw new Error(`the projector exited (code ${exitCode}) before its lag reached 0`);
    if (Date.now() > deadline) throw new Error(`lag still ${lag} after BENCH_TIMEOUT_S`);
    const m = memoryOf(pid);
    if (m && peak && m.hwm > peak.hwm) peak = m;
    if (firstRow === null) {
      const { rows } = await pg.query<{ any: boolean }>(anyRow);
      if (rows[0]!.any) firstRow = performance.now();
    }
    // Each lag check is a new admin connection: at most every 2 s while far from done, every 250 ms in the last seconds.
    if (firstRow !== null && performance.now() - lastLagCheck >= lagInterval) {
      const now = performance.now();
      const previous = lag;
      lag = (await consumerLag(kafka, groupId, Object.values(topics))).reduce((s, p) => s + p.lag, 0);
      if (lag === 0) break;
      const perMs = Number.isNaN(previous) || previous <= lag ? 0 : (previous - lag) / (now - lastLagCheck);
      lagInterval = perMs > 0 ? Math.min(2_000, Math.max(250, lag / perMs / 4)) : 250;
      lastLagCheck = now;
    }
    if (Date.now() > nextProgress) {
      nextProgress = Date.now() + 10_000;
      console.log(`  ... lag ${Number.isNaN(lag) ? '?' : int(lag)}, projector RSS ${m ? m.rss.toFixed(0) : '?'} MiB, ${secs(performance.now() - started)}`);
    }
    await sleep(firstRow === null ? 50 : 100);
  }
  const done = performance.now();
  const replayStarted = firstRow ?? started;
  const final = memoryOf(pid);
  // Where the replay's CPU went: the projector process, and the Postgres backends of its pool (they live as long as it does).
  const projectorCpu = cpuSecondsOf(pid);
  const backends = (await pg.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`)).rows;
  const backendCpu = backends.reduce((sum, b) => sum + (cpuSecondsOf(b.pid) ?? 0), 0);
  if (final && (!peak || final.hwm > peak.hwm)) peak = final;
  await projector.stop();

  const counts = await rowCounts(pg, readModels);
  const written = [...counts].filter(([, n]) => n > 0);
  const rowsTotal = written.reduce((s, [, n]) => s + n, 0);
  const replayMs = done - replayStarted;
  const wallMs = done - started;

  // 4. COPY of exactly those rows into the second database.
  const copied = loadOrder(written.map(([name]) => tables.get(name)!));
  const tmp = mkdtempSync(join(tmpdir(), 'bench-projector-'));
  cleanups.push(async () => rmSync(tmp, { recursive: true, force: true }));
  const loads = await copyTables(replayUrl, copyUrl, copied, counts, tmp);
  rmSync(tmp, { recursive: true, force: true });
  const copyMs = loads.reduce((s, l) => s + l.ms, 0);

  // 5. Checks.
  const failures: string[] = [];
  const hashes = new Map<string, { replay: string; copy: string }>();
  await withClient(copyUrl, async (copyPg) => {
    for (const table of copied) {
      const a = await tableHash(pg, table);
      const b = await tableHash(copyPg, table);
      hashes.set(table.name, { replay: a.hash, copy: b.hash });
      if (a.rows !== b.rows) failures.push(`${table.name}: ${a.rows} rows in the replay, ${b.rows} after COPY`);
      if (a.hash !== b.hash) failures.push(`${table.name}: content hash ${a.hash} in the replay, ${b.hash} after COPY`);
    }
  });
  const want: Array<[string, number]> = [
    ['companies', expected.companies],
    ['filings', expected.filings],
    ['form4_filings', expected.form4Filings],
    ['insider_transactions', expected.form4Rows],
    ['funds', expected.funds],
    ['fund_holdings', expected.fundHoldings],
  ];
  for (const [table, n] of want) {
    if (n < 0) continue;
    const got = counts.get(table) ?? 0;
    if (got !== n) failures.push(`${table}: ${got} rows, the generator made ${n}`);
  }

  // Figures.
  const rate = (n: number, ms: number) => n / (ms / 1000);
  console.log(`\nreplay (fresh group, fresh database; timed from the first row written to lag 0, projector start in brackets)`);
  console.log(`  records       ${int(expected.records).padStart(11)}   ${secs(replayMs)} (${secs(wallMs)})`);
  console.log(`  records/s     ${int(rate(expected.records, replayMs)).padStart(11)}   (${int(rate(expected.records, wallMs))} from projector start)`);
  console.log(`  rows written  ${int(rowsTotal).padStart(11)}   ${written.map(([n, c]) => `${n} ${int(c)}`).join(', ')}`);
  console.log(`  rows/s        ${int(rate(rowsTotal, replayMs)).padStart(11)}   (${int(rate(rowsTotal, wallMs))} from projector start)`);
  console.log(`  projector peak RSS (VmHWM) ${peak ? peak.hwm.toFixed(0) : '?'} MiB`);
  const share = (cpu: number) => `${cpu.toFixed(0)} s (${((cpu / (wallMs / 1000)) * 100).toFixed(0)} % of a core)`;
  console.log(`  CPU from projector start to lag 0: projector ${projectorCpu === null ? '?' : share(projectorCpu)}, its ${backends.length} Postgres backends ${share(backendCpu)}`);
  console.log(`\nCOPY of the same rows into a second migrated database (same schema and indexes; loads only)`);
  for (const l of loads) console.log(`  ${l.table.padEnd(22)} ${int(l.rows).padStart(11)} rows  ${secs(l.ms).padStart(8)}  ${int(rate(l.rows, l.ms)).padStart(9)} rows/s`);
  console.log(`  ${'total'.padEnd(22)} ${int(rowsTotal).padStart(11)} rows  ${secs(copyMs).padStart(8)}  ${int(rate(rowsTotal, copyMs)).padStart(9)} rows/s`);
  const ratio = rate(rowsTotal, replayMs) / rate(rowsTotal, copyMs);
  console.log(`\nratio replay rows/s / COPY rows/s: ${ratio.toFixed(2)}x (target >= 0.5x: ${ratio >= 0.5 ? 'met' : 'NOT met'}); from projector start ${(rate(rowsTotal, wallMs) / rate(rowsTotal, copyMs)).toFixed(2)}x`);
  console.log(`\nchecks: per-table row count and content hash, replay vs COPY; row counts vs the generator`);
  for (const table of copied) console.log(`  ${table.name.padEnd(22)} ${hashes.get(table.name)!.replay}${hashes.get(table.name)!.replay === hashes.get(table.name)!.copy ? ' =' : ' != ' + hashes.get(table.name)!.copy}`);
  if (failures.length) {
    console.error(`\nFAILED:\n  ${failures.join('\n  ')}`);
    return 1;
  }
  console.log('  all equal');
  return 0;
}

main().then(
  async (code) => {
    await cleanup();
    process.exit(code);
  },
  async (err: unknown) => {
    console.error(err instanceof Error ? err.stack : err);
    await cleanup();
    process.exit(1);
  },
);
