// The operator CLIs as an operator or a script runs them (the built files, a plain environment):
// every one answers --help and -h with its usage on stdout and exit 0 (and `help` where it has
// commands) before it reads any configuration, and bad input with exit 2 and the usage on stderr.
// `ops lag` is a health check on a real broker: 3 while a dead letter waits, 0 once it is
// requeued, 4 when a group's lag is above --max-lag. The listings print one JSON document with
// --json (ops on a real broker, keys on a real database).
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { namespacedTopic, TOPICS } from '@app/contracts';
import { deadLetterHeaders, ensureTopics, RecordProducer, type KafkaSettings } from '@app/messaging';
import { createTestDatabase, kafkaBrokersForTests, type TestDatabase } from '@app/testing';

jest.setTimeout(180_000);

const DIST = join(__dirname, '..', 'dist');
/** Nothing of the pipeline's settings: help and usage errors must not need them. */
const PLAIN_ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? tmpdir() };

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

function node(script: string, args: readonly string[], env: NodeJS.ProcessEnv = PLAIN_ENV): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(DIST, script), ...args], { cwd: tmpdir(), env, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout: stdout.toString(), stderr: stderr.toString() });
    });
  });
}

/** Every operator CLI and worker main; `commands`: it has subcommands, so `help` is one too. */
const CLIS: ReadonlyArray<{ script: string; commands?: true }> = [
  { script: 'apps/ops/src/ops.cli.js', commands: true },
  { script: 'apps/api/src/keys.cli.js', commands: true },
  { script: 'apps/projector/src/lag.cli.js' },
  { script: 'apps/projector/src/main.js' },
  { script: 'apps/api/src/main.js' },
  { script: 'apps/webhooks/src/main.js' },
  { script: 'libs/persistence/src/migrate.cli.js' },
  { script: 'apps/ingest-ir/src/main.js' },
  { script: 'apps/ingest-decks/src/main.js' },
  { script: 'apps/ingest-form4/src/main.js' },
  { script: 'apps/ingest-sec/src/cli.js', commands: true },
  { script: 'apps/ingest-sec/src/main.js' },
  { script: 'apps/ingest-sec/src/filings.main.js', commands: true },
  { script: 'apps/ingest-sec/src/bulk.main.js' },
  { script: 'apps/ingest-sec/src/facts.main.js' },
  { script: 'apps/ingest-sec/src/facts-bulk.main.js' },
  { script: 'apps/ingest-sec/src/thirteenf-bulk.main.js' },
  { script: 'apps/ingest-sec/src/thirteenf-list.main.js' },
  { script: 'apps/ingest-sec/src/segments.main.js' },
  { script: 'apps/ingest-sec/src/sections.main.js' },
  { script: 'apps/ingest-sec/src/eightk.main.js' },
  { script: 'apps/ingest-sec/src/nport.main.js' },
  { script: 'apps/ingest-sec/src/thirteenf.main.js' },
];

describe('--help everywhere', () => {
  it.each(CLIS)('$script: --help and -h (and help) exit 0 with the usage on stdout; bad input exits 2 with it on stderr', async ({ script, commands }) => {
    for (const args of [['--help'], ['-h'], ...(commands ? [['help']] : [])]) {
      const r = await node(script, args);
      expect({ args, code: r.code, stderr: r.stderr }).toEqual({ args, code: 0, stderr: '' });
      expect(r.stdout).toMatch(/usage/i);
    }
    const bad = await node(script, ['--no-such-option']);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/usage/i);
  });
});

describe('ops lag as a health check, --json listings', () => {
  const suffix = randomBytes(4).toString('hex');
  const namespace = `opscli${suffix}`;
  const topic = namespacedTopic(TOPICS.issuerDocuments, namespace);
  let settings: KafkaSettings;
  let env: NodeJS.ProcessEnv;
  const ops = (...args: string[]): Promise<Ran> => node('apps/ops/src/ops.cli.js', args, env);
  const json = (r: Ran): Record<string, unknown> => {
    expect(r.stdout.trim().startsWith('{')).toBe(true);
    return JSON.parse(r.stdout) as Record<string, unknown>;
  };

  beforeAll(async () => {
    settings = { brokers: await kafkaBrokersForTests(), clientId: 'operator-cli-e2e', logLevel: 'nothing' };
    env = { ...PLAIN_ENV, KAFKA_BROKERS: settings.brokers.join(','), KAFKA_TOPIC_NAMESPACE: namespace, PROJECTOR_GROUP_ID: `opscli-projector-${suffix}` };
    await ensureTopics(settings, [topic]);
  });

  it('exit 0 with no dead letter, 3 while one waits, 0 once requeued, 4 above --max-lag', async () => {
    const clean = await ops('lag', '--json');
    expect(clean.code).toBe(0);
    expect(json(clean)).toMatchObject({ dead_letter_topics: [{ topic: topic.dlq, depth: 0, not_requeued: 0 }], dead_letters_waiting: 0, max_lag: 10_000, exit_code: 0 });

    const producer = new RecordProducer(settings);
    await producer.connect();
    try {
      const headers = deadLetterHeaders({ topic: topic.name, partition: 0, offset: '0' }, 'permanent: operator-cli e2e', new Date(), { 'record-id': 'rec_opscli' });
      await producer.publishRaw(topic.dlq, 'https://ir.example/deck.pdf', '{"not":"a record"}', headers);
    } finally {
      await producer.disconnect();
    }

    const waiting = await ops('lag');
    expect(waiting.code).toBe(3);
    expect(waiting.stdout).toMatch(new RegExp(`^${topic.dlq.replace(/\./g, '\\.')}\\s+1\\s+1$`, 'm'));
    expect(waiting.stderr).toContain('lag: 1 dead letter(s) not requeued (exit 3): npm run ops -- dlq list');
    const waitingJson = await ops('lag', '--json');
    expect(waitingJson.code).toBe(3);
    expect(json(waitingJson)).toMatchObject({ dead_letter_topics: [{ topic: topic.dlq, depth: 1, not_requeued: 1 }], dead_letters_waiting: 1, exit_code: 3 });

    const listed = await ops('dlq', 'list', 'ir.documents.v1', '--json');
    expect(listed.code).toBe(0);
    expect(json(listed)).toEqual({ dead_letter_topics: [{ topic: topic.dlq, depth: 1, not_requeued: 1 }] });
    const shown = await ops('dlq', 'show', 'ir.documents.v1', '--json');
    expect(shown.code).toBe(0);
    expect(json(shown)).toMatchObject({
      topic: topic.dlq,
      depth: 1,
      records: [{ key: 'https://ir.example/deck.pdf', value: '{"not":"a record"}', error: 'permanent: operator-cli e2e', source: { topic: topic.name, partition: 0, offset: '0' }, record_id: 'rec_opscli' }],
    });

    expect((await ops('dlq', 'requeue', 'ir.documents.v1', '--all')).code).toBe(0);
    // Requeued: nothing waits; the record is back on its topic, where the projector group (never
    // started here) has lag 1: under the default bound, above --max-lag 0.
    const requeued = await ops('lag', '--json');
    expect(requeued.code).toBe(0);
    expect(json(requeued)).toMatchObject({ dead_letter_topics: [{ topic: topic.dlq, depth: 1, not_requeued: 0 }], dead_letters_waiting: 0, exit_code: 0 });
    const strict = await ops('lag', '--max-lag', '0', '--json');
    expect(strict.code).toBe(4);
    expect(json(strict)).toMatchObject({ max_lag: 0, groups_over_max_lag: [env.PROJECTOR_GROUP_ID], exit_code: 4 });
    expect(strict.stderr).toContain(`lag: group ${env.PROJECTOR_GROUP_ID} has lag 1, above --max-lag 0 (exit 4)`);

    const badBound = await ops('lag', '--max-lag', 'lots');
    expect(badBound.code).toBe(2);
    expect(badBound.stderr).toContain("--max-lag must be a whole number of records (0: any lag fails), not 'lots'");
  });

  it('backfill status --json: each checkpoint as written, and whether it finished', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opscli-checkpoints-'));
    try {
      writeFileSync(join(dir, 'bulk-submissions.json'), JSON.stringify({ kind: 'submissions', entries_total: 4, entries_done: 4, finished_at: '2026-01-02T00:00:00.000Z' }));
      writeFileSync(join(dir, 'broken.json'), '{');
      const r = await ops('backfill', 'status', '--dir', dir, '--json');
      expect(r.code).toBe(0);
      expect(json(r)).toEqual({
        directory: dir,
        checkpoints: [
          { file: join(dir, 'broken.json'), error: expect.any(String) },
          { file: join(dir, 'bulk-submissions.json'), finished: true, checkpoint: { kind: 'submissions', entries_total: 4, entries_done: 4, finished_at: '2026-01-02T00:00:00.000Z' } },
        ],
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('keys list --json', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('keys_cli');
  });
  afterAll(async () => {
    await db.drop();
  });

  it('one JSON document of every key, snake_case, never the secret', async () => {
    const env = { ...PLAIN_ENV, DATABASE_URL: db.url, API_KEY_PEPPER: 'p'.repeat(64) };
    const keys = (...args: string[]): Promise<Ran> => node('apps/api/src/keys.cli.js', args, env);
    const created = await keys('create', '--plan', 'pro', '--account', 'cli-e2e', '--label', 'json');
    expect(created.code).toBe(0);
    const id = /^key id: {2}(\S+)$/m.exec(created.stdout)?.[1];
    const secret = /^secret: {2}(\S+)$/m.exec(created.stdout)?.[1];
    expect(id && secret).toBeTruthy();
    const r = await keys('list', '--json');
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain(secret!);
    const doc = JSON.parse(r.stdout) as { keys: Array<Record<string, unknown>> };
    expect(doc.keys).toEqual([
      {
        id,
        account_id: expect.any(String),
        account_name: 'cli-e2e',
        plan: 'pro',
        mode: 'live',
        label: 'json',
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        last_used_at: null,
        revoked_at: null,
      },
    ]);
  });
});
