import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { Client } from 'pg';
import { namespacedTopic, TOPICS } from '@app/contracts';
import { consumerLag, ensureTopics, type KafkaSettings } from '@app/messaging';
import {
  FilingsRepository,
  FundExposureRepository,
  InsiderTransactionsRepository,
  SEARCH_KINDS,
  SEARCH_SQL,
  searchParams,
  type KeyPart,
} from '@app/persistence';
import { freePort } from '@app/testing';
// The bench signs its deep cursors with the api's own codec (it knows the CURSOR_SECRET it gave the api).
// eslint-disable-next-line no-restricted-imports
import { CursorCodec, filterHash } from '../../apps/api/src/platform/cursor.codec';
import { createScratchDb, migrate } from '../api-companies/scratch-db';
import { spawnServer, waitReady, type ServerProcess } from '../api-companies/servers';
import {
  backendCpuSeconds,
  cleanup,
  cleanups,
  cleanUpOnSignals,
  cpuSecondsOf,
  memoryOf,
  positiveNumberEnv,
  projectorEnv,
  spawnProjector,
} from '../bench-support';
import { rowCounts, tablesOf } from '../projector/copy-baseline';
import { fixturesDir } from '../projector/records.generator';
import { deleteNamespacedTopics } from '../projector/topics-cleanup';
import { factsLoaderPart, factsReadPart, type FactsBenchSettings } from './facts-bench';
import { explain, listVerdict, recordingDataSource, type Statement } from './plans';
import { databaseSize, fillScaleDatabase, readScaleCounts, type ScaleCounts } from './scale-data';
import { generateSubmissionsZip } from './submissions-zip.generator';
import { thirteenFBulkPart, thirteenFHoldersPart, type ThirteenFBenchSettings } from './thirteenf-bench';

/*
 * `npm run bench:scale`: the read side at EDGAR's volume (issue 15). A scratch database with
 * millions of filings, insider-transaction rows and fund holdings (scale-data.ts); the five list
 * endpoints at page 1 and 90 % deep, api vs a bare Fastify + pg server running the same
 * statements; EXPLAIN of each list statement with a PASS/FAIL on its plan; then the bulk
 * backfill's records/s over a generated submissions.zip. Prints figures and verdicts; fails only
 * when something could not run. See README.md.
 */

const env = process.env;
const num = positiveNumberEnv;
const int = (n: number) => Math.round(n).toLocaleString('en-US');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const settings = {
  databaseUrl: env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
  brokers: (env.KAFKA_BROKERS || '127.0.0.1:9092').split(','),
  filings: Math.floor(num('BENCH_SCALE_FILINGS', 10_000_000)),
  insiderRows: Math.floor(num('BENCH_SCALE_INSIDER_ROWS', 2_000_000)),
  fundHoldings: Math.floor(num('BENCH_SCALE_FUND_HOLDINGS', 5_000_000)),
  funds: Math.floor(num('BENCH_SCALE_FUNDS', 5_000)),
  bulkEntities: Math.floor(num('BENCH_SCALE_BULK_ENTITIES', 200_000)),
  symbol: (env.BENCH_SCALE_SYMBOL || 'MSFT:US').toUpperCase(),
  searchQ: env.BENCH_SCALE_SEARCH_Q || 'microsoft',
  parts: new Set((env.BENCH_SCALE_PARTS || 'api,bulk,13f,13f-bulk,facts,facts-bulk').split(',').map((s) => s.trim())),
  // Many short rounds rather than a few long ones: the machine's speed drifts over seconds, and
  // interleaving finely puts the same drift on both sides (the median of 9 ratios, not of 3).
  seconds: num('BENCH_SECONDS', 3),
  rounds: Math.floor(num('BENCH_SCALE_ROUNDS', 9)),
  warmupSeconds: num('BENCH_WARMUP_SECONDS', 3),
  connections: num('BENCH_CONNECTIONS', 32),
  poolSize: num('BENCH_POOL_SIZE', 10),
  limit: Math.floor(num('BENCH_SCALE_LIMIT', 50)),
  deep: num('BENCH_SCALE_DEEP', 0.9),
  apiLogLevel: env.BENCH_API_LOG_LEVEL || 'info',
  /** Node.js flags of the api process only (GC settings, say); raw keeps the defaults. */
  apiNodeArgs: (env.BENCH_API_NODE_ARGS || '').split(/\s+/).filter(Boolean),
  /** Endpoints to measure by name (filings, company-filings, insiders, fund-exposure, search); all when unset. */
  endpoints: env.BENCH_SCALE_ENDPOINTS ? new Set(env.BENCH_SCALE_ENDPOINTS.split(',').map((s) => s.trim())) : null,
  /** An already-loaded scratch database to measure (not created, loaded or dropped). */
  database: env.BENCH_SCALE_DATABASE || null,
  /** Keep the database this run creates (its name is printed). */
  keep: env.BENCH_SCALE_KEEP === '1',
};

/** The 13F part: its own database (BENCH_SCALE_PARTS=13f runs it alone). */
const thirteenF: ThirteenFBenchSettings = {
  databaseUrl: settings.databaseUrl,
  brokers: settings.brokers,
  symbol: settings.symbol,
  positions: Math.floor(num('BENCH_SCALE_13F_POSITIONS', 12_000_000)),
  managers: Math.floor(num('BENCH_SCALE_13F_MANAGERS', 8_000)),
  holders: Math.floor(num('BENCH_SCALE_13F_HOLDERS', 5_000)),
  datasetRows: Math.floor(num('BENCH_SCALE_13F_DATASET_ROWS', 300_000)),
  limit: settings.limit,
  deep: settings.deep,
  rounds: Math.floor(num('BENCH_SCALE_13F_ROUNDS', 5)),
  seconds: settings.seconds,
  connections: settings.connections,
  poolSize: settings.poolSize,
  database: env.BENCH_SCALE_13F_DATABASE || null,
  keep: settings.keep,
};

/** The facts part: its own database (BENCH_SCALE_PARTS=facts,facts-bulk runs it alone). */
const facts: FactsBenchSettings = {
  databaseUrl: settings.databaseUrl,
  rows: Math.floor(num('BENCH_SCALE_FACTS_ROWS', 50_000_000)),
  streams: Math.floor(num('BENCH_SCALE_FACTS_STREAMS', 2)),
  reads: Math.floor(num('BENCH_SCALE_FACTS_READS', 500)),
  rounds: Math.floor(num('BENCH_SCALE_FACTS_ROUNDS', 3)),
  concurrencies: (env.BENCH_SCALE_FACTS_CONCURRENCY || '1,10').split(',').map((x) => Math.max(1, Math.floor(Number(x)))),
  poolSize: settings.poolSize,
  database: env.BENCH_SCALE_FACTS_DATABASE || null,
  keep: settings.keep,
  bulkCompanies: Math.floor(num('BENCH_SCALE_FACTS_BULK_COMPANIES', 40)),
  bulkRounds: Math.floor(num('BENCH_SCALE_FACTS_BULK_ROUNDS', 3)),
  fixtures: fixturesDir(resolve(__dirname, '..', '..', '..')),
};

/** A database an earlier run loaded and kept: only bench_scale_* names, so a real database is never measured (or migrated) by mistake. */
function existingDb(baseUrl: string, name: string): { name: string; url: string } {
  if (!/^bench_scale_[a-z0-9_]+$/.test(name)) throw new Error(`BENCH_SCALE_DATABASE must be a bench_scale_* database, not ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

const ROOT = resolve(__dirname, '..', '..', '..');
const DIST = join(ROOT, 'dist');
const RATIO_TARGET = 0.85;
const DEEP_TARGET = 1.2;
const EXPOSURE_P99_TARGET_MS = 100;

interface Run {
  reqPerSec: number;
  p50: number;
  p99: number;
  mean: number;
  requests: number;
  bad: number;
  /** The server process's CPU (user + system) per request served, in µs. */
  cpuPerRequestUs: number;
  load1: number;
}

/** The runs of one page, api and raw, round by round (index i of each is round i + 1). */
interface Pairs {
  api: Run[];
  raw: Run[];
}

/** One list endpoint: its api path, how its deep page is reached on either side, its statement and index. */
interface Endpoint {
  name: string;
  path: string;
  apiDeepPath: string;
  rawDeepPath: string;
  deepNote: string;
  /** The repository statements of page 1 and of the deep page, and the index a list must be served from (null: search). */
  statements: { first: Statement[]; deep: Statement[] };
  index: string | null;
}

cleanUpOnSignals();

async function main(): Promise<void> {
  const t0 = Date.now();
  const tag = `${process.pid}_${randomBytes(3).toString('hex')}`;
  console.log(`scale bench: ${cpus().length} cores, node ${process.version}; load1 ${loadavg()[0]!.toFixed(1)} at start`);
  console.log(`sizes: ${int(settings.filings)} filings, ${int(settings.insiderRows)} insider rows, ${int(settings.fundHoldings)} fund holdings over ${int(settings.funds)} funds; bulk ${int(settings.bulkEntities)} entity files; 13F ${int(thirteenF.positions)} positions over ${int(thirteenF.managers)} managers (${int(thirteenF.holders)} holding ${settings.symbol}), data set ${int(thirteenF.datasetRows)} rows; parts: ${[...settings.parts].join(',')}`);
  console.log((await promisify(execFile)('df', ['-h', '/work'])).stdout.trim());

  if (settings.parts.has('api')) await apiPart(tag);
  if (settings.parts.has('bulk')) await bulkPart(tag);
  if (settings.parts.has('13f')) await thirteenFHoldersPart(thirteenF, ROOT, tag);
  if (settings.parts.has('13f-bulk')) await thirteenFBulkPart(thirteenF, ROOT, tag, runChild);
  if (settings.parts.has('facts')) await factsReadPart(facts, tag);
  if (settings.parts.has('facts-bulk')) await factsLoaderPart(facts, tag);
  console.log(`\n(${Math.round((Date.now() - t0) / 1000)} s in all)`);
}

async function apiPart(tag: string): Promise<void> {
  let db: { name: string; url: string };
  if (settings.database) {
    db = existingDb(settings.databaseUrl, settings.database);
  } else {
    const created = await createScratchDb(settings.databaseUrl, `bench_scale_${tag}`);
    if (!settings.keep) cleanups.push(() => created.drop());
    db = created;
  }
  console.log(`\n== database ${db.name}${settings.database ? ' (BENCH_SCALE_DATABASE: already loaded, kept)' : settings.keep ? ' (BENCH_SCALE_KEEP: kept at the end)' : ''}`);
  // A kept database gets the migrations added since it was loaded (new indexes included).
  await migrate(db.url);
  const t = Date.now();
  const counts = settings.database
    ? await readScaleCounts(db.url, settings.symbol)
    : await fillScaleDatabase(db.url, ROOT, settings, settings.symbol, (line) => console.log(line));
  console.log(
    `${settings.database ? 'counted' : 'loaded'} in ${Math.round((Date.now() - t) / 1000)} s: ${int(counts.companies)} companies, ${int(counts.filings)} filings, ${int(counts.form4Filings)} Form 4 filings with ${int(counts.insiderRows)} insider rows, ${int(counts.funds)} funds with ${int(counts.fundHoldings)} holdings (${settings.symbol} = CIK ${counts.exposureCik} held by each)`,
  );
  const short = (['filings', 'insiderRows', 'fundHoldings'] as const).filter((k) => counts[k] < settings[k]).map((k) => `${k} ${int(counts[k])} < ${int(settings[k])}`);
  console.log(short.length ? `sizes: SHORT of what was asked: ${short.join(', ')}` : 'sizes: at least what was asked');
  if (settings.keep && !settings.database) console.log(`kept database: ${db.name} (measure it again with BENCH_SCALE_DATABASE=${db.name}; drop it with DROP DATABASE ${db.name})`);
  console.log(`database size: ${await databaseSize(db.url)}`);

  const pepper = randomBytes(32).toString('hex');
  const cursorSecret = randomBytes(32).toString('hex');
  const apiKey = await createKey(db.url, pepper);
  const headers = { authorization: `Bearer ${apiKey.key}` };
  const start = async (...args: Parameters<typeof spawnServer>): Promise<ServerProcess> => {
    const s = await spawnServer(...args);
    cleanups.push(() => s.stop());
    return s;
  };
  const api = await start({
    label: 'api',
    script: join(DIST, 'apps/api/src/main.js'),
    nodeArgs: settings.apiNodeArgs,
    env: {
      DATABASE_URL: db.url,
      DATABASE_POOL_SIZE: String(settings.poolSize),
      API_KEY_PEPPER: pepper,
      CURSOR_SECRET: cursorSecret,
      LOG_LEVEL: settings.apiLogLevel,
      PLAN_ENTERPRISE_BURST_PER_SECOND: '1000000000',
      PLAN_ENTERPRISE_DAILY_QUOTA: '1000000000',
    },
  });
  const raw = await start({ label: 'raw', script: join(__dirname, 'raw-server.js'), env: { DATABASE_URL: db.url, DATABASE_POOL_SIZE: String(settings.poolSize) } });
  console.log(`servers: api pid ${api.pid}, raw pid ${raw.pid}; pg pool ${settings.poolSize} each; api LOG_LEVEL=${settings.apiLogLevel}${settings.apiNodeArgs.length ? `, api node flags ${settings.apiNodeArgs.join(' ')}` : ''}`);

  const pg = new Client({ connectionString: db.url, application_name: 'bench-scale' });
  await pg.connect();
  cleanups.push(() => pg.end());
  const codec = new CursorCodec(cursorSecret);
  const all = await buildEndpoints(pg, api, headers, apiKey.accountId, codec, counts);
  const unknown = [...(settings.endpoints ?? [])].filter((n) => !all.some((e) => e.name === n));
  if (unknown.length) throw new Error(`BENCH_SCALE_ENDPOINTS: unknown ${unknown.join(', ')} (endpoints: ${all.map((e) => e.name).join(', ')})`);
  const endpoints = all.filter((e) => !settings.endpoints || settings.endpoints.has(e.name));

  // Both sides must serve the same rows, page 1 and deep, before anything is measured.
  for (const e of endpoints) {
    for (const [apiPath, rawPath] of [[e.path, e.path], [e.apiDeepPath, e.rawDeepPath]] as const) {
      const a = await getJson(api.baseUrl + apiPath, headers);
      const r = await getJson(raw.baseUrl + rawPath, headers);
      if (a.data.length === 0 || rowId(a.data[0]) !== rowId(r.data[0]) || a.data.length !== r.data.length) {
        throw new Error(`${e.name}: api and raw disagree on ${apiPath} (api ${a.data.length} rows from ${rowId(a.data[0])}, raw ${r.data.length} from ${rowId(r.data[0])})`);
      }
    }
    console.log(`  ${e.name}: deep page ${e.deepNote}; api and raw agree on page 1 and the deep page`);
  }

  console.log(
    `\n== throughput: ${settings.connections} connections; per endpoint, ${settings.rounds} rounds of page 1 and the deep page, each on api and raw back to back (orders alternating), ${settings.seconds} s each; ${settings.warmupSeconds} s warm-up of each server and page before an endpoint's first round; limit=${settings.limit}`,
  );
  console.log(row(['endpoint / run', 'req/s', 'p50 ms', 'p99 ms', 'mean ms', 'requests', 'non-2xx', 'cpu µs/req', 'load1']));
  const results = new Map<string, Record<'p1' | 'deep', Pairs>>();
  for (const e of endpoints) {
    const runs = { p1: { api: e.path, raw: e.path }, deep: { api: e.apiDeepPath, raw: e.rawDeepPath } };
    const servers = { api, raw };
    for (const page of ['p1', 'deep'] as const) for (const label of ['api', 'raw'] as const) await measure(servers[label], runs[page][label], headers, settings.warmupSeconds);
    const out: Record<'p1' | 'deep', Pairs> = { p1: { api: [], raw: [] }, deep: { api: [], raw: [] } };
    for (let round = 1; round <= settings.rounds; round++) {
      // Both pages and both sides in every round, the order alternating, so a drift in the machine's
      // speed (a checkpoint, a neighbour's job) falls on api and raw, and on page 1 and the deep
      // page, alike: each ratio is taken within a round.
      const pages = round % 2 === 1 ? (['p1', 'deep'] as const) : (['deep', 'p1'] as const);
      for (const page of pages) {
        for (const label of round % 2 === 1 ? (['api', 'raw'] as const) : (['raw', 'api'] as const)) {
          const r = await measure(servers[label], runs[page][label], headers, settings.seconds);
          out[page][label].push(r);
          console.log(row([`${e.name} ${label} ${page} #${round}`, r.reqPerSec.toFixed(0), r.p50.toFixed(1), r.p99.toFixed(1), r.mean.toFixed(2), String(r.requests), String(r.bad), r.cpuPerRequestUs.toFixed(0), r.load1.toFixed(1)]));
        }
      }
    }
    results.set(e.name, out);
  }

  console.log(
    `\n== ratios (targets: api/raw >= ${RATIO_TARGET}, deep/page-1 latency <= ${DEEP_TARGET}, fund-exposure p99 < ${EXPOSURE_P99_TARGET_MS} ms); api/raw is the median of the rounds' ratios, each round's in brackets`,
  );
  for (const e of endpoints) {
    const r = results.get(e.name)!;
    const depthsOf = (side: keyof Pairs): number[] => r.deep[side].map((d, i) => d.mean / r.p1[side][i]!.mean);
    const depths = depthsOf('api');
    const depth = median(depths);
    const depthRaw = median(depthsOf('raw'));
    console.log(`${e.name}`);
    for (const [page, p] of [['page 1', r.p1], ['deep  ', r.deep]] as const) {
      const ratios = p.api.map((a, i) => a.reqPerSec / p.raw[i]!.reqPerSec);
      const ratio = median(ratios);
      const apiCpu = median(p.api.map((x) => x.cpuPerRequestUs));
      const rawCpu = median(p.raw.map((x) => x.cpuPerRequestUs));
      console.log(
        `  ${verdict(`api/raw req/s ${page}: ${ratio.toFixed(3)} [${ratios.map((x) => x.toFixed(3)).join(', ')}]; server CPU per request, api/raw: ${apiCpu.toFixed(0)} / ${rawCpu.toFixed(0)} µs = ${(apiCpu / rawCpu).toFixed(2)}`, ratio >= RATIO_TARGET)}`,
      );
    }
    console.log(`  ${verdict(`deep/page-1 mean latency, median of the rounds' ratios, api: ${depth.toFixed(3)} [${depths.map((x) => x.toFixed(3)).join(', ')}] (raw ${depthRaw.toFixed(3)})`, depth <= DEEP_TARGET)}`);
    if (e.name === 'fund-exposure') {
      const p99s = [...r.p1.api, ...r.deep.api].map((x) => x.p99);
      console.log(`  ${verdict(`fund-exposure p99, api, worst of ${p99s.length} runs: ${Math.max(...p99s).toFixed(1)} ms (page 1 ${r.p1.api.map((x) => x.p99.toFixed(0)).join(', ')}; deep ${r.deep.api.map((x) => x.p99.toFixed(0)).join(', ')})`, Math.max(...p99s) < EXPOSURE_P99_TARGET_MS)}`);
    }
    const bad = [...r.p1.api, ...r.p1.raw, ...r.deep.api, ...r.deep.raw].reduce((n, x) => n + x.bad, 0);
    if (bad) console.log(`  ${bad} responses were not 2xx: these figures are not comparable`);
  }

  console.log('\n== EXPLAIN (ANALYZE, BUFFERS) of each list statement, as the repositories issue it');
  // The read models the bench leaves empty or nearly (documents, rosters): a seq scan of those reads nothing.
  const small = new Set(
    (await pg.query<{ t: string }>(`SELECT relname AS t FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = 'r' AND reltuples < 1000`)).rows.map((r) => r.t),
  );
  for (const e of endpoints) {
    for (const [which, statements] of [['page 1', e.statements.first], ['deep', e.statements.deep]] as const) {
      for (const s of statements) {
        const custom = await explain(pg, s, false);
        const generic = await explain(pg, s, true);
        const head = s.text.replace(/\s+/g, ' ').trim().slice(0, 110);
        console.log(`\n${e.name}, ${which}: ${head}...`);
        for (const l of custom.lines) console.log(`  ${l}`);
        // The fund count (one row of company_fund_counts) is not a list; every other statement of an endpoint with an index is.
        const isList = e.index !== null && !/\bcompany_fund_counts\b/.test(s.text);
        for (const [mode, p] of [['custom plan', custom], ['generic plan', generic]] as const) {
          if (isList) {
            const v = listVerdict(p, e.index!);
            console.log(`  ${v.pass ? 'PASS' : 'FAIL'} ${mode} (${p.ms.toFixed(2)} ms): ${v.why}`);
          } else {
            // Search ranks a capped candidate set (sorts by design) and the fund count reads one row: no seq scan of a loaded table is the rule there.
            const big = [...new Set(p.seqScans.filter((t) => !small.has(t)))];
            const tiny = [...new Set(p.seqScans.filter((t) => small.has(t)))];
            const scans = big.length ? `seq scan on ${big.join(', ')}` : `no seq scan of a loaded table${tiny.length ? ` (seq scans of near-empty ${tiny.join(', ')} only)` : ''}`;
            console.log(`  ${big.length ? 'FAIL' : 'PASS'} ${mode} (${p.ms.toFixed(2)} ms): ${scans}; ${p.sorts} sort node(s) (ranking/aggregation: not an index-ordered list); indexes ${p.indexes.join(', ') || 'none'}`);
          }
        }
      }
    }
  }
  console.log(`\ndatabase size at the end: ${await databaseSize(db.url)}`);
}

/** The five endpoints, with their deep pages: a keyset at `deep` of the rows, signed as the api signs cursors. */
async function buildEndpoints(pg: Client, api: ServerProcess, headers: Record<string, string>, accountId: string, codec: CursorCodec, counts: ScaleCounts): Promise<Endpoint[]> {
  const limit = settings.limit;
  const sym = encodeURIComponent(settings.symbol);
  const cik = counts.exposureCik;
  const captured = (fn: (ds: ReturnType<typeof recordingDataSource>) => Promise<unknown>): Promise<Statement[]> => {
    const out: Statement[] = [];
    return fn(recordingDataSource(out)).then(() => out);
  };
  /**
   * A deep cursor for the api, bound as the api binds it: the bench's account, the list's name and
   * the filters its controller normalizes the request to (if they drift, the api answers 422 and
   * the check of the deep pages below says so).
   */
  const cursorAt = (list: string, filters: Record<string, unknown>, k: KeyPart[]): string => codec.encode({ k, d: 'desc' }, { account: accountId, f: filterHash(list, filters) });
  const symbol = settings.symbol.toUpperCase();
  const position = async (sql: string, params: unknown[]): Promise<{ total: number; offset: number }> => {
    const total = Number((await pg.query<{ n: string }>(`SELECT count(*) AS n FROM (${sql}) x`, params)).rows[0]!.n);
    return { total, offset: Math.max(0, Math.floor(total * settings.deep) - 1) };
  };
  const deepNote = (p: { total: number; offset: number }) => `after row ${int(p.offset + 1)} of ${int(p.total)}`;
  const out: Endpoint[] = [];

  // Filings, all and one company's: keyset (filed_date, accession) desc.
  for (const company of [false, true]) {
    const where = company ? 'WHERE cik = $1' : '';
    const params = company ? [cik] : [];
    const order = `SELECT to_char(filed_date, 'YYYY-MM-DD') AS d, accession FROM filings ${where} ORDER BY filed_date DESC, accession DESC`;
    const p = await position(order, params);
    const k = (await pg.query<{ d: string; accession: string }>(`${order} OFFSET ${p.offset} LIMIT 1`, params)).rows[0]!;
    const after = [k.d, k.accession];
    const path = company ? `/v1/companies/${sym}/filings?limit=${limit}` : `/v1/filings?limit=${limit}`;
    const filter = company ? { ciks: [cik] } : {};
    out.push({
      name: company ? 'company-filings' : 'filings',
      path,
      apiDeepPath: `${path}&cursor=${encodeURIComponent(cursorAt(company ? `company-filings:${symbol}` : 'filings', filter, after))}`,
      rawDeepPath: `${path}&after=${encodeURIComponent(JSON.stringify(after))}`,
      deepNote: deepNote(p),
      statements: {
        first: await captured((ds) => new FilingsRepository(ds).list(filter, { direction: 'desc', limit })),
        deep: await captured((ds) => new FilingsRepository(ds).list(filter, { direction: 'desc', limit, after })),
      },
      index: company ? 'filings_cik_filed_date_accession_idx' : 'filings_filed_date_accession_idx',
    });
  }

  // Insiders: keyset (sort_date, accession, row_table, sequence) desc, superseded rows left out.
  {
    const order = `SELECT to_char(sort_date, 'YYYY-MM-DD') AS d, accession, row_table, sequence FROM insider_transactions
      WHERE cik = $1 AND superseded_by IS NULL ORDER BY sort_date DESC, accession DESC, row_table DESC, sequence DESC`;
    const p = await position(order, [cik]);
    const k = (await pg.query<{ d: string; accession: string; row_table: string; sequence: number }>(`${order} OFFSET ${p.offset} LIMIT 1`, [cik])).rows[0]!;
    const after = [k.d, k.accession, k.row_table, k.sequence];
    const path = `/v1/companies/${sym}/insiders?limit=${limit}`;
    const filter = { cik, includeSuperseded: false };
    out.push({
      name: 'insiders',
      path,
      apiDeepPath: `${path}&cursor=${encodeURIComponent(cursorAt(`company-insiders:${symbol}`, filter, after))}`,
      rawDeepPath: `${path}&after=${encodeURIComponent(JSON.stringify(after))}`,
      deepNote: deepNote(p),
      statements: {
        first: await captured((ds) => new InsiderTransactionsRepository(ds).list(filter, { direction: 'desc', limit })),
        deep: await captured((ds) => new InsiderTransactionsRepository(ds).list(filter, { direction: 'desc', limit, after })),
      },
      index: 'insider_transactions_keyset_idx',
    });
  }

  // Fund exposure: keyset (pct_val, accession, holding_index) desc over current equity holdings.
  {
    const order = `SELECT h.pct_val::text AS v, h.accession, h.holding_index AS i FROM fund_holdings h JOIN funds f ON f.fund_key = h.fund_key
      WHERE h.match_cik = $1 AND h.is_current AND h.asset_cat = 'EC' AND h.pct_val IS NOT NULL ORDER BY h.pct_val DESC, h.accession DESC, h.holding_index DESC`;
    const p = await position(order, [cik]);
    const k = (await pg.query<{ v: string; accession: string; i: number }>(`${order} OFFSET ${p.offset} LIMIT 1`, [cik])).rows[0]!;
    const after = [k.v, k.accession, k.i];
    const path = `/v1/companies/${sym}/fund-exposure?limit=${limit}`;
    const list = (ds: ReturnType<typeof recordingDataSource>, withAfter: boolean) => {
      const repo = new FundExposureRepository(ds);
      return Promise.all([repo.list({ cik, sort: 'weight', etfsOnly: false }, { direction: 'desc', limit, ...(withAfter ? { after } : {}) }), repo.countFunds(cik, false)]);
    };
    out.push({
      name: 'fund-exposure',
      path,
      apiDeepPath: `${path}&cursor=${encodeURIComponent(cursorAt('fund-exposure', { symbol, sort: 'weight', etfs_only: false }, after))}`,
      rawDeepPath: `${path}&after=${encodeURIComponent(JSON.stringify(after))}`,
      deepNote: deepNote(p),
      statements: { first: await captured((ds) => list(ds, false)), deep: await captured((ds) => list(ds, true)) },
      index: 'fund_holdings_exposure_weight_idx',
    });
  }

  // Search: a ranking, not a table order; its deep page is reached by following the api's cursors.
  {
    const path = `/v1/search?q=${encodeURIComponent(settings.searchQ)}&limit=${limit}`;
    const pages: Array<{ cursor: string | null; rows: number }> = [];
    let cursor: string | null = null;
    let total = 0;
    const hits: Array<{ score: number; kind: string; id: string }> = [];
    do {
      const page = await getJson(`${api.baseUrl}${path}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, headers);
      pages.push({ cursor, rows: page.data.length });
      for (const h of page.data) hits.push(h as { score: number; kind: string; id: string });
      total += page.data.length;
      cursor = page.pagination.next_cursor;
    } while (cursor);
    const target = Math.floor(total * settings.deep);
    let seen = 0;
    let deepPage = 0;
    while (deepPage < pages.length - 1 && seen + pages[deepPage]!.rows <= target) seen += pages[deepPage++]!.rows;
    const deepCursor = pages[deepPage]!.cursor;
    const last = seen > 0 ? hits[seen - 1]! : null;
    const after = last ? { score: last.score, kind: last.kind, id: last.id } : undefined;
    const query = (a: typeof after) => searchParams({ q: settings.searchQ, kinds: SEARCH_KINDS, limit: limit + 1, ...(a ? { after: a } : {}) });
    out.push({
      name: 'search',
      path,
      apiDeepPath: deepCursor ? `${path}&cursor=${encodeURIComponent(deepCursor)}` : path,
      rawDeepPath: after ? `${path}&after=${encodeURIComponent(JSON.stringify(after))}` : path,
      deepNote: `page ${deepPage + 1} of ${pages.length}, after hit ${int(seen)} of ${int(total)} (q=${JSON.stringify(settings.searchQ)}, pages followed through the api)`,
      // jit off as the search transaction sets it (searchTransactionStart): compiling costs more than the statement.
      statements: { first: [{ text: SEARCH_SQL, values: query(undefined), settings: ['jit = off'] }], deep: [{ text: SEARCH_SQL, values: query(after), settings: ['jit = off'] }] },
      index: null,
    });
  }
  return out;
}

/** What the bulk backfill prints last (stdout): its summary. */
interface BulkSummary {
  status: string;
  entries_done: number;
  records_published: number;
  filings_published: number;
  companies_published: number;
  seconds: number;
  records_per_s: number;
  peak_rss_mb: number;
}

/** Peak RSS and CPU of a child that exits on its own: sampled from /proc while it runs (once it is reaped, /proc has nothing). */
class ProcessSamples {
  hwmMiB = 0;
  cpuSeconds = 0;
  sample(pid: number): void {
    const m = memoryOf(pid);
    const cpu = cpuSecondsOf(pid);
    if (m) this.hwmMiB = Math.max(this.hwmMiB, m.hwm);
    if (cpu !== null) this.cpuSeconds = cpu;
  }
}

/** The whole submissions.zip loaded end to end: on these cores, in this many minutes (issue 39). */
const BULK_TARGET_MINUTES = 45;
/** The real archive, for the projections: ~900,000 entity files holding ~20,000,000 filings. */
const REAL_ARCHIVE = { entities: 900_000, filings: 20_000_000 };
/** The projector's lag must move within this long once the backfill is done, or the run fails. */
const BULK_STALL_MS = 180_000;

/**
 * The bulk backfill end to end: the built backfill reads a generated submissions.zip and publishes
 * to a throwaway namespace while the built projector (its own group, a fresh migrated database)
 * projects the records, as in production; timed from the backfill's first entry read to the
 * projector's lag 0, with the publish rate alone beside it.
 */
async function bulkPart(tag: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), `bench-scale-${tag}-`));
  cleanups.push(() => Promise.resolve(rmSync(dir, { recursive: true, force: true })));
  console.log(`\n== bulk backfill over a generated submissions.zip, projected as it is published`);
  const zip = await generateSubmissionsZip(fixturesDir(ROOT), join(dir, 'submissions.zip'), settings.bulkEntities);
  console.log(
    `generated ${zip.path}: ${int(zip.entityFiles)} entity files (${int(zip.mainFiles)} main, ${int(zip.overflowFiles)} overflow), ${int(zip.filings)} filings, ${(zip.bytes / 1e6).toFixed(1)} MB, in ${zip.seconds.toFixed(1)} s`,
  );

  const namespace = `benchscale${randomBytes(4).toString('hex')}`;
  const kafka: KafkaSettings = { brokers: settings.brokers, clientId: 'bench-scale', logLevel: 'warn' };
  const published = [namespacedTopic(TOPICS.filings, namespace), namespacedTopic(TOPICS.companies, namespace)];
  cleanups.push(() => deleteNamespacedTopics(kafka, namespace));
  await ensureTopics(kafka, published);

  // The read model: a fresh migrated database; its tables empty after the migrations are the projector's.
  const db = await createScratchDb(settings.databaseUrl, `bench_scale_bulk_${tag}`);
  if (!settings.keep) cleanups.push(() => db.drop());
  await migrate(db.url);
  const pg = new Client({ connectionString: db.url, application_name: 'bench-scale-bulk' });
  await pg.connect();
  cleanups.push(() => pg.end());
  const tables = await tablesOf(pg);
  const baseline = await rowCounts(pg, tables.values());
  const readModels = [...tables.values()].filter((t) => baseline.get(t.name) === 0);

  // The projector is up and in its group before the first entry is read, as in production where it
  // is already running: its boot is not part of the load.
  const groupId = `projector-${namespace}`;
  const opsPort = await freePort();
  const projector = spawnProjector(
    join(DIST, 'apps/projector/src/main.js'),
    projectorEnv({ DATABASE_URL: db.url, KAFKA_BROKERS: settings.brokers.join(','), KAFKA_TOPIC_NAMESPACE: namespace, PROJECTOR_GROUP_ID: groupId, OPS_PORT: String(opsPort) }),
  );
  cleanups.push(() => projector.stop());
  await waitReady(`http://127.0.0.1:${opsPort}/readyz`, projector.child, 'projector', 60_000);
  let projectorExit: number | null | undefined;
  void projector.exited.then((code) => (projectorExit = code));
  console.log(`database ${db.name}${settings.keep ? ' (BENCH_SCALE_KEEP: kept at the end)' : ''}; projector pid ${projector.pid} ready (group ${groupId}); topics ${namespace}.*`);

  const checkpointPath = join(dir, 'checkpoint.json');
  const spawnedAt = Date.now();
  // Set by the child's callbacks while the loop below watches.
  const run: { pid: number | null; out: string | null; error: Error | null } = { pid: null, out: null, error: null };
  void runChild(
    join(DIST, 'apps/ingest-sec/src/bulk.main.js'),
    ['--submissions', zip.path, '--checkpoint', checkpointPath],
    { PATH: env.PATH ?? '', KAFKA_BROKERS: settings.brokers.join(','), KAFKA_TOPIC_NAMESPACE: namespace, LOG_LEVEL: 'warn' },
    (pid) => (run.pid = pid),
  ).then(
    (out) => (run.out = out),
    (err: unknown) => (run.error = err instanceof Error ? err : new Error(String(err))),
  );

  const backfill = new ProcessSamples();
  let backfillWall = 0;
  let summary: BulkSummary | null = null;
  let lag = Number.NaN;
  let lagAt = 0;
  let lagInterval = 250;
  let lagMovedAt = Date.now();
  let nextProgress = Date.now() + 30_000;
  const lagNow = async () => (await consumerLag(kafka, groupId, published)).reduce((n, p) => n + p.lag, 0);
  for (;;) {
    if (projectorExit !== undefined) throw new Error(`the projector exited (code ${projectorExit}) before its lag reached 0`);
    if (run.error) throw run.error;
    if (summary === null) {
      if (run.pid !== null) backfill.sample(run.pid);
      if (run.out !== null) {
        backfillWall = (Date.now() - spawnedAt) / 1000;
        summary = bulkSummary(run.out);
        lagMovedAt = Date.now();
      }
    } else if (Date.now() - lagAt >= lagInterval) {
      // Only once everything is published does lag 0 mean loaded. Each check is a new admin
      // connection: every 2 s at most while far from done, every 250 ms near the end.
      const previous = lag;
      const now = Date.now();
      lag = await lagNow();
      if (lag === 0) break;
      const perMs = Number.isNaN(previous) || previous <= lag ? 0 : (previous - lag) / (now - lagAt);
      if (perMs > 0) lagMovedAt = now;
      else if (now - lagMovedAt > BULK_STALL_MS) throw new Error(`the projector's lag stayed at ${int(lag)} for ${BULK_STALL_MS / 1000} s`);
      lagInterval = perMs > 0 ? Math.min(2_000, Math.max(250, lag / perMs / 4)) : 250;
      lagAt = now;
    }
    if (Date.now() > nextProgress) {
      nextProgress = Date.now() + 30_000;
      const l = summary ? lag : await lagNow();
      console.log(`  ... ${summary ? 'backfill done' : 'backfill running'}, projector lag ${Number.isNaN(l) ? '?' : int(l)}, ${Math.round((Date.now() - spawnedAt) / 1000)} s`);
    }
    await sleep(100);
  }
  const doneAt = Date.now();
  const load = loadavg();
  // The projector and its pool's backends are alive until it is stopped: read them first.
  const projectorMemory = memoryOf(projector.pid);
  const projectorCpu = cpuSecondsOf(projector.pid);
  const backends = await backendCpuSeconds(pg);
  await projector.stop();
  const counts = await rowCounts(pg, readModels);
  const written = [...counts].filter(([, n]) => n > 0);
  const rows = written.reduce((n, [, c]) => n + c, 0);

  const s = summary;
  // The run's start, which the checkpoint keeps: taken after the archive is opened, just before its first entry is read.
  const startedAt = Date.parse((JSON.parse(readFileSync(checkpointPath, 'utf8')) as { started_at: string }).started_at);
  const e2e = (doneAt - startedAt) / 1000;
  const fromSpawn = (doneAt - spawnedAt) / 1000;
  const entriesPerS = s.entries_done / s.seconds;
  const filingRows = counts.get('filings') ?? 0;
  console.log(
    `bulk backfill ${s.status}: ${int(s.entries_done)} entries, ${int(s.records_published)} records (${int(s.filings_published)} filings, ${int(s.companies_published)} companies) published in ${s.seconds.toFixed(1)} s (process wall ${backfillWall.toFixed(1)} s): ${int(s.records_per_s)} records/s, ${int(entriesPerS)} entries/s (the publish alone)`,
  );
  console.log(
    `end to end, first entry read to the projector's lag 0: ${e2e.toFixed(1)} s (${fromSpawn.toFixed(1)} s from the backfill's process start): ${int(s.records_published / e2e)} records/s, ${int(rows / e2e)} rows/s at the read model`,
  );
  console.log(`  load average at lag 0 (1/5/15 min): ${load.map((l) => l.toFixed(1)).join(' / ')}: the machine's other work shares these cores`);
  console.log(`  rows ${int(rows)}: ${written.map(([n, c]) => `${n} ${int(c)}`).join(', ')}`);
  if (filingRows !== s.filings_published) console.log(`  NOTE: ${int(filingRows)} filings rows for ${int(s.filings_published)} filing records published (dead-lettered or merged records?)`);
  const backendNote = `${backends.backends} Postgres backends ${backends.seconds.toFixed(0)} s`;
  const cpuTotal = backfill.cpuSeconds + (projectorCpu ?? 0) + backends.seconds;
  console.log(
    `  peak RSS (VmHWM): backfill ${backfill.hwmMiB.toFixed(0)} MiB (its summary: ${s.peak_rss_mb} MB), projector ${projectorMemory ? projectorMemory.hwm.toFixed(0) : '?'} MiB`,
  );
  console.log(
    `  CPU: backfill ${backfill.cpuSeconds.toFixed(0)} s, projector ${projectorCpu === null ? '?' : projectorCpu.toFixed(0)} s, its ${backendNote}; ${cpuTotal.toFixed(0)} s in all, ${(cpuTotal / e2e).toFixed(2)} of ${cpus().length} cores over the ${e2e.toFixed(0)} s (Kafka's broker not counted)`,
  );

  // Onto the real archive, scaled by filings: the generated archive has EDGAR's ~22 filings an entity
  // file, and filing rows are what the projector spends its time on (company records: one per
  // listed company, a few % of the records).
  const publishMin = (n: number, perS: number) => (n / perS / 60).toFixed(0);
  console.log(
    `projected for the real archive (~${int(REAL_ARCHIVE.entities)} entity files, ~${int(REAL_ARCHIVE.filings)} filings): publish alone ${publishMin(REAL_ARCHIVE.filings, s.records_per_s)} min at this records/s, ${publishMin(REAL_ARCHIVE.entities, entriesPerS)} min at this entries/s`,
  );
  const endToEndMin = REAL_ARCHIVE.filings / (s.filings_published / e2e) / 60;
  console.log(
    verdict(
      `whole submissions.zip loaded end to end in ${endToEndMin.toFixed(0)} min (target < ${BULK_TARGET_MINUTES} min on ${cpus().length} cores; ${int(REAL_ARCHIVE.filings)} filings at this run's ${int(s.filings_published / e2e)} filings/s end to end, assuming the time scales with the filings)`,
      endToEndMin < BULK_TARGET_MINUTES,
    ),
  );
  // A floor that the machine's other work does not move: the CPU a filing costs, all of the cores on it.
  const perFiling = (cpu: number) => (cpu / s.filings_published) * 1e6;
  const floorMin = (REAL_ARCHIVE.filings * cpuTotal) / s.filings_published / cpus().length / 60;
  console.log(
    `  CPU per filing ${perFiling(cpuTotal).toFixed(0)} µs (backfill ${perFiling(backfill.cpuSeconds).toFixed(0)}, projector ${perFiling(projectorCpu ?? 0).toFixed(0)}, Postgres ${perFiling(backends.seconds).toFixed(0)}): the real archive in no less than ${floorMin.toFixed(0)} min with all ${cpus().length} cores on it and nothing else running (the broker's CPU not counted)`,
  );
  if (settings.keep) console.log(`kept database: ${db.name} (drop it with DROP DATABASE ${db.name})`);
}

function bulkSummary(out: string): BulkSummary {
  const json = /^\{\n[\s\S]*?\n\}$/m.exec(out)?.[0];
  if (!json) throw new Error(`bulk backfill printed no summary:\n${out.slice(-2000)}`);
  return JSON.parse(json) as BulkSummary;
}

function runChild(script: string, args: string[], childEnv: Record<string, string>, onSpawn?: (pid: number) => void): Promise<string> {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, [script, ...args], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    cleanups.push(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    });
    if (child.pid !== undefined) onSpawn?.(child.pid);
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => process.stderr.write(c.toString().replace(/^(?=.)/gm, '[bulk] ')));
    child.on('error', fail);
    // 'close', not 'exit': the summary on stdout may arrive after the process has exited.
    child.on('close', (code) => (code === 0 ? ok(out) : fail(new Error(`bulk backfill exited with ${code}:\n${out.slice(-2000)}`))));
  });
}

async function measure(server: ServerProcess, path: string, headers: Record<string, string>, seconds: number): Promise<Run> {
  const cpu0 = server.cpuSeconds();
  const r = await autocannon({ url: server.baseUrl + path, connections: settings.connections, duration: seconds, headers, timeout: 10 });
  const cpu = server.cpuSeconds() - cpu0;
  return {
    reqPerSec: r.requests.total / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    mean: r.latency.mean,
    requests: r.requests.total,
    bad: r.non2xx + r.errors + r.timeouts,
    cpuPerRequestUs: r.requests.total ? (cpu * 1e6) / r.requests.total : NaN,
    load1: loadavg()[0]!,
  };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

interface Page {
  data: Array<Record<string, unknown>>;
  pagination: { next_cursor: string | null; has_more: boolean };
}

async function getJson(url: string, headers: Record<string, string>): Promise<Page> {
  const res = await fetch(url, { headers });
  if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${(await res.text()).slice(0, 500)}`);
  return (await res.json()) as Page;
}

/** A row's identity on either side (api shapes are snake_case, raw rows camelCase). */
function rowId(r: Record<string, unknown> | undefined): string {
  if (!r) return '(none)';
  const v = (...keys: string[]) => keys.map((k) => r[k]).find((x) => x !== undefined && x !== null);
  // A fund exposure entry carries no accession in the api's shape: its fund names it.
  const fund = v('fund_name', 'fundName');
  if (typeof fund === 'string') return fund;
  return [v('kind'), v('id'), v('accession'), v('sequence'), v('holding_index', 'holdingIndex')].filter((x) => x !== undefined).map(String).join('/');
}

async function createKey(databaseUrl: string, pepper: string): Promise<{ key: string; accountId: string }> {
  const { stdout } = await promisify(execFile)(process.execPath, [join(DIST, 'apps/api/src/keys.cli.js'), 'create', '--plan', 'enterprise', '--account', 'bench', '--label', 'bench'], {
    env: { PATH: env.PATH ?? '', DATABASE_URL: databaseUrl, API_KEY_PEPPER: pepper },
  });
  const key = /^secret:\s+(\S+)/m.exec(stdout)?.[1];
  const accountId = /^account:.*\((\S+)\)/m.exec(stdout)?.[1];
  if (!key || !accountId) throw new Error(`keys CLI printed no secret or account:\n${stdout}`);
  return { key, accountId };
}

const WIDTHS = [30, 9, 9, 9, 9, 9, 8, 11, 6];
function row(cells: string[]): string {
  return cells.map((c, i) => (i === 0 ? c.padEnd(WIDTHS[i]!) : c.padStart(WIDTHS[i]!))).join(' ');
}
function verdict(text: string, met: boolean): string {
  return `${met ? 'met    ' : 'NOT met'} ${text}`;
}

main()
  .catch((err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exitCode = 1;
  })
  .finally(() => cleanup());
