import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { Webhook } from 'standardwebhooks';
import { freePort, firstPolledVisibility, maxRequestsInAnyWindow, type DayManifest } from '@app/testing';
import { cleanup, cleanups, cleanUpOnSignals, cpuSecondsOf, positiveNumberEnv } from '../bench-support';

/*
 * `npm run bench:freshness`: a peak hour of EDGAR through the whole live set (`npm run live --
 * --fixtures`: live poller, followers, projector, dispatcher, API), on the simulated EDGAR clock,
 * with a filings backfill taking the rest of the shared budget. A burst of BENCH_BURST filings in
 * the first minute, then BENCH_TAIL_PER_MIN a minute for BENCH_TAIL_MIN minutes, Forms 4 and 8-K
 * mostly (fixture filings, cloned under synthetic accessions). Each filing's directory answers at
 * acceptance, its complete submission BENCH_COMPLETE_SUBMISSION_DELAY_S later, and it shows on the
 * latest-filings feed and the current-events listings BENCH_VISIBLE_DELAY_S after acceptance (the
 * daily index at night). A local receiver verifies every signed delivery. Prints per run: detection lag from first
 * visibility, visibility- and acceptance-to-delivered p50/p99 for filing.created and form4.filed,
 * and the busiest second at the fake SEC; then the runs side by side. Asserts nothing. README.md.
 */

const num = positiveNumberEnv;
const settings = {
  runs: num('BENCH_RUNS', 2),
  burst: num('BENCH_BURST', 60),
  tailPerMinute: num('BENCH_TAIL_PER_MIN', 6),
  tailMinutes: num('BENCH_TAIL_MIN', 9),
  visibleDelayS: num('BENCH_VISIBLE_DELAY_S', 60),
  completeSubmissionDelayS: num('BENCH_COMPLETE_SUBMISSION_DELAY_S', 40),
  startDelayS: num('BENCH_START_DELAY_S', 45),
  serverUrl: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
  brokers: process.env.KAFKA_BROKERS || '127.0.0.1:9092',
};
const ROOT = resolve(__dirname, '..', '..', '..');
const EVENT_TYPES = ['filing.created', 'form4.filed'] as const;
const TARGETS = { detectionP50: 1.5, detectionP99: 3, 'filing.created': 5, 'form4.filed': 8, busiestSecond: 10 };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (values: readonly number[], p: number): number | null => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const median = (values: readonly (number | null)[]): number | null => pct(values.filter((v): v is number => v !== null), 50);
const s = (ms: number | null) => (ms === null ? 'n/a' : `${(ms / 1000).toFixed(2)} s`);

function run(cmd: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((ok) => {
    execFile(cmd, [...args], { cwd, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      ok({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

async function admin(sql: string): Promise<void> {
  const c = new Client({ connectionString: settings.serverUrl });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

interface Arrival { type: string; accession: string; at: number }

/** Verifies every delivery with the endpoint's secret (Standard Webhooks) and notes when each event's first delivery arrived. */
function startReceiver() {
  const arrivals: Arrival[] = [];
  let secret: string | null = null;
  let badSignatures = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c)).on('end', () => {
      const at = Date.now();
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        const event = new Webhook(secret!).verify(body, req.headers as Record<string, string>) as { type: string; data: { accession?: string } };
        if (event.data.accession) arrivals.push({ type: event.type, accession: event.data.accession, at });
        res.writeHead(204).end();
      } catch {
        badSignatures += 1;
        res.writeHead(400).end();
      }
    });
  });
  return {
    arrivals,
    get badSignatures() {
      return badSignatures;
    },
    setSecret: (value: string) => (secret = value),
    listen: () => new Promise<number>((ok) => server.listen(0, '127.0.0.1', () => ok((server.address() as AddressInfo).port))),
    close: () => new Promise<void>((ok) => { server.closeAllConnections(); server.close(() => ok()); }),
  };
}

interface Straggler { type: string; form: string; accession: string; clone: boolean; detectionMs: number | null; fromVisibleMs: number | null }

interface RunFigures {
  filings: number;
  detected: number;
  detectionP50: number | null;
  detectionP99: number | null;
  delivered: Record<(typeof EVENT_TYPES)[number], { count: number; expected: number; fromVisibleP50: number | null; fromVisibleP99: number | null; fromAcceptedP50: number | null; fromAcceptedP99: number | null }>;
  busiestSecond: number;
  requests: number;
  backfillPasses: number;
  badSignatures: number;
  cpuSeconds: number;
  /** The slowest deliveries and the expected ones that never came: where the tail comes from. */
  stragglers: Straggler[];
}

/** One peak hour through a fresh live set: its own checkout copy, database, topics and budget key. */
async function runOnce(round: number): Promise<RunFigures> {
  const suffix = randomBytes(4).toString('hex');
  const db = `freshness_bench_${suffix}`;
  await admin(`CREATE DATABASE "${db}"`);
  const checkout = mkdtempSync(join(tmpdir(), 'freshness-bench-'));
  for (const entry of ['package.json', 'scripts', 'dist']) cpSync(join(ROOT, entry), join(checkout, entry), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(checkout, 'node_modules'));
  const namespace = `freshbench${suffix}`;
  const receiver = startReceiver();
  const receiverPort = await receiver.listen();
  const [apiPort, fixturePort, projectorOps, webhooksOps] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATABASE_URL: `${settings.serverUrl.replace(/\/[^/]*$/, '')}/${db}`,
    KAFKA_BROKERS: settings.brokers,
    REDIS_URL: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
    KAFKA_TOPIC_NAMESPACE: namespace,
    EDGAR_BUDGET_KEY_PREFIX: `edgar-budget-${namespace}:`,
    ...Object.fromEntries(['PROJECTOR', 'SEGMENTS', 'SECTIONS', 'FORM4', 'NPORT', 'EIGHTK', 'THIRTEENF', 'IR', 'DECKS'].map((g) => [`${g}_GROUP_ID`, `${namespace}-${g.toLowerCase()}`])),
    PORT: String(apiPort),
    FIXTURE_PORT: String(fixturePort),
    PROJECTOR_OPS_PORT: String(projectorOps),
    WEBHOOKS_OPS_PORT: String(webhooksOps),
    FIXTURES_DIR: join(ROOT, 'sample', 'fixtures'),
    LIVE_BUILD: '0',
    LOG_LEVEL: 'info',
    LIVE_DAY_PEAK: `${settings.burst},60000,${settings.tailPerMinute},${settings.tailMinutes * 60_000}`,
    LIVE_DAY_PEAK_SEED: String(round),
    LIVE_DAY_FEED_DELAY_MS: String(settings.visibleDelayS * 1000),
    LIVE_DAY_LISTING_DELAY_MS: String(settings.visibleDelayS * 1000),
    LIVE_DAY_COMPLETE_SUBMISSION_DELAY_MS: String(settings.completeSubmissionDelayS * 1000),
    LIVE_DAY_DAILY_INDEX: 'night',
    LIVE_DAY_START_DELAY_S: String(settings.startDelayS),
  };
  const live = (command: string) => run('bash', [join(checkout, 'scripts', 'live.sh'), command, '--fixtures'], checkout, env);
  // Torn down after the round (and on a signal): the shared cleanup() runs once per process.
  const teardown = async () => {
    cleanups.splice(cleanups.indexOf(teardown), 1);
    await live('down');
    await receiver.close();
    rmSync(checkout, { recursive: true, force: true });
    await admin(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
  };
  cleanups.push(teardown);
  try {
    return await measure(round, { checkout, env, receiver, receiverPort, apiPort, fixturePort, live });
  } finally {
    await teardown();
  }
}

interface RoundSetup {
  checkout: string;
  env: NodeJS.ProcessEnv;
  receiver: ReturnType<typeof startReceiver>;
  receiverPort: number;
  apiPort: number;
  fixturePort: number;
  live: (command: string) => Promise<{ code: number; stdout: string; stderr: string }>;
}

/** Starts the live set, subscribes the receiver, runs the backfill beside the day and gathers the figures. */
async function measure(round: number, { checkout, env, receiver, receiverPort, apiPort, fixturePort, live }: RoundSetup): Promise<RunFigures> {

  const up = await live('up');
  if (up.code !== 0) throw new Error(`live.sh up failed (${up.code}):\n${up.stdout}\n${up.stderr}`);
  const manifest = JSON.parse(readFileSync(join(checkout, '.run', 'live', 'day.json'), 'utf8')) as DayManifest;
  if (Date.now() > manifest.startAt) console.error(`[bench] round ${round}: the live set took longer to start than BENCH_START_DELAY_S; the day began before the receiver was subscribed`);

  const created = await run('npm', ['run', '--silent', 'keys', '--', 'create', '--plan', 'enterprise', '--account', 'freshness-bench'], checkout, env);
  const key = /sk_live_[A-Za-z0-9_-]+/.exec(created.stdout)?.[0];
  if (!key) throw new Error(`no API key:\n${created.stdout}\n${created.stderr}`);
  const endpoint = await fetch(`http://127.0.0.1:${apiPort}/v1/webhook-endpoints`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: `http://127.0.0.1:${receiverPort}/hook`, topics: [...EVENT_TYPES] }),
  });
  if (endpoint.status !== 201) throw new Error(`webhook endpoint: ${endpoint.status} ${await endpoint.text()}`);
  receiver.setSecret(((await endpoint.json()) as { signing_secret: string }).signing_secret);

  // A backfill beside the live set, as an operator runs one: passes over 200 companies until the hour ends.
  const opsEnv = readFileSync(join(checkout, '.run', 'ops.env'), 'utf8');
  const budgetRedis = /^REDIS_URL=(.*)$/m.exec(opsEnv)?.[1] ?? env.REDIS_URL;
  const fixtureUrl = `http://127.0.0.1:${fixturePort}`;
  const backfillEnv = { ...env, EDGAR_USER_AGENT: 'Filings Platform freshness bench ops@filings.example', EDGAR_WWW_BASE_URL: fixtureUrl, EDGAR_DATA_BASE_URL: fixtureUrl, EDGAR_BUDGET_REDIS_URL: budgetRedis };
  const companies = ['MSFT', 'TSLA', 'MUR', ...Array.from({ length: 197 }, (_, i) => String(2_000_000 + i))].join(',');
  let backfillPasses = 0;
  const backfilling = (async () => {
    while (Date.now() < manifest.endAt) {
      await run(process.execPath, [join(checkout, 'dist/apps/ingest-sec/src/filings.main.js'), 'backfill', '--companies', companies, '--from', '2025-07-01', '--to', '2025-07-31'], checkout, backfillEnv);
      backfillPasses += 1;
    }
  })();

  const minutes = ((manifest.endAt - Date.now()) / 60_000).toFixed(1);
  console.error(`[bench] round ${round}: ${manifest.filings.length} filings over the next ${minutes} min (the day starts in ${Math.max(0, Math.round((manifest.startAt - Date.now()) / 1000))} s)`);
  const cpuBefore = await processCpuSeconds(checkout);
  await backfilling;
  // Then until every expected delivery arrived, or 60 s after the last filing showed on the feed
  // (the day's last filings show there after the day ends).
  const expected = expectedDeliveries(manifest);
  const lastVisible = Math.max(...manifest.filings.map(firstPolledVisibility));
  const ofTheDay = new Set(manifest.filings.map((f) => f.accession));
  // The day's deliveries only: the backfill's filings make events too.
  const received = () => new Set(receiver.arrivals.filter((a) => ofTheDay.has(a.accession)).map((a) => `${a.type} ${a.accession}`)).size;
  const deadline = Math.max(lastVisible, Date.now()) + 60_000;
  while (received() < expected['filing.created'] + expected['form4.filed'] && Date.now() < deadline) await sleep(1000);
  const cpuSeconds = (await processCpuSeconds(checkout)) - cpuBefore;

  const client = new Client({ connectionString: env.DATABASE_URL });
  await client.connect();
  const seen = new Map<string, number>();
  try {
    const rows = await client.query<{ accession: string; first_seen_ms: string }>(`SELECT accession, (extract(epoch FROM first_seen_at) * 1000)::bigint AS first_seen_ms FROM filing_freshness`);
    for (const r of rows.rows) seen.set(r.accession, Number(r.first_seen_ms));
  } finally {
    await client.end();
  }
  const requests = readFileSync(join(checkout, '.run', 'live', 'fixture-requests.log'), 'utf8')
    .split('\n')
    .map((l) => /^(\d+) /.exec(l))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ at: Number(m[1]) }));

  const detection = manifest.filings.flatMap((f) => (seen.has(f.accession) ? [seen.get(f.accession)! - firstPolledVisibility(f)] : []));
  const stragglers: Straggler[] = [];
  const delivered = Object.fromEntries(
    EVENT_TYPES.map((type) => {
      // The day's filings only: the backfill's filings make events too (history announced as news: issue 39).
      const first = new Map<string, number>();
      for (const a of receiver.arrivals) if (a.type === type && !first.has(a.accession)) first.set(a.accession, a.at);
      const fromVisible: number[] = [];
      const fromAccepted: number[] = [];
      const lags: Straggler[] = [];
      for (const f of manifest.filings) {
        if (type === 'form4.filed' && f.form !== '4') continue;
        const at = first.get(f.accession);
        const detectionMs = seen.has(f.accession) ? seen.get(f.accession)! - firstPolledVisibility(f) : null;
        if (at === undefined) {
          lags.push({ type, form: f.form, accession: f.accession, clone: f.cloneOf !== null, detectionMs, fromVisibleMs: null });
          continue;
        }
        fromVisible.push(at - firstPolledVisibility(f));
        fromAccepted.push(at - f.acceptedAt);
        lags.push({ type, form: f.form, accession: f.accession, clone: f.cloneOf !== null, detectionMs, fromVisibleMs: at - firstPolledVisibility(f) });
      }
      lags.sort((a, b) => (b.fromVisibleMs ?? Infinity) - (a.fromVisibleMs ?? Infinity));
      stragglers.push(...lags.slice(0, 5));
      const count = fromVisible.length;
      return [type, { count, expected: expected[type], fromVisibleP50: pct(fromVisible, 50), fromVisibleP99: pct(fromVisible, 99), fromAcceptedP50: pct(fromAccepted, 50), fromAcceptedP99: pct(fromAccepted, 99) }];
    }),
  ) as RunFigures['delivered'];
  return {
    filings: manifest.filings.length,
    detected: detection.length,
    detectionP50: pct(detection, 50),
    detectionP99: pct(detection, 99),
    delivered,
    busiestSecond: maxRequestsInAnyWindow(requests, 1000),
    requests: requests.length,
    backfillPasses,
    badSignatures: receiver.badSignatures,
    cpuSeconds,
    stragglers,
  };
}

/** Every filing makes a filing.created; each Form 4 a form4.filed. */
function expectedDeliveries(manifest: DayManifest): Record<(typeof EVENT_TYPES)[number], number> {
  return { 'filing.created': manifest.filings.length, 'form4.filed': manifest.filings.filter((f) => f.form === '4').length };
}

/** CPU seconds (user + system) the live set's processes used so far, from /proc. */
async function processCpuSeconds(checkout: string): Promise<number> {
  const pids = await run('bash', ['-c', `cat ${join(checkout, '.run', 'live')}/*.pid 2>/dev/null`], checkout, process.env);
  // A process that exited counts nothing.
  return pids.stdout
    .split(/\s+/)
    .filter(Boolean)
    .reduce((sum, pid) => sum + (cpuSecondsOf(Number(pid)) ?? 0), 0);
}

function print(label: string, f: RunFigures): void {
  console.log(`\n${label}: ${f.filings} filings, ${f.detected} detected; ${f.requests} requests to the fake SEC, busiest second ${f.busiestSecond}; ${f.backfillPasses} backfill passes; live set CPU ${f.cpuSeconds.toFixed(0)} s; bad signatures ${f.badSignatures}`);
  console.log(`  detection after first visibility: p50 ${s(f.detectionP50)}, p99 ${s(f.detectionP99)} (targets ${TARGETS.detectionP50} s, ${TARGETS.detectionP99} s)`);
  for (const type of EVENT_TYPES) {
    const d = f.delivered[type];
    console.log(`  ${type}: ${d.count}/${d.expected} delivered; from first visibility p50 ${s(d.fromVisibleP50)}, p99 ${s(d.fromVisibleP99)} (target p99 ${TARGETS[type]} s); from acceptance p50 ${s(d.fromAcceptedP50)}, p99 ${s(d.fromAcceptedP99)}`);
  }
  console.log('  slowest (or missing) deliveries:');
  for (const x of f.stragglers) {
    console.log(`    ${x.type} ${x.form} ${x.accession}${x.clone ? ' (clone)' : ''}: detected after ${s(x.detectionMs)}, delivered ${x.fromVisibleMs === null ? 'never' : `after ${s(x.fromVisibleMs)}`}`);
  }
}

async function main(): Promise<void> {
  cleanUpOnSignals();
  console.log(
    `freshness bench: ${settings.runs} runs of a peak hour (${settings.burst} filings in the first minute, then ${settings.tailPerMinute} a minute for ${settings.tailMinutes} min), ` +
      `visible on the feed and listings ${settings.visibleDelayS} s after acceptance (complete submission ${settings.completeSubmissionDelayS} s), daily index at night, a filings backfill beside it`,
  );
  const results: RunFigures[] = [];
  for (let round = 1; round <= settings.runs; round++) {
    results.push(await runOnce(round));
    print(`run ${round}`, results.at(-1)!);
  }
  if (results.length > 1) {
    console.log('\nmedians over the runs:');
    console.log(`  detection p50 ${s(median(results.map((r) => r.detectionP50)))}, p99 ${s(median(results.map((r) => r.detectionP99)))}`);
    for (const type of EVENT_TYPES) {
      console.log(`  ${type} from visibility p99 ${s(median(results.map((r) => r.delivered[type].fromVisibleP99)))}; from acceptance p50 ${s(median(results.map((r) => r.delivered[type].fromAcceptedP50)))}, p99 ${s(median(results.map((r) => r.delivered[type].fromAcceptedP99)))}`);
    }
    console.log(`  busiest second ${Math.max(...results.map((r) => r.busiestSecond))} (most of any run; target <= ${TARGETS.busiestSecond})`);
  }
}

main().catch(async (err: unknown) => {
  console.error(err);
  await cleanup();
  process.exit(1);
});
