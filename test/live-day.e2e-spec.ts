// `npm run live -- --fixtures` end to end: the live set (projector, api, dispatcher, live poller,
// followers) started by scripts/live.sh from a copy of the checkout, with a filings backfill beside
// it, against a short simulated EDGAR day on the fixture server that answers one SEC 403, as an
// operator starts it (only PATH and HOME besides the settings the test infrastructure gives). After
// the day, every resource a follower derives from the day's filings is served by the API (real
// HTTP, a key from `npm run keys`), the fixture server's busiest second stays within SEC's 10
// requests, no request reached it during the shared pause, every process is still running, and
// `ops lag` shows every group of the live set caught up.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { expectEventually, freePort, kafkaBrokersForTests, testServerUrl, type CoverageRow, type RequestFigures, type ResourceKind } from '@app/testing';

jest.setTimeout(600_000);

const ROOT = join(__dirname, '..');
const PLAIN_ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? tmpdir() };
/** Resources a follower derives from a live filing (one the poller found in the daily index or the current-events listing). */
const LIVE_RESOURCES: readonly ResourceKind[] = ['filing', 'items', 'document', 'insiders', 'segments', 'sections', 'description', 'fund-exposure', 'institution-holdings'];

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

function run(cmd: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(cmd, [...args], { cwd, env, timeout: 300_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout: stdout.toString(), stderr: stderr.toString() });
    });
  });
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

const THROTTLE_PAUSE_MS = 7000;
const suffix = randomBytes(4).toString('hex');
const namespace = `livee2e${suffix}`;
const dbName = `live_e2e_${suffix}`;
let serverUrl: string;
let checkout: string;
let env: NodeJS.ProcessEnv;
let apiPort: number;

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist', 'libs', 'testing', 'src', 'day-coverage.cli.js'))) throw new Error('build first (npm run build): this test runs the built apps');
  const brokers = await kafkaBrokersForTests();
  serverUrl = testServerUrl();
  await adminQuery(serverUrl, `CREATE DATABASE "${dbName}"`);
  const db = new URL(serverUrl);
  db.pathname = `/${dbName}`;

  // A checkout of its own: the scripts, the build and the dependencies, with an empty .run/.
  checkout = mkdtempSync(join(tmpdir(), 'live-e2e-'));
  cpSync(join(ROOT, 'package.json'), join(checkout, 'package.json'));
  cpSync(join(ROOT, 'scripts'), join(checkout, 'scripts'), { recursive: true });
  cpSync(join(ROOT, 'dist'), join(checkout, 'dist'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(checkout, 'node_modules'));

  apiPort = await freePort();
  env = {
    ...PLAIN_ENV,
    DATABASE_URL: db.toString(),
    KAFKA_BROKERS: brokers.join(','),
    KAFKA_TOPIC_NAMESPACE: namespace,
    PROJECTOR_GROUP_ID: `${namespace}-projector`,
    SEGMENTS_GROUP_ID: `${namespace}-segments`,
    SECTIONS_GROUP_ID: `${namespace}-sections`,
    FORM4_GROUP_ID: `${namespace}-form4`,
    NPORT_GROUP_ID: `${namespace}-nport`,
    EIGHTK_GROUP_ID: `${namespace}-eightk`,
    THIRTEENF_GROUP_ID: `${namespace}-13f`,
    IR_GROUP_ID: `${namespace}-ir`,
    // The shared EDGAR budget of this run only (a pause another run left cannot hold it).
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    EDGAR_BUDGET_KEY_PREFIX: `edgar-budget-${namespace}:`,
    PORT: String(apiPort),
    FIXTURE_PORT: String(await freePort()),
    PROJECTOR_OPS_PORT: String(await freePort()),
    WEBHOOKS_OPS_PORT: String(await freePort()),
    FIXTURES_DIR: join(ROOT, 'sample', 'fixtures'),
    LIVE_DAY_SECONDS: '20',
    // One SEC 403 to a follower's document request 6 s into the day: every reader holds 7 s, so a
    // process that ignored the shared pause (the poller asks the feed every 1-2 s) would show in the log.
    LIVE_DAY_THROTTLE_AFTER_S: '6',
    EDGAR_THROTTLE_PAUSE_MS: String(THROTTLE_PAUSE_MS),
    LIVE_BUILD: '0',
    LOG_LEVEL: 'info',
  };
  const up = await run('bash', [join(checkout, 'scripts', 'live.sh'), '--fixtures'], checkout, env);
  if (up.code !== 0) throw new Error(`live.sh --fixtures failed (${up.code}):\n${up.stdout}\n${up.stderr}`);
});

afterAll(async () => {
  if (checkout) {
    const down = await run('bash', [join(checkout, 'scripts', 'live.sh'), 'down'], checkout, env);
    if (down.code !== 0) console.error(down.stderr);
    // The processes' logs outlive the copy, for whoever reads a failure.
    cpSync(join(checkout, '.run', 'live'), join(ROOT, '.run', 'test', 'live-day'), { recursive: true });
    rmSync(checkout, { recursive: true, force: true });
  }
  await adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`).catch(() => undefined);
});

describe('npm run live -- --fixtures: a simulated EDGAR day', () => {
  it('serves every resource of the day that a running follower derives, within 10 requests a second', async () => {
    const created = await run('npm', ['run', '--silent', 'keys', '--', 'create', '--plan', 'enterprise', '--account', 'live-e2e'], checkout, env);
    const key = /sk_live_[A-Za-z0-9_-]+/.exec(created.stdout)?.[0];
    if (!key) throw new Error(`no key:\n${created.stdout}\n${created.stderr}`);
    const liveDir = join(checkout, '.run', 'live');
    const coverage = async () => {
      const r = await run(process.execPath, [join(checkout, 'dist/libs/testing/src/day-coverage.cli.js'), '--api', `http://127.0.0.1:${apiPort}`, '--key', key, '--day', join(liveDir, 'day.json'), '--requests', join(liveDir, 'fixture-requests.log'), '--json'], checkout, env);
      if (r.code !== 0) throw new Error(r.stderr);
      return JSON.parse(r.stdout) as { appeared: number; rows: CoverageRow[]; figures: RequestFigures };
    };

    // A filings backfill beside the live set, as an operator starts one: it takes the same budget at the lowest priority.
    const opsEnv = readFileSync(join(checkout, '.run', 'ops.env'), 'utf8');
    const redisUrl = /^REDIS_URL=(.*)$/m.exec(opsEnv)?.[1];
    if (!redisUrl) throw new Error(`live.sh wrote no REDIS_URL to .run/ops.env:\n${opsEnv}`);
    const fixtureUrl = `http://127.0.0.1:${env.FIXTURE_PORT}`;
    const backfill = run('npm', ['run', '--silent', 'ingest-sec', '--', 'filings', 'backfill', '--companies', 'MSFT', '--from', '2025-07-01', '--to', '2025-07-31'], checkout, {
      ...env,
      EDGAR_USER_AGENT: 'Filings Platform live e2e backfill ops@filings.example',
      EDGAR_WWW_BASE_URL: fixtureUrl,
      EDGAR_DATA_BASE_URL: fixtureUrl,
      EDGAR_BUDGET_REDIS_URL: redisUrl,
    });

    const filings = (JSON.parse(readFileSync(join(liveDir, 'day.json'), 'utf8')) as { filings: unknown[] }).filings.length;
    const day = await expectEventually(
      async () => {
        const c = await coverage();
        const live = c.rows.filter((r) => LIVE_RESOURCES.includes(r.kind));
        // The whole day appeared (the routed 10-K, 10-Qs, 8-Ks, Form 4s, NPORT-Ps and 13F-HRs) and each of its live resources is served.
        expect(c.appeared).toBe(filings);
        expect(live.filter((r) => !r.served)).toEqual([]);
        return c;
      },
      { timeoutMs: 180_000, intervalMs: 3_000 },
    );
    // Every filing has its row, and each Form 4 whose issuer the API knows has insider rows.
    expect(day.rows.filter((r) => r.kind === 'filing')).toHaveLength(filings);
    expect(day.rows.filter((r) => r.kind === 'insiders').length).toBeGreaterThan(0);
    // The 8-Ks' press releases (ADBE, ABVC, MMM) are documents with pages.
    expect(day.rows.filter((r) => r.kind === 'document').length).toBeGreaterThanOrEqual(3);
    expect(day.figures.busiestSecond).toBeGreaterThan(0);
    expect(day.figures.busiestSecond).toBeLessThanOrEqual(10);
    const backfilled = await backfill;
    expect({ code: backfilled.code, stderr: backfilled.stderr }).toEqual({ code: 0, stderr: '' });

    // The one 403: no request from any process reached the server while the shared pause held, and
    // the readers came back after it. The first second is a margin: requests granted just before
    // the throttled process wrote the pause, on a loaded machine, can still be on their way.
    const log = readFileSync(join(liveDir, 'fixture-requests.log'), 'utf8')
      .split('\n')
      .map((l) => /^(\d+) (\d+) (\S+)$/.exec(l))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => ({ at: Number(m[1]), status: Number(m[2]), path: m[3]! }));
    const throttled = log.filter((r) => r.status === 403);
    expect(throttled).toHaveLength(1);
    const t = throttled[0]!.at;
    expect(log.filter((r) => r.at > t + 1000 && r.at < t + THROTTLE_PAUSE_MS - 300).map((r) => ({ afterMs: r.at - t, path: r.path }))).toEqual([]);
    expect(log.filter((r) => r.at >= t + THROTTLE_PAUSE_MS - 300).length).toBeGreaterThan(0);

    const status = await run('bash', [join(checkout, 'scripts', 'live.sh'), 'status'], checkout, env);
    expect(status.stdout).not.toContain('EXITED');
    expect(status.code).toBe(0);

    // Every group of the live set is named and reaches lag 0.
    const groups = [...['projector', 'segments', 'sections', 'form4', 'nport', 'eightk', '13f', 'ir'].map((g) => `${namespace}-${g}`), `${namespace}.ingest-decks`];
    await expectEventually(
      async () => {
        const lag = await run('npm', ['run', '--silent', 'ops', '--', 'lag'], checkout, env);
        for (const group of groups) expect(lag.stdout).toContain(`${group}: total lag 0 (caught up)`);
      },
      { timeoutMs: 60_000, intervalMs: 3_000 },
    );
  });
});
