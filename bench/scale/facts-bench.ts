import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Client, Pool } from 'pg';
import type { RecordEnvelope, XbrlFactsData } from '@app/contracts';
import {
  columnArrays,
  createDataSource,
  mergedReports,
  projectXbrlFacts,
  upsertColumns,
  XBRL_CONCEPTS_TABLE,
  XBRL_FACT_REPORTS_TABLE,
  xbrlConceptRow,
  XbrlFactsRepository,
  type FactReport,
  type FactsQuery,
} from '@app/persistence';
import { buildStatement, latestReports, LINE_ITEM_CONCEPTS, type BuiltStatement, type StatementKind } from '@app/resources';
import { createScratchDb, migrate } from '../api-companies/scratch-db';
import { cleanups, cpuSecondsOf } from '../bench-support';
import { copyFrom } from '../projector/copy-from';
import { copyValue } from './copy.stream';
import { benchFactsCik, factTemplates, fillFacts, loadedCiks, rekeyed, type FactTemplate } from './facts-scale';
import { explain, poolDataSource, recordingDataSource, type Statement } from './plans';
import { databaseSize, withClient } from './scale-data';

/*
 * The facts part of bench:scale (issue 36): xbrl_fact_reports with >= 50,000,000 rows, the read a
 * statement makes (one company, the ~120 candidate concepts of its three statements, with and
 * without as_of) p50/p99 over random companies and days, EXPLAIN of it; and the bulk loader's
 * rate: projectXbrlFacts on real company-facts records beside a plain COPY of the same rows, and
 * what the real companyfacts.zip would take. See README.md.
 */

export interface FactsBenchSettings {
  databaseUrl: string;
  rows: number;
  /** Parallel COPY streams of the load. */
  streams: number;
  /** Reads per mode (latest, as_of) per round and concurrency. */
  reads: number;
  rounds: number;
  concurrencies: number[];
  poolSize: number;
  /** A bench_scale_facts* database to (re)use: created if missing, loaded only if short of `rows`, kept. */
  database: string | null;
  keep: boolean;
  bulkCompanies: number;
  bulkRounds: number;
  fixtures: string;
}

const P99_TARGET_MS = 100;
/** SEC's companyfacts.zip: about 19,000 companies (an assumption; the zip's entry count moves daily). */
const REAL_COMPANIES = 19_000;
/** The projector's batch as the consumer hands it: CONSUMER_BATCH_MAX_RECORDS and CONSUMER_BATCH_MAX_BYTES defaults. */
const BATCH_RECORDS = 500;
const BATCH_BYTES = 1024 * 1024;
/** as_of days are drawn from this range (the fixtures' filings run 2009-2025). */
const AS_OF_FROM = Date.UTC(2010, 0, 1);
const AS_OF_TO = Date.UTC(2025, 10, 1);

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const WIDTHS = [34, 9, 9, 9, 9, 9, 10, 10, 10, 6];
const row = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(WIDTHS[i]!) : c.padStart(WIDTHS[i]!))).join(' ');
const verdict = (text: string, met: boolean) => `${met ? 'met    ' : 'NOT met'} ${text}`;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const quantile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

/**
 * STATEMENT BUILD HOOK: what the financials route does with the read's reports (apps/api
 * facts.service: each value's latest report as of the day, then the statement), inside every
 * measured read. The statements rotate (income, balance, cash flow; annual), one a read, as one
 * request builds one. The route's concept-label lookup (xbrl_concepts, not loaded here) is left out.
 */
const HOOK_STATEMENTS: readonly StatementKind[] = ['income', 'balance', 'cash_flow'];
let hookCalls = 0;
export function buildStatementHook(reports: readonly FactReport[], asOf: string | undefined): BuiltStatement {
  return buildStatement(latestReports(reports, asOf), HOOK_STATEMENTS[hookCalls++ % HOOK_STATEMENTS.length]!, 'annual');
}

/** A deterministic generator (mulberry32): the same companies and days on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function adminQuery(baseUrl: string, sql: string, values: unknown[] = []): Promise<Array<Record<string, unknown>>> {
  return withClient(baseUrl, async (c) => (await c.query(sql, values)).rows as Array<Record<string, unknown>>);
}

/** The database of the read part: a named one (kept, created if missing) or a fresh scratch one. */
async function factsDatabase(s: FactsBenchSettings, tag: string): Promise<{ name: string; url: string; kept: boolean }> {
  if (s.database) {
    if (!/^bench_scale_facts[a-z0-9_]*$/.test(s.database)) throw new Error(`BENCH_SCALE_FACTS_DATABASE must be a bench_scale_facts* database, not ${s.database}`);
    const exists = (await adminQuery(s.databaseUrl, 'SELECT 1 FROM pg_database WHERE datname = $1', [s.database])).length > 0;
    if (!exists) await adminQuery(s.databaseUrl, `CREATE DATABASE ${s.database}`);
    const url = new URL(s.databaseUrl);
    url.pathname = `/${s.database}`;
    return { name: s.database, url: url.toString(), kept: true };
  }
  const created = await createScratchDb(s.databaseUrl, `bench_scale_facts_${tag}`);
  if (!s.keep) cleanups.push(() => created.drop());
  return { name: created.name, url: created.url, kept: s.keep };
}

/** Rows the table holds (reltuples: exact after the load's VACUUM) and whether its key index exists. */
async function tableState(url: string): Promise<{ rows: number; indexed: boolean }> {
  return withClient(url, async (c) => {
    const rows = Number((await c.query<{ n: string }>(`SELECT greatest(reltuples, 0)::bigint AS n FROM pg_class WHERE relname = 'xbrl_fact_reports'`)).rows[0]?.n ?? 0);
    const indexed = (await c.query(`SELECT 1 FROM pg_indexes WHERE indexname = 'xbrl_fact_reports_key'`)).rowCount === 1;
    return { rows, indexed };
  });
}

interface ReadRun {
  latencies: number[];
  rows: number;
  seconds: number;
  /** CPU seconds over the run: the pool's Postgres backends, and this process (the repository's row parsing and mapping, the hook). */
  pgCpu: number;
  nodeCpu: number;
}

/** CPU seconds of the backends serving the pool (application_name bench-scale-facts), from /proc. */
async function poolBackendsCpu(pg: Client): Promise<number> {
  const { rows } = await pg.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'bench-scale-facts'`);
  return rows.reduce((sum, r) => sum + (cpuSecondsOf(r.pid) ?? Number.NaN), 0);
}

/** `reads` statement reads at `concurrency`, each for a random company (and day, with as_of); latency as the caller sees it (pool waits included). */
async function runReads(repo: XbrlFactsRepository, pg: Client, ciks: readonly string[], withAsOf: boolean, reads: number, concurrency: number, next: () => number): Promise<ReadRun> {
  const picks = Array.from({ length: reads }, () => {
    const cik = ciks[Math.floor(next() * ciks.length)]!;
    const asOf = withAsOf ? new Date(AS_OF_FROM + Math.floor(next() * ((AS_OF_TO - AS_OF_FROM) / 86_400_000)) * 86_400_000).toISOString().slice(0, 10) : undefined;
    return { cik, asOf };
  });
  const latencies: number[] = [];
  let rows = 0;
  let at = 0;
  const pg0 = await poolBackendsCpu(pg);
  const node0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (at < picks.length) {
        const p = picks[at++]!;
        const q: FactsQuery = { cik: p.cik, concepts: LINE_ITEM_CONCEPTS, ...(p.asOf ? { asOf: p.asOf } : {}) };
        const t = performance.now();
        const reports = await repo.reports(q);
        buildStatementHook(reports, p.asOf);
        latencies.push(performance.now() - t);
        rows += reports.length;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const node = process.cpuUsage(node0);
  return { latencies, rows, seconds, pgCpu: (await poolBackendsCpu(pg)) - pg0, nodeCpu: (node.user + node.system) / 1e6 };
}

export async function factsReadPart(s: FactsBenchSettings, tag: string): Promise<void> {
  const db = await factsDatabase(s, tag);
  console.log(`\n== facts: database ${db.name}${s.database ? ' (BENCH_SCALE_FACTS_DATABASE: reused, loaded only if short, kept)' : db.kept ? ' (BENCH_SCALE_KEEP: kept at the end)' : ''}`);
  await migrate(db.url);
  const templates = factTemplates(s.fixtures);
  for (const t of templates) {
    const candidates = new Set(LINE_ITEM_CONCEPTS);
    const statementRows = t.rows.filter((r) => candidates.has(r.concept)).length;
    console.log(`  template ${t.file}: ${int(t.records.length)} records (concepts), ${int(t.rows.length)} report rows, ${int(new Set(t.rows.map((r) => `${r.concept}|${r.unit}|${r.period_start}|${r.period_end}`)).size)} values; ${int(statementRows)} rows of the ${LINE_ITEM_CONCEPTS.length} statement concepts (LINE_ITEM_CONCEPTS)`);
  }
  const before = await tableState(db.url);
  // reltuples is VACUUM's estimate (within a fraction of a percent of the count): 1 % of slack, so a kept database is not reloaded over it.
  if (before.indexed && before.rows >= s.rows * 0.99) {
    console.log(`xbrl_fact_reports already holds ~${int(before.rows)} rows with its key index: load skipped`);
  } else {
    console.log(`xbrl_fact_reports holds ${int(before.rows)} rows${before.indexed ? '' : ' (no key index)'}: loading ${int(s.rows)}`);
    const t = performance.now();
    const loaded = await fillFacts(db.url, templates, s.rows, s.streams, (l) => console.log(`${l} (load1 ${loadavg()[0]!.toFixed(1)})`));
    const seconds = (performance.now() - t) / 1000;
    const copy = loaded.phases[0]!;
    console.log(`loaded in ${seconds.toFixed(0)} s: ${int(loaded.rows)} rows over ${int(loaded.companies)} companies; COPY ${int(loaded.rows / copy.seconds)} rows/s; with the index build and VACUUM ANALYZE ${int(loaded.rows / seconds)} rows/s`);
  }
  if (db.kept) console.log(`kept database: ${db.name} (drop it with DROP DATABASE ${db.name})`);
  const sizes = await withClient(db.url, async (c) =>
    (await c.query<{ t: string; i: string }>(`SELECT pg_size_pretty(pg_table_size('xbrl_fact_reports')) AS t, pg_size_pretty(pg_indexes_size('xbrl_fact_reports')) AS i`)).rows[0]!,
  );
  console.log(`database size: ${await databaseSize(db.url)} (xbrl_fact_reports ${sizes.t}, its key index ${sizes.i})`);
  const ciks = await loadedCiks(db.url);
  const state = await tableState(db.url);
  console.log(`~${int(state.rows)} rows (reltuples) over ${int(ciks.length)} companies (~${int(state.rows / ciks.length)} a company)`);

  const pg = new Client({ connectionString: db.url, application_name: 'bench-scale-facts-explain' });
  await pg.connect();
  cleanups.push(() => pg.end());
  // idleTimeoutMillis 0: the pool keeps its backends, so their CPU is read from the same processes throughout.
  const pool = new Pool({ connectionString: db.url, max: s.poolSize, idleTimeoutMillis: 0, application_name: 'bench-scale-facts' });
  cleanups.push(() => pool.end());
  const repo = new XbrlFactsRepository(poolDataSource(pool));
  console.log(
    `\n== facts: the statement's read, XbrlFactsRepository.reports({ cik, concepts: LINE_ITEM_CONCEPTS (${LINE_ITEM_CONCEPTS.length}), asOf? }) + the statement build for a random company (and a random day ${new Date(AS_OF_FROM).toISOString().slice(0, 10)}..${new Date(AS_OF_TO).toISOString().slice(0, 10)}); ${s.reads} reads per mode, round and concurrency, ${s.rounds} rounds, latest and as_of alternating first; pool of ${s.poolSize}; statement build hook: ${buildStatementHook.name} (latestReports + buildStatement, income/balance/cash_flow in turn, annual)`,
  );
  console.log(row(['mode / concurrency / round', 'reads/s', 'p50 ms', 'p99 ms', 'mean ms', 'max ms', 'rows/read', 'pg cpu ms', 'node cpu ms', 'load1']));
  const next = random(36);
  const all = new Map<string, { latencies: number[]; p99s: number[]; pgCpu: number; nodeCpu: number }>();
  // A short warm-up of the pool and the plan cache (not counted).
  await runReads(repo, pg, ciks, true, 20, 1, next);
  for (const concurrency of s.concurrencies) {
    for (let round = 1; round <= s.rounds; round += 1) {
      for (const withAsOf of round % 2 === 1 ? [false, true] : [true, false]) {
        const r = await runReads(repo, pg, ciks, withAsOf, s.reads, concurrency, next);
        const sorted = [...r.latencies].sort((a, b) => a - b);
        const key = `${withAsOf ? 'as_of' : 'latest'} c=${concurrency}`;
        const acc = all.get(key) ?? { latencies: [], p99s: [], pgCpu: 0, nodeCpu: 0 };
        acc.latencies.push(...r.latencies);
        acc.p99s.push(quantile(sorted, 0.99));
        acc.pgCpu += r.pgCpu;
        acc.nodeCpu += r.nodeCpu;
        all.set(key, acc);
        const mean = r.latencies.reduce((a, b) => a + b, 0) / r.latencies.length;
        console.log(row([`${key} #${round}`, (s.reads / r.seconds).toFixed(0), quantile(sorted, 0.5).toFixed(1), quantile(sorted, 0.99).toFixed(1), mean.toFixed(1), sorted.at(-1)!.toFixed(1), int(r.rows / s.reads), ((r.pgCpu * 1000) / s.reads).toFixed(1), ((r.nodeCpu * 1000) / s.reads).toFixed(1), loadavg()[0]!.toFixed(1)]));
      }
    }
  }
  console.log(`\n== facts: statement read p50 / p99 over all rounds' reads (target: as_of p99 < ${P99_TARGET_MS} ms)`);
  for (const [key, acc] of all) {
    const sorted = [...acc.latencies].sort((a, b) => a - b);
    const p99 = quantile(sorted, 0.99);
    console.log(`  ${verdict(`${key}: ${int(sorted.length)} reads, p50 ${quantile(sorted, 0.5).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms (rounds' p99: ${acc.p99s.map((x) => x.toFixed(1)).join(', ')}; median ${median(acc.p99s).toFixed(1)}); CPU per read: Postgres ${((acc.pgCpu * 1000) / sorted.length).toFixed(1)} ms + node ${((acc.nodeCpu * 1000) / sorted.length).toFixed(1)} ms`, p99 < P99_TARGET_MS)}`);
  }

  const statementOf = async (q: FactsQuery): Promise<Statement> => {
    const out: Statement[] = [];
    await new XbrlFactsRepository(recordingDataSource(out)).reports(q);
    return out[0]!;
  };
  console.log(`\n== facts: EXPLAIN (ANALYZE, BUFFERS) of the statement's read for ${ciks[0]} (an ${templates[0]!.file.split('-')[0]} copy, the largest history), custom and generic plan`);
  for (const asOf of [undefined, '2020-06-30']) {
    const st = await statementOf({ cik: ciks[0]!, concepts: LINE_ITEM_CONCEPTS, ...(asOf ? { asOf } : {}) });
    for (const generic of [false, true]) {
      const plan = await explain(pg, st, generic);
      console.log(`\n${asOf ? `as_of ${asOf}` : 'latest'}, ${generic ? 'generic' : 'custom'} plan: ${plan.ms.toFixed(2)} ms; seq scans: ${plan.seqScans.join(', ') || 'none'}; indexes: ${plan.indexes.join(', ') || 'none'}; sorts: ${plan.sorts}`);
      for (const l of plan.lines) console.log(`  ${l}`);
    }
  }
  console.log(`\ndatabase size at the end: ${await databaseSize(db.url)}`);
}

/** Records in the batches the projector's consumer hands over: at most 500 records and 1 MiB of message bytes. */
function consumerBatches(records: ReadonlyArray<RecordEnvelope<XbrlFactsData>>): Array<Array<RecordEnvelope<XbrlFactsData>>> {
  const batches: Array<Array<RecordEnvelope<XbrlFactsData>>> = [];
  let batch: Array<RecordEnvelope<XbrlFactsData>> = [];
  let bytes = 0;
  for (const r of records) {
    const size = Buffer.byteLength(JSON.stringify(r));
    if (batch.length > 0 && (batch.length >= BATCH_RECORDS || bytes + size > BATCH_BYTES)) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(r);
    bytes += size;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

const REPORT_COLUMNS = upsertColumns(XBRL_FACT_REPORTS_TABLE);
const CONCEPT_COLUMNS = upsertColumns(XBRL_CONCEPTS_TABLE);
const REPORT_NAMES = REPORT_COLUMNS.map(([n]) => n);
const CONCEPT_NAMES = CONCEPT_COLUMNS.map(([n]) => n);
const copyText = (rows: ReadonlyArray<Record<string, unknown>>, columns: readonly string[]) => rows.map((r) => columns.map((c) => copyValue(r[c])).join('\t')).join('\n') + '\n';

interface LoaderRun {
  seconds: number;
  nodeCpu: number;
  backendCpu: number;
}

export async function factsLoaderPart(s: FactsBenchSettings, tag: string): Promise<void> {
  console.log(`\n== facts: the bulk loader's rate, projectXbrlFacts vs a plain COPY of the same rows`);
  const db = await createScratchDb(s.databaseUrl, `bench_scale_factsbulk_${tag}`);
  cleanups.push(() => db.drop());
  await migrate(db.url);
  const templates = factTemplates(s.fixtures);
  const ds = createDataSource({ url: db.url, poolSize: 1, applicationName: 'bench-scale-facts-projector' });
  await ds.initialize();
  cleanups.push(() => ds.destroy());
  const pg = new Client({ connectionString: db.url, application_name: 'bench-scale-facts-copy' });
  await pg.connect();
  cleanups.push(() => pg.end());
  const projectorPid = Number((await ds.query<Array<{ pid: number }>>('SELECT pg_backend_pid() AS pid'))[0]!.pid);
  const copyPid = (await pg.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;

  // The same companies each round and method: template c mod 4 under bench CIK c, in company order (a partition's offset order).
  const companies = Array.from({ length: s.bulkCompanies }, (_, c) => ({ cik: benchFactsCik(c), template: templates[c % templates.length]! }));
  const records = companies.flatMap((c) => rekeyed(c.template.records, c.cik));
  const batches = consumerBatches(records);
  const reportRows = companies.reduce((n, c) => n + c.template.rows.length, 0);
  const facts = records.reduce((n, r) => n + r.data.facts.length, 0);
  // COPY's input, built outside its timing: the projection's own rows (merged per batch as the projector merges them).
  const copyBatches = batches.map((b) => ({ concepts: b.map(xbrlConceptRow), reports: mergedReports(b) }));
  const copiedRows = copyBatches.reduce((n, b) => n + b.reports.length, 0);
  if (copiedRows !== reportRows) throw new Error(`COPY rows ${copiedRows} != the templates' ${reportRows}`);
  console.log(
    `${int(s.bulkCompanies)} companies (the 4 fixture files re-keyed in turn): ${int(records.length)} records, ${int(facts)} facts, ${int(reportRows)} report rows, in ${int(batches.length)} consumer batches (<= ${BATCH_RECORDS} records, <= 1 MiB); both into the migrated, emptied tables (key index in place), one transaction per batch; ${s.bulkRounds} rounds, order alternating`,
  );

  // The projector's pure part alone (rows, merge per key, the concepts' hash, parameter arrays): what it costs before Postgres.
  {
    const t = performance.now();
    for (const b of batches) {
      columnArrays(b.map(xbrlConceptRow), CONCEPT_COLUMNS);
      columnArrays(mergedReports(b), REPORT_COLUMNS);
    }
    console.log(`projector's pure part (xbrlConceptRow + hash, mergedReports, columnArrays), no database: ${((performance.now() - t) / 1000).toFixed(2)} s`);
  }

  const truncate = () => pg.query('TRUNCATE xbrl_fact_reports, xbrl_concepts');
  const timedRun = async (fn: () => Promise<void>, pid: number): Promise<LoaderRun> => {
    await truncate();
    await pg.query('VACUUM ANALYZE xbrl_fact_reports, xbrl_concepts');
    const cpu0 = process.cpuUsage();
    const b0 = cpuSecondsOf(pid) ?? Number.NaN;
    const t = performance.now();
    await fn();
    const seconds = (performance.now() - t) / 1000;
    const cpu = process.cpuUsage(cpu0);
    return { seconds, nodeCpu: (cpu.user + cpu.system) / 1e6, backendCpu: (cpuSecondsOf(pid) ?? Number.NaN) - b0 };
  };
  const project = () =>
    timedRun(async () => {
      for (const b of batches) await ds.transaction((m) => projectXbrlFacts(m, b));
    }, projectorPid);
  const copy = () =>
    timedRun(async () => {
      for (const b of copyBatches) {
        await pg.query('BEGIN');
        await copyFrom(pg, `COPY xbrl_concepts (${CONCEPT_NAMES.join(', ')}) FROM STDIN`, copyText(b.concepts, CONCEPT_NAMES));
        await copyFrom(pg, `COPY xbrl_fact_reports (${REPORT_NAMES.join(', ')}) FROM STDIN`, copyText(b.reports, REPORT_NAMES));
        await pg.query('COMMIT');
      }
    }, copyPid);

  const runs = { projector: [] as LoaderRun[], copy: [] as LoaderRun[] };
  console.log(row(['method / round', 'rows/s', 'records/s', 'wall s', 'node cpu', 'pg cpu', 'µs cpu/row', 'load1']));
  for (let round = 1; round <= s.bulkRounds; round += 1) {
    for (const method of round % 2 === 1 ? (['projector', 'copy'] as const) : (['copy', 'projector'] as const)) {
      const r = method === 'projector' ? await project() : await copy();
      runs[method].push(r);
      const stored = Number((await pg.query<{ n: string }>('SELECT count(*) AS n FROM xbrl_fact_reports')).rows[0]!.n);
      if (stored !== reportRows) throw new Error(`${method}: ${stored} rows stored, not ${reportRows}`);
      console.log(row([`${method === 'projector' ? 'projectXbrlFacts' : 'COPY'} #${round}`, int(reportRows / r.seconds), int(records.length / r.seconds), r.seconds.toFixed(1), r.nodeCpu.toFixed(1), r.backendCpu.toFixed(1), (((r.nodeCpu + r.backendCpu) * 1e6) / reportRows).toFixed(1), loadavg()[0]!.toFixed(1)]));
    }
  }
  const rate = (xs: LoaderRun[]) => median(xs.map((r) => reportRows / r.seconds));
  const ratios = runs.projector.map((p, i) => runs.copy[i]!.seconds / p.seconds);
  const projectorRate = rate(runs.projector);
  const copyRate = rate(runs.copy);
  const cpuPerRow = (xs: LoaderRun[], side: 'nodeCpu' | 'backendCpu') => median(xs.map((r) => (r[side] * 1e6) / reportRows));
  console.log(
    `projectXbrlFacts: ${int(projectorRate)} rows/s, ${int(median(runs.projector.map((r) => records.length / r.seconds)))} records/s (median); COPY: ${int(copyRate)} rows/s; projector/COPY ${median(ratios).toFixed(3)} [${ratios.map((x) => x.toFixed(2)).join(', ')}]`,
  );
  console.log(
    `CPU per row (median): projectXbrlFacts node ${cpuPerRow(runs.projector, 'nodeCpu').toFixed(1)} µs + Postgres backend ${cpuPerRow(runs.projector, 'backendCpu').toFixed(1)} µs; COPY node ${cpuPerRow(runs.copy, 'nodeCpu').toFixed(1)} µs + backend ${cpuPerRow(runs.copy, 'backendCpu').toFixed(1)} µs`,
  );
  projectOntoRealZip(templates, projectorRate, copyRate);
}

/** What the real companyfacts.zip would take at these rates: an estimate, from the fixture files' sizes. */
function projectOntoRealZip(templates: readonly FactTemplate[], projectorRate: number, copyRate: number): void {
  const rowsPerCompany = templates.reduce((n, t) => n + t.rows.length, 0) / templates.length;
  const recordsPerCompany = templates.reduce((n, t) => n + t.records.length, 0) / templates.length;
  const minutes = (rows: number, perS: number) => (rows / perS / 60).toFixed(0);
  for (const [label, perCompany] of [
    [`the fixtures' mean (${int(rowsPerCompany)} rows, ${int(recordsPerCompany)} records a company: large filers, an upper estimate)`, rowsPerCompany],
    ['5,000 rows a company (a guess at the typical filer, most are small)', 5_000],
  ] as const) {
    const rows = REAL_COMPANIES * perCompany;
    console.log(`companyfacts.zip ESTIMATE, ~${int(REAL_COMPANIES)} companies x ${label}: ~${int(rows)} rows: ${minutes(rows, projectorRate)} min through projectXbrlFacts, ${minutes(rows, copyRate)} min by COPY (the projector's database side only: unzip, parse and Kafka not included)`);
  }
}
