import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { namespacedTopic, TOPICS, type TopicDefinition } from '@app/contracts';
import { consumerLag, ensureTopics, RecordProducer, type KafkaSettings } from '@app/messaging';
import { runMigrations } from '@app/persistence';
import { backendCpuSeconds, cleanup, cleanups, cleanUpOnSignals, cpuSecondsOf, localBrokerPid, memoryOf, positiveNumberEnv, projectorEnv, spawnProjector } from '../bench-support';
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
  const childEnv = projectorEnv({ DATABASE_URL: replayUrl, KAFKA_BROKERS: settings.brokers.join(','), KAFKA_TOPIC_NAMESPACE: namespace, PROJECTOR_GROUP_ID: groupId });
  const anyRow = anyRowSql(readModels.map((x) => x.name));
  const pg = new Client({ connectionString: replayUrl, application_name: 'bench-projector-watch' });
  await pg.connect();
  cleanups.push(() => pg.end());

  await checkpoint(replayUrl);
  // The broker serves the replay's fetches on the same cores: its CPU counts when it is the project's local one.
  const brokerPid = localBrokerPid(settings.brokers[0]!);
  const brokerCpuAtStart = brokerPid === null ? null : cpuSecondsOf(brokerPid);
  const started = performance.now();
  const projector = spawnProjector(join(DIST, 'apps', 'projector', 'src', 'main.js'), childEnv);
  cleanups.push(() => projector.stop());
  const pid = projector.pid;
  let exitCode: number | null | undefined;
  void projector.exited.then((c) => (exitCode = c));
  let peak = memoryOf(pid);
  let firstRow: number | null = null;
  // Projector + backends + broker CPU seconds so far (the broker's since it started): the ceiling counts from the first row, as the ratio does.
  const replayCpu = async (): Promise<number | null> => {
    const projectorSeconds = cpuSecondsOf(pid);
    if (projectorSeconds === null) return null;
    const brokerSeconds = brokerPid === null ? 0 : (cpuSecondsOf(brokerPid) ?? 0);
    return projectorSeconds + (await backendCpuSeconds(pg)).seconds + brokerSeconds;
  };
  let cpuAtFirstRow: number | null = null;
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
      if (rows[0]!.any) {
        firstRow = performance.now();
        cpuAtFirstRow = await replayCpu();
      }
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
  const backends = await backendCpuSeconds(pg);
  const backendCpu = backends.seconds;
  const brokerCpuAtEnd = brokerPid === null ? null : cpuSecondsOf(brokerPid);
  const brokerCpu = brokerCpuAtStart === null || brokerCpuAtEnd === null ? null : brokerCpuAtEnd - brokerCpuAtStart;
  const cpuAtLagZero = await replayCpu();
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
  console.log(
    `  CPU from projector start to lag 0: projector ${projectorCpu === null ? '?' : share(projectorCpu)}, its ${backends.backends} Postgres backends ${share(backendCpu)}, Kafka broker ${brokerCpu === null ? 'not measured (not the local one)' : share(brokerCpu)}`,
  );
  console.log(`\nCOPY of the same rows into a second migrated database (same schema and indexes; loads only)`);
  for (const l of loads) console.log(`  ${l.table.padEnd(22)} ${int(l.rows).padStart(11)} rows  ${secs(l.ms).padStart(8)}  ${int(rate(l.rows, l.ms)).padStart(9)} rows/s`);
  console.log(`  ${'total'.padEnd(22)} ${int(rowsTotal).padStart(11)} rows  ${secs(copyMs).padStart(8)}  ${int(rate(rowsTotal, copyMs)).padStart(9)} rows/s`);
  const ratio = rate(rowsTotal, replayMs) / rate(rowsTotal, copyMs);
  console.log(`\nratio replay rows/s / COPY rows/s: ${ratio.toFixed(2)}x (target >= 0.8x, issue 39: ${ratio >= 0.8 ? 'met' : 'NOT met'}); from projector start ${(rate(rowsTotal, wallMs) / rate(rowsTotal, copyMs)).toFixed(2)}x`);
  if (cpuAtFirstRow !== null && cpuAtLagZero !== null) {
    // COPY keeps one backend busy (its load time is its CPU, at most); the replay's processes share the machine's cores.
    const spent = cpuAtLagZero - cpuAtFirstRow;
    const cores = cpus().length;
    console.log(
      `  ceiling at this CPU cost: from the first row to lag 0 the replay spends ${((spent * 1e6) / rowsTotal).toFixed(0)} µs of CPU a row (projector, backends${brokerCpu === null ? '' : ', broker'}) against COPY's ${((copyMs * 1e3) / rowsTotal).toFixed(0)} µs of load time; with all ${cores} cores busy it would reach ${((copyMs / 1000) * cores / spent).toFixed(2)}x`,
    );
  }
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
