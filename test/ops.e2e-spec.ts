// The operator's commands from a plain shell: after the run script's own setup (`scripts/run.sh
// setup`: infrastructure, .run/secrets.env and .run/ops.env, migrations), every `ops` and `keys`
// command, `ingest-sec bulk` and the workers' npm scripts run as child processes whose environment
// holds only PATH and HOME (and what a worker needs that `npm start` does not write: a user agent,
// the fixture EDGAR server), in a copy of the checkout (so the developer's own .run/ is never
// touched). The bulk backfill of the fixture submissions and a Form 4 land in the run's topic
// namespace, `backfill status` reads the real checkpoint, and the webhook dispatcher starts on the
// run's database and secrets key. A record dead-lettered because its
// read-model table was missing (an operator's mistake, fixed afterwards) is requeued, fails again
// while the table is still missing (its new dead letter names both errors), and once the table is
// back is requeued again and projected; a second `--all` requeues nothing.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { ALL_TOPICS, namespacedTopic, TOPICS, type RecordEnvelope } from '@app/contracts';
import { ensureTopics, RecordProducer, topicDepths, type KafkaSettings } from '@app/messaging';
import { expectEventually, fixtureSubmissionsEntries, freePort, kafkaBrokersForTests, startFixtureServer, testServerUrl, writeZip } from '@app/testing';
import { PROJECTED_TOPICS } from '../apps/projector/src/projector.service';

jest.setTimeout(600_000);

const ROOT = join(__dirname, '..');
const EXAMPLE = join(ROOT, 'libs', 'contracts', 'src', 'examples', 'ir-document@1.frph-presentation.json');
/** A plain shell: nothing of the pipeline's settings, only what a login shell has. */
const PLAIN_ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? tmpdir() };

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

function run(cmd: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = PLAIN_ENV): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(cmd, [...args], { cwd, env, timeout: 240_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout: stdout.toString(), stderr: stderr.toString() });
    });
  });
}

function withDatabase(url: string, db: string): string {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

async function adminQuery(url: string, sql: string): Promise<Array<Record<string, unknown>>> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql)).rows as Array<Record<string, unknown>>;
  } finally {
    await c.end();
  }
}

const suffix = randomBytes(4).toString('hex');
const namespace = `opse2e${suffix}`;
const projectorGroup = `ops-e2e-projector-${suffix}`;
const dbName = `ops_e2e_${suffix}`;
const replayDbName = `ops_e2e_replay_${suffix}`;
const refusingDbName = `ops_e2e_refusing_${suffix}`;
let serverUrl: string;
let dbUrl: string;
let brokers: string[];
let checkout: string;
let projector: ChildProcess | null = null;
/** Records the bulk backfill and ingest-form4 put on the projected topics (the replays count them too). */
let bulkRecords = 0;
let bulkFilings = 0;
let form4Records = 0;

const exampleRecord = (): RecordEnvelope => JSON.parse(readFileSync(EXAMPLE, 'utf8')) as RecordEnvelope;
const ops = (...args: string[]): Promise<Ran> => run('npm', ['run', '--silent', 'ops', '--', ...args], checkout);
const keys = (...args: string[]): Promise<Ran> => run('npm', ['run', '--silent', 'keys', '--', ...args], checkout);
const ok = (r: Ran): string => {
  if (r.code !== 0) throw new Error(`exit ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`);
  return r.stdout;
};

function startProjectorChild(): ChildProcess {
  // The projector is an app, not an operator CLI: it gets its settings from the environment, as npm start gives them.
  const env = { ...PLAIN_ENV, DATABASE_URL: dbUrl, KAFKA_BROKERS: brokers.join(','), KAFKA_TOPIC_NAMESPACE: namespace, PROJECTOR_GROUP_ID: projectorGroup, LOG_LEVEL: 'warn', OPS_PORT: '' };
  return spawn(process.execPath, [join(checkout, 'dist', 'apps', 'projector', 'src', 'main.js')], { env, stdio: 'ignore' });
}

async function stopProjector(): Promise<void> {
  const child = projector;
  projector = null;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist', 'apps', 'ops', 'src', 'ops.cli.js'))) throw new Error('build first (npm run build): this test runs the built CLIs');
  brokers = await kafkaBrokersForTests();
  serverUrl = testServerUrl();
  await adminQuery(serverUrl, `CREATE DATABASE "${dbName}"`);
  await adminQuery(serverUrl, `CREATE DATABASE "${replayDbName}"`);
  await adminQuery(serverUrl, `CREATE DATABASE "${refusingDbName}"`);
  dbUrl = withDatabase(serverUrl, dbName);

  // A checkout of its own: the run script, the build and the dependencies, with an empty .run/.
  checkout = mkdtempSync(join(tmpdir(), 'ops-e2e-'));
  cpSync(join(ROOT, 'package.json'), join(checkout, 'package.json'));
  cpSync(join(ROOT, 'scripts'), join(checkout, 'scripts'), { recursive: true });
  cpSync(join(ROOT, 'dist'), join(checkout, 'dist'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(checkout, 'node_modules'));

  // The run script's own setup, given the infrastructure of the tests as npm start would be.
  const setup = await run('bash', [join(checkout, 'scripts', 'run.sh'), 'setup'], checkout, {
    ...PLAIN_ENV,
    DATABASE_URL: dbUrl,
    KAFKA_BROKERS: brokers.join(','),
    KAFKA_TOPIC_NAMESPACE: namespace,
    PROJECTOR_GROUP_ID: projectorGroup,
  });
  if (setup.code !== 0) throw new Error(`run.sh setup failed (${setup.code}):\n${setup.stdout}\n${setup.stderr}`);
  await ensureTopics({ brokers, clientId: 'ops-e2e', logLevel: 'nothing' }, ALL_TOPICS.map((t) => namespacedTopic(t, namespace)));
});

afterAll(async () => {
  await stopProjector();
  for (const db of [dbName, replayDbName, refusingDbName]) await adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`).catch(() => undefined);
  if (checkout) rmSync(checkout, { recursive: true, force: true });
});

describe('operator commands from a plain shell after the run script', () => {
  it('run.sh setup wrote the settings the CLIs need, the secrets apart', () => {
    const opsEnv = readFileSync(join(checkout, '.run', 'ops.env'), 'utf8');
    expect(opsEnv).toContain(`DATABASE_URL=${dbUrl}`);
    expect(opsEnv).toContain(`KAFKA_BROKERS=${brokers.join(',')}`);
    expect(opsEnv).toContain(`KAFKA_TOPIC_NAMESPACE=${namespace}`);
    expect(opsEnv).toContain(`PROJECTOR_GROUP_ID=${projectorGroup}`);
    expect(readFileSync(join(checkout, '.run', 'secrets.env'), 'utf8')).toMatch(/^API_KEY_PEPPER=[0-9a-f]{64}$/m);
  });

  it('keys create / list / revoke and db:migrate', async () => {
    const created = ok(await keys('create', '--plan', 'builder', '--account', 'ops-e2e', '--label', 'plain shell'));
    expect(created).toMatch(/^secret: {2}sk_live_[A-Za-z0-9_-]+$/m);
    const id = /^key id: {2}(\S+)$/m.exec(created)?.[1];
    expect(id).toBeDefined();
    const listed = ok(await keys('list'));
    expect(listed).toMatch(/^ID\s+ACCOUNT\s+PLAN/m);
    expect(listed).toContain('ops-e2e');
    expect(listed).toContain('plain shell');
    expect(listed).not.toContain('sk_live_');
    expect(ok(await keys('revoke', id!))).toBe(`revoked ${id}\n`);
    const unknown = await keys('revoke', 'key_unknown');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('error: no key with id key_unknown');
    expect(ok(await run('npm', ['run', '--silent', 'db:migrate'], checkout))).toBe('database is up to date\n');
    // From another directory: the checkout is found from the script's location, not the cwd.
    expect(ok(await run(process.execPath, [join(checkout, 'dist', 'apps', 'api', 'src', 'keys.cli.js'), 'list'], tmpdir()))).toContain('ops-e2e');
  });

  it('help, bad input and unknown topics answer with exit code 2 and say why', async () => {
    const help = await ops('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: npm run ops -- <command>');
    const unknown = await ops('frobnicate');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("error: unknown command 'frobnicate'");
    const missing = await ops('dlq', 'requeue', 'ir.documents.v1');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('dlq requeue needs --offset [P:]N or --all');
    const badTopic = await ops('dlq', 'show', 'edgar.nope.v1');
    expect(badTopic.code).toBe(2);
    expect(badTopic.stderr).toContain("unknown topic 'edgar.nope.v1'; valid topics:");
    expect(badTopic.stderr).toContain(`${namespace}.ir.documents.v1   (dead letters: ${namespace}.ir.documents.v1.dlq)`);
  });

  it('ingest-sec bulk from a plain shell publishes to the run\'s broker and namespace; backfill status reads its checkpoint', async () => {
    expect(ok(await ops('backfill', 'status'))).toContain('no backfill checkpoints');
    const entries = fixtureSubmissionsEntries();
    const zipPath = join(checkout, 'submissions.zip');
    await writeZip(zipPath, entries);
    const bulk = ok(await run('npm', ['run', '--silent', 'ingest-sec', '--', 'bulk', '--submissions', zipPath], checkout));
    // Log lines (one JSON object each) around the summary, printed as indented JSON.
    const start = bulk.lastIndexOf('\n{\n') + 1;
    const summary = JSON.parse(bulk.slice(start, bulk.indexOf('\n}\n', start) + 2)) as { status: string; records_published: number; filings_published: number; companies_published: number };
    expect(summary.status).toBe('finished');
    expect(summary.filings_published).toBeGreaterThan(0);
    // On the broker and in the topic namespace .run/ops.env names: the plain shell set neither.
    const depths = await topicDepths({ brokers, clientId: 'ops-e2e', logLevel: 'nothing' }, [TOPICS.filings, TOPICS.companies].map((t) => namespacedTopic(t, namespace).name));
    expect(depths.map((d) => d.depth)).toEqual([summary.filings_published, summary.companies_published]);
    bulkRecords = summary.records_published;
    bulkFilings = summary.filings_published;
    const status = ok(await ops('backfill', 'status'));
    expect(status).toContain('bulk-submissions.json');
    expect(status).toContain(`entries:           ${entries.length} of ${entries.length} (100.0 %)`);
    expect(status).toContain(`records published: ${summary.records_published}`);
    expect(status).toContain('state:             finished');
  });

  it("the workers' npm scripts read .run/ too: ingest-form4 publishes into the run's namespace, webhooks starts ready", async () => {
    const edgar = await startFixtureServer();
    try {
      const env = { ...PLAIN_ENV, EDGAR_USER_AGENT: 'Filings Platform e2e ops@filings.example', EDGAR_WWW_BASE_URL: edgar.url, EDGAR_DATA_BASE_URL: edgar.url };
      ok(await run('npm', ['run', '--silent', 'ingest-form4', '--', '--filing', '789019:0001062993-24-016587:xslF345X05/form4.xml'], checkout, env));
    } finally {
      await edgar.close();
    }
    const [form4] = await topicDepths({ brokers, clientId: 'ops-e2e', logLevel: 'nothing' }, [namespacedTopic(TOPICS.form4, namespace).name]);
    expect(form4?.depth).toBe(1);
    form4Records = 1;

    // The dispatcher needs DATABASE_URL (.run/ops.env) and WEBHOOK_SECRETS_KEY (.run/secrets.env); ready means it has both.
    const port = await freePort();
    // Its own process group: npm and the dispatcher under it are stopped together.
    const webhooks = spawn('npm', ['run', '--silent', 'webhooks'], { cwd: checkout, env: { ...PLAIN_ENV, OPS_PORT: String(port), LOG_LEVEL: 'warn' }, stdio: 'ignore', detached: true });
    try {
      await expectEventually(
        async () => {
          expect(webhooks.exitCode).toBeNull();
          const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
          expect(ready.status).toBe(200);
        },
        { timeoutMs: 60_000, intervalMs: 500 },
      );
    } finally {
      process.kill(-webhooks.pid!, 'SIGTERM');
    }
    await expectEventually(async () => expect(() => process.kill(-webhooks.pid!, 0)).toThrow(/ESRCH/), { timeoutMs: 30_000, intervalMs: 200 });
  });

  it('a dead letter is shown, requeued once, fails again with both errors, and is projected once fixed', async () => {
    const settings: KafkaSettings = { brokers, clientId: 'ops-e2e', logLevel: 'nothing' };
    const topic = namespacedTopic(TOPICS.issuerDocuments, namespace);
    const record = exampleRecord();
    // The operator's mistake: the documents read model is missing (renamed away) while the projector runs.
    await adminQuery(dbUrl, 'ALTER TABLE documents RENAME TO documents_away');
    const producer = new RecordProducer(settings);
    await producer.connect();
    try {
      await producer.publish(topic, [record]);
    } finally {
      await producer.disconnect();
    }
    projector = startProjectorChild();

    const dlqRow = new RegExp(`^${topic.dlq.replace(/\./g, '\\.')}\\s+(\\d+)\\s+(\\d+)$`, 'm');
    const depth = async (): Promise<[number, number]> => {
      const m = dlqRow.exec(ok(await ops('dlq', 'list', 'ir.documents.v1')));
      if (!m) throw new Error('no DLQ row');
      return [Number(m[1]), Number(m[2])];
    };
    await expectEventually(async () => expect(await depth()).toEqual([1, 1]), { timeoutMs: 90_000, intervalMs: 1_000 });

    const shown = ok(await ops('dlq', 'show', 'ir.documents.v1'));
    expect(shown).toContain(`key:       ${record.key}`);
    expect(shown).toMatch(/error: {5}permanent: .*relation "documents" does not exist/);
    expect(shown).toContain(`source:    ${topic.name} partition`);
    expect(shown).toMatch(/failed at: \d{4}-\d\d-\d\dT/);
    const partition = /partition (\d+) offset 0 {3}\(requeue it/.exec(shown)?.[1];
    expect(partition).toBeDefined();

    // Requeued while the table is still missing: it fails again and returns with both errors.
    expect(ok(await ops('dlq', 'requeue', 'ir.documents.v1', '--offset', `${partition}:0`))).toContain(`requeued 1 record(s) onto ${topic.name}`);
    await expectEventually(async () => expect(await depth()).toEqual([2, 1]), { timeoutMs: 90_000, intervalMs: 1_000 });
    const oldest = ok(await ops('dlq', 'show', 'ir.documents.v1', '--limit', '1'));
    expect(oldest.match(/^ {2}key: /gm)).toHaveLength(1);
    expect(oldest).toContain(`${topic.dlq} partition ${partition} offset 0 `);
    expect(oldest).toContain('1 of 2 shown (the oldest 1 per partition; --limit N for more)');
    const again = ok(await ops('dlq', 'show', 'ir.documents.v1', '--offset', `${partition}:1`));
    expect(again).toMatch(/error: {5}permanent: .*relation "documents" does not exist/);
    expect(again).toMatch(/earlier error 1: \S+ at \S+: permanent: .*relation "documents" does not exist/);
    expect(again).toContain(`requeued from: ${topic.dlq}/${partition}/0`);
    const single = await ops('dlq', 'requeue', 'ir.documents.v1', '--offset', `${partition}:0`);
    expect(ok(single)).toContain('nothing requeued: that record was requeued before');

    // Fixed: the second dead letter goes back and is projected; the first is not requeued twice.
    await adminQuery(dbUrl, 'ALTER TABLE documents_away RENAME TO documents');
    const requeued = ok(await ops('dlq', 'requeue', 'ir.documents.v1', '--all'));
    expect(requeued).toContain(`requeued ${topic.dlq} ${partition}:1`);
    expect(requeued).toContain(`requeued 1 record(s) onto ${topic.name}`);
    await expectEventually(async () => expect(await adminQuery(dbUrl, 'SELECT url FROM documents')).toEqual([{ url: record.key }]), { timeoutMs: 90_000, intervalMs: 500 });
    expect(ok(await ops('dlq', 'requeue', 'ir.documents.v1', '--all'))).toContain(`nothing requeued: every record on ${topic.dlq} was requeued before`);
    expect(await depth()).toEqual([2, 0]);

    // lag: the projector's group per topic, caught up; the dead-letter topics' depth.
    await expectEventually(
      async () => {
        const lag = ok(await ops('lag'));
        expect(lag).toMatch(new RegExp(`^${projectorGroup}\\s+${topic.name.replace(/\./g, '\\.')}\\s+3\\s+3\\s+0$`, 'm'));
        expect(lag).toContain(`${projectorGroup}: total lag 0 (caught up)`);
        expect(lag).toMatch(new RegExp(`^${topic.dlq.replace(/\./g, '\\.')}\\s+2\\s+0$`, 'm'));
      },
      { timeoutMs: 60_000, intervalMs: 1_000 },
    );
  });

  it('replay --reset is refused while the projector runs, done once it stopped, and reprojects to the same rows; replay --into rebuilds a database', async () => {
    const refused = await ops('replay', '--reset');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`refusing to rewind: consumer group '${projectorGroup}' has 1 active member(s)`);
    await stopProjector();
    const reset = await expectEventually(async () => ok(await ops('replay', '--reset')), { timeoutMs: 60_000, intervalMs: 2_000 });
    expect(reset).toMatch(new RegExp(`rewound group '${projectorGroup}' to the beginning of ${PROJECTED_TOPICS.length} topic\\(s\\): ${3 + bulkRecords + form4Records} records to project again`));
    // Projected again from the beginning: the read models come out the same, and no webhook event is new.
    const readModels = async () =>
      adminQuery(dbUrl, `SELECT (SELECT count(*) FROM filings)::int AS filings, (SELECT count(*) FROM companies)::int AS companies,
        (SELECT count(*) FROM documents)::int AS documents, (SELECT count(*) FROM form4_filings)::int AS form4, (SELECT count(*) FROM webhook_events)::int AS events,
        (SELECT md5(string_agg(accession || record_id, ',' ORDER BY accession)) FROM filings) AS filings_digest`);
    const beforeReplay = await readModels();
    expect(beforeReplay[0]).toMatchObject({ filings: bulkFilings, documents: 1, form4: 1 });
    projector = startProjectorChild();
    await expectEventually(async () => expect(ok(await ops('lag'))).toContain(`${projectorGroup}: total lag 0 (caught up)`), { timeoutMs: 120_000, intervalMs: 1_000 });
    await stopProjector();
    expect(await readModels()).toEqual(beforeReplay);

    const replayUrl = withDatabase(serverUrl, replayDbName);
    // Every projected topic (the documents, the bulk backfill's filings and companies, the Form 4)
    // and the event log: the live projector's relay published every event it made (the last ones as it stopped).
    const events = async (url: string) => adminQuery(url, `SELECT count(*)::int AS n, md5(string_agg(e::text, ',' ORDER BY seq)) AS digest FROM webhook_events e WHERE NOT is_test`);
    const liveEvents = await events(dbUrl);
    expect(await adminQuery(dbUrl, 'SELECT count(*)::int AS n FROM webhook_event_log_pending')).toEqual([{ n: 0 }]);
    const replay = ok(await ops('replay', '--into', replayUrl));
    expect(replay).toContain('migrated the target');
    expect(replay).toContain(`projecting ${3 + bulkRecords + form4Records + Number(liveEvents[0]!.n)} records of ${PROJECTED_TOPICS.length + 1} topic(s)`);
    // The events as the live projector made them (seq and created_at included), and none delivered again.
    expect(await events(replayUrl)).toEqual(liveEvents);
    expect(await adminQuery(replayUrl, 'SELECT count(*)::int AS n FROM webhook_deliveries')).toEqual([{ n: 0 }]);
    expect(replay).toContain('dead letters: none added during the replay');
    expect(replay).toMatch(/^documents\s+1$/m);
    expect(replay).toMatch(new RegExp(`^filings\\s+${bulkFilings}$`, 'm'));
    expect(replay).toMatch(/^form4_filings\s+1$/m);
    expect(await adminQuery(replayUrl, 'SELECT url FROM documents')).toEqual([{ url: exampleRecord().key }]);

    // A target that refuses every document (migrated first, with the environment's DATABASE_URL
    // winning over .run/): the replay's projector dead-letters them, and the replay says so.
    const refusingUrl = withDatabase(serverUrl, refusingDbName);
    expect(ok(await run('npm', ['run', '--silent', 'db:migrate'], checkout, { ...PLAIN_ENV, DATABASE_URL: refusingUrl }))).toContain('applied');
    await adminQuery(refusingUrl, 'ALTER TABLE documents ADD CONSTRAINT ops_e2e_refuses CHECK (false) NOT VALID');
    const refusingReplay = ok(await ops('replay', '--into', refusingUrl, '--topics', 'ir.documents.v1'));
    expect(refusingReplay).toContain('the target is migrated');
    expect(refusingReplay).toContain('projecting 3 records of 1 topic(s)');
    expect(refusingReplay).toContain('dead letters: 3 added during the replay');
    expect(refusingReplay).toMatch(/^documents\s+0$/m);
  });
});
