// The batched projector on real Kafka and Postgres, with real SEC filings (the fixture submissions
// files): a poison record among a thousand is isolated, a projector killed with SIGKILL mid-batch
// loses and duplicates nothing (rows or webhook events), and a replay of the whole fixture
// platform's topics into a fresh database equals the live one, table by table.
import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { contentHash, namespacedTopic, TOPICS, type FilingRecordV1 } from '@app/contracts';
import { parseRecentFilings, parseSubmissions } from '@app/edgar';
import { consumerLag, ensureTopics, readTopic, RecordProducer, type KafkaSettings } from '@app/messaging';
import { createTestDatabase, expectEventually, kafkaBrokersForTests, type TestDatabase } from '@app/testing';
import { filingRecordFromSubmissions } from '../apps/ingest-sec/src/filings/filing.mapper';
import { projectorConfigSchema } from '../apps/projector/src/projector.config';
import { PROJECTED_TOPICS, startProjector, type RunningProjector } from '../apps/projector/src/projector.runner';
import { startFixturePlatform, type FixturePlatform } from './support/fixture-platform';
import { readModelDigest } from './support/read-model-digest';

jest.setTimeout(600_000);

const ROOT = join(__dirname, '..');
const SUBMISSIONS = join(ROOT, '..', 'shared', 'fixtures', 'submissions');
const PROJECTOR_MAIN = join(ROOT, 'dist', 'apps', 'projector', 'src', 'main.js');

/** Every filing of the fixture submissions files (Murphy Oil, Microsoft, Tesla): about 3,000 real records. */
function fixtureFilings(): FilingRecordV1[] {
  const records: FilingRecordV1[] = [];
  for (const file of ['CIK0000717423.json', 'CIK0000789019.json', 'CIK0001318605.json']) {
    const bytes = readFileSync(join(SUBMISSIONS, file));
    const company = parseSubmissions(bytes);
    const source = { url: `https://data.sec.gov/submissions/${file}`, contentHash: contentHash(bytes), fetchedAt: '2025-08-02T00:00:00.000Z' };
    for (const f of parseRecentFilings(bytes)) {
      const r = filingRecordFromSubmissions({ cik: company.cik, name: company.name }, f, source, { runId: 'run_projector_e2e', origin: 'live', extractedAt: source.fetchedAt });
      if (r) records.push(r);
    }
  }
  return records;
}

let settings: KafkaSettings;
let producer: RecordProducer;
const closers: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  settings = { brokers: await kafkaBrokersForTests(), clientId: 'projector-e2e', logLevel: 'nothing' };
  producer = new RecordProducer(settings);
  await producer.connect();
});

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
});

afterAll(async () => {
  await producer.disconnect();
});

async function freshDatabase(prefix: string): Promise<{ db: TestDatabase; pg: Client }> {
  const db = await createTestDatabase(prefix);
  const pg = new Client({ connectionString: db.url });
  await pg.connect();
  closers.push(() => db.drop(), () => pg.end());
  return { db, pg };
}

function projectorEnv(db: TestDatabase, namespace: string, groupId: string, extra: Record<string, string> = {}): Record<string, string> {
  return { DATABASE_URL: db.url, KAFKA_BROKERS: settings.brokers.join(','), KAFKA_TOPIC_NAMESPACE: namespace, PROJECTOR_GROUP_ID: groupId, LOG_LEVEL: 'warn', ...extra };
}

async function inProcessProjector(env: Record<string, string>): Promise<RunningProjector> {
  const p = await startProjector(projectorConfigSchema.parse(env));
  closers.push(() => p.stop());
  return p;
}

async function lagOf(groupId: string, namespace: string): Promise<number> {
  const lag = await consumerLag(settings, groupId, PROJECTED_TOPICS.map((t) => namespacedTopic(t, namespace)));
  return lag.reduce((n, p) => n + p.lag, 0);
}

describe('batched projector', () => {
  it('isolates one poison record among 1,000: it alone goes to the dead-letter topic with its reason, 999 are projected', async () => {
    const { db, pg } = await freshDatabase('projector_poison');
    const namespace = `pp${randomBytes(4).toString('hex')}`;
    const topic = namespacedTopic(TOPICS.filings, namespace);
    await ensureTopics(settings, [topic]);
    const good = fixtureFilings().slice(0, 999);
    // Valid for the schema (a YYYY-MM-DD string), not for Postgres: February has no 30th.
    const poison: FilingRecordV1 = { ...good[500]!, key: '0000000000-25-000001', data: { ...good[500]!.data, accession: '0000000000-25-000001', filed_date: '2025-02-30' } };
    await producer.publish(topic, [...good.slice(0, 500), poison, ...good.slice(500)]);

    const p = await inProcessProjector(projectorEnv(db, namespace, `projector-${namespace}`));
    await expectEventually(() => expect(p.counters()).toMatchObject({ processed: 999, dead_lettered: 1 }), { timeoutMs: 120_000 });
    const { rows } = await pg.query<{ n: number }>('SELECT count(*)::int AS n FROM filings');
    expect(rows[0]!.n).toBe(999);
    // Set-based: a batch of 500 fails whole, then its halves, down to the poison alone.
    expect(p.counters().batches).toBeGreaterThan(2);
    expect(p.counters().batches).toBeLessThan(30);
    const [dead] = await readTopic(settings, topic.dlq, { count: 1, timeoutMs: 30_000 });
    expect(dead!.key).toBe(poison.key);
    expect(dead!.headers['dlq-reason']).toMatch(/^permanent: projection rejected: .*date/);
    expect(dead!.headers['record-id']).toBe(poison.id);
  });

  it('killed with SIGKILL in the middle of a batch, then restarted: no row lost or duplicated, each webhook event made once', async () => {
    expect(existsSync(PROJECTOR_MAIN)).toBe(true); // npm test builds dist before the integration tests
    const { db, pg } = await freshDatabase('projector_kill');
    const namespace = `pk${randomBytes(4).toString('hex')}`;
    const groupId = `projector-${namespace}`;
    await ensureTopics(settings, PROJECTED_TOPICS.map((t) => namespacedTopic(t, namespace)));
    // One subscriber: each filing event gets exactly one delivery.
    await pg.query(`INSERT INTO accounts (id, name, plan) VALUES ('acct_kill', 'projector e2e', 'builder')`);
    await pg.query(`INSERT INTO webhook_endpoints (id, account_id, url, topics) VALUES ('we_kill', 'acct_kill', 'https://hooks.example.com/x', ARRAY['filing.created'])`);
    const filings = fixtureFilings();
    await producer.publish(namespacedTopic(TOPICS.filings, namespace), filings);

    const env = { ...process.env, ...projectorEnv(db, namespace, groupId, { CONSUMER_BATCH_MAX_RECORDS: '50' }) };
    const spawnProjector = (): ChildProcess => {
      const child = spawn(process.execPath, [PROJECTOR_MAIN], { env, stdio: ['ignore', 'ignore', 'pipe'] });
      closers.push(async () => void child.kill('SIGKILL'));
      return child;
    };
    const first = spawnProjector();
    // Kill while batches are being written: some filings are in, most are not.
    await expectEventually(
      async () => {
        const { rows } = await pg.query<{ n: number }>('SELECT count(*)::int AS n FROM filings');
        expect(rows[0]!.n).toBeGreaterThan(0);
      },
      { timeoutMs: 120_000, intervalMs: 20 },
    );
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    const before = await pg.query<{ id: string; deliveries: string[] }>(
      `SELECT e.id, array_agg(d.id ORDER BY d.id) AS deliveries FROM webhook_events e JOIN webhook_deliveries d ON d.event_id = e.id GROUP BY e.id`,
    );
    const filingsBefore = (await pg.query<{ n: number }>('SELECT count(*)::int AS n FROM filings')).rows[0]!.n;
    expect(filingsBefore).toBeLessThan(filings.length);
    expect(before.rows).toHaveLength(filingsBefore);

    spawnProjector();
    await expectEventually(async () => expect(await lagOf(groupId, namespace)).toBe(0), { timeoutMs: 180_000, intervalMs: 500 });
    const accessions = new Set(filings.map((f) => f.data.accession));
    const counts = await pg.query<{ filings: number; distinct_filings: number; events: number; deliveries: number; lonely: number }>(`
      SELECT (SELECT count(*)::int FROM filings) AS filings,
             (SELECT count(DISTINCT accession)::int FROM filings) AS distinct_filings,
             (SELECT count(*)::int FROM webhook_events WHERE type = 'filing.created') AS events,
             (SELECT count(*)::int FROM webhook_deliveries) AS deliveries,
             (SELECT count(*)::int FROM webhook_events e WHERE (SELECT count(*) FROM webhook_deliveries d WHERE d.event_id = e.id) <> 1) AS lonely`);
    expect(counts.rows[0]).toEqual({ filings: accessions.size, distinct_filings: accessions.size, events: accessions.size, deliveries: accessions.size, lonely: 0 });
    // The events written before the kill are the same rows, with the same deliveries.
    const after = await pg.query<{ id: string; deliveries: string[] }>(
      `SELECT e.id, array_agg(d.id ORDER BY d.id) AS deliveries FROM webhook_events e JOIN webhook_deliveries d ON d.event_id = e.id WHERE e.id = ANY($1) GROUP BY e.id`,
      [before.rows.map((r) => r.id)],
    );
    expect(new Map(after.rows.map((r) => [r.id, r.deliveries]))).toEqual(new Map(before.rows.map((r) => [r.id, r.deliveries])));
  });

  it('restarted after SIGKILL, the replacement consumes within seconds: it does not wait out the dead member\'s session', async () => {
    expect(existsSync(PROJECTOR_MAIN)).toBe(true);
    const { db, pg } = await freshDatabase('projector_rejoin');
    const namespace = `pr${randomBytes(4).toString('hex')}`;
    const topic = namespacedTopic(TOPICS.filings, namespace);
    await ensureTopics(settings, PROJECTED_TOPICS.map((t) => namespacedTopic(t, namespace)));
    const env = { ...process.env, ...projectorEnv(db, namespace, `projector-${namespace}`) };
    const spawnProjector = (): ChildProcess => {
      const child = spawn(process.execPath, [PROJECTOR_MAIN], { env, stdio: ['ignore', 'ignore', 'pipe'] });
      closers.push(async () => void child.kill('SIGKILL'));
      return child;
    };
    const projected = async (accession: string): Promise<boolean> =>
      (await pg.query<{ n: number }>('SELECT count(*)::int AS n FROM filings WHERE accession = $1', [accession])).rows[0]!.n === 1;
    const [one, two] = fixtureFilings();

    // The first projector is a member of the group, consuming: then it dies without leaving.
    const first = spawnProjector();
    await producer.publish(topic, [one!]);
    await expectEventually(async () => expect(await projected(one!.data.accession)).toBe(true), { timeoutMs: 120_000, intervalMs: 100 });
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));

    await producer.publish(topic, [two!]);
    const started = Date.now();
    spawnProjector();
    await expectEventually(async () => expect(await projected(two!.data.accession)).toBe(true), { timeoutMs: 120_000, intervalMs: 100 });
    const rejoinMs = Date.now() - started;
    console.log(`projector replacement after SIGKILL: first record projected ${rejoinMs} ms after its start`);
    // The dead member's session (CONSUMER_SESSION_TIMEOUT_MS, 10 s) bounds the wait; kafkajs' default 30 s made it about 27 s.
    expect(rejoinMs).toBeLessThan(15_000);
  });

  describe('a replay of the fixture platform into a fresh database', () => {
    let platform: FixturePlatform;

    beforeAll(async () => {
      platform = await startFixturePlatform({ prefix: 'projector_live' });
    });

    afterAll(async () => {
      await platform?.close();
    });

    it('equals the live database, table by table (rows and content hash)', async () => {
      const live = await readModelDigest(platform.pg);
      for (const table of ['companies', 'filings', 'segment_observations', 'fund_holdings', 'form4_filings', 'insider_transactions', 'roster_entries', 'documents', 'document_pages']) {
        expect({ table, rows: live[table]!.rows > 0 }).toEqual({ table, rows: true });
      }
      const { db, pg } = await freshDatabase('projector_replay');
      const groupId = `projector-replay-${randomBytes(3).toString('hex')}`;
      const replay = await inProcessProjector(projectorEnv(db, platform.namespace, groupId));
      await expectEventually(async () => expect(await lagOf(groupId, platform.namespace)).toBe(0), { timeoutMs: 300_000, intervalMs: 500 });
      await replay.stop();
      expect(await readModelDigest(pg)).toEqual(live);
    });
  });
});
