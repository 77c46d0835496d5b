// Real Kafka + real Postgres: the projector applies company records idempotently and routes bad
// records to the dead-letter topic without stopping.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { namespacedTopic, TOPICS, type CompanyRecordV1, type FilingData, type RecordEnvelope } from '@app/contracts';
import { ensureTopics, readTopic, RecordProducer, type KafkaSettings } from '@app/messaging';
import { createTestDatabase, expectEventually, kafkaBrokersForTests, type TestDatabase } from '@app/testing';
import { projectorConfigSchema } from './projector.config';
import { startProjector, type RunningProjector } from './projector.runner';

const EXAMPLES = join(__dirname, '..', '..', '..', 'libs', 'contracts', 'src', 'examples');
const example = (file: string): CompanyRecordV1 => JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as CompanyRecordV1;

let db: TestDatabase;
let pg: Client;
let settings: KafkaSettings;
let producer: RecordProducer;
const running: RunningProjector[] = [];

function config(namespace: string, groupId: string) {
  return projectorConfigSchema.parse({
    DATABASE_URL: db.url,
    KAFKA_BROKERS: settings.brokers.join(','),
    KAFKA_TOPIC_NAMESPACE: namespace,
    PROJECTOR_GROUP_ID: groupId,
    LOG_LEVEL: 'warn',
  });
}

async function freshNamespace(): Promise<{ namespace: string; topic: ReturnType<typeof namespacedTopic> }> {
  const namespace = `t${randomBytes(4).toString('hex')}`;
  const topic = namespacedTopic(TOPICS.companies, namespace);
  await ensureTopics(settings, [topic]);
  return { namespace, topic };
}

async function start(namespace: string, groupId: string): Promise<RunningProjector> {
  const p = await startProjector(config(namespace, groupId));
  running.push(p);
  return p;
}

beforeAll(async () => {
  db = await createTestDatabase('projector');
  pg = new Client({ connectionString: db.url });
  await pg.connect();
  settings = { brokers: await kafkaBrokersForTests(), clientId: 'projector-int-spec', logLevel: 'nothing' };
  producer = new RecordProducer(settings);
  await producer.connect();
});

afterEach(async () => {
  await Promise.all(running.splice(0).map((p) => p.stop()));
});

afterAll(async () => {
  await producer.disconnect();
  await pg.end();
  await db.drop();
});

describe('projector', () => {
  it('projects a record once: the same record twice is one row, and a re-run over the topic writes nothing', async () => {
    const { namespace, topic } = await freshNamespace();
    const msft = example('company@1.msft.json');
    const brk = example('company@1.brk-b.json');
    await producer.publish(topic, [msft, brk, msft]);

    const first = await start(namespace, 'projector-a');
    await expectEventually(() => expect(first.counters().processed).toBe(3));
    expect(first.service.counts).toMatchObject({ inserted: 2, updated: 0, unchanged: 1 });
    const rows = await pg.query<{ symbol: string; cik: string; name: string; updated_at: Date; provenance: { source_url: string } }>(
      `SELECT symbol, cik, name, updated_at, provenance FROM companies WHERE symbol = ANY($1) ORDER BY symbol`,
      [['MSFT:US', 'BRK-B:US']],
    );
    expect(rows.rows.map((r) => [r.symbol, r.cik, r.name])).toEqual([
      ['BRK-B:US', brk.data.cik, brk.data.name],
      ['MSFT:US', '0000789019', 'MICROSOFT CORP'],
    ]);
    expect(rows.rows[1]!.provenance.source_url).toBe('https://data.sec.gov/submissions/CIK0000789019.json');
    await first.stop();

    // A new consumer group replays the topic from the beginning: every record is unchanged.
    const replay = await start(namespace, 'projector-b');
    await expectEventually(() => expect(replay.counters().processed).toBe(3));
    expect(replay.service.counts).toMatchObject({ inserted: 0, updated: 0, unchanged: 3 });
    const after = await pg.query<{ updated_at: Date }>(`SELECT updated_at FROM companies WHERE symbol = ANY($1) ORDER BY symbol`, [['MSFT:US', 'BRK-B:US']]);
    expect(after.rows.map((r) => r.updated_at.getTime())).toEqual(rows.rows.map((r) => r.updated_at.getTime()));
  });

  it('updates a row when the content changes and never regresses to an older record', async () => {
    const { namespace, topic } = await freshNamespace();
    const msft = example('company@1.msft.json');
    const renamed: CompanyRecordV1 = {
      ...msft,
      id: 'rec_00000000000000000000000000000001',
      observed_at: '2025-08-03T12:00:00.000Z',
      data: { ...msft.data, name: 'MICROSOFT CORPORATION' },
    };
    await producer.publish(topic, [msft, renamed, msft]);
    const p = await start(namespace, 'projector-c');
    await expectEventually(() => expect(p.counters().processed).toBe(3));
    const { rows } = await pg.query<{ name: string }>(`SELECT name FROM companies WHERE symbol = 'MSFT:US'`);
    expect(rows[0]!.name).toBe('MICROSOFT CORPORATION');
    expect(p.service.counts.unchanged).toBeGreaterThanOrEqual(1);
  });

  it('records when a filing live discovery found was published and served, observes served and event_created, and ignores backfills', async () => {
    const namespace = `t${randomBytes(4).toString('hex')}`;
    const topic = namespacedTopic(TOPICS.filings, namespace);
    await ensureTopics(settings, [topic]);
    const backfill = JSON.parse(readFileSync(join(EXAMPLES, 'filing@1.msft-10-k.json'), 'utf8')) as RecordEnvelope<FilingData>;
    const accession = '0000950170-26-000042';
    const acceptedAt = new Date(Date.now() - 3_000);
    const live: RecordEnvelope<FilingData> = {
      ...backfill,
      key: accession,
      id: `rec_${'42'.repeat(16)}`,
      observed_at: new Date(acceptedAt.getTime() + 1_000).toISOString(),
      provenance: { ...backfill.provenance, accession },
      data: { ...backfill.data, accession, form: '8-K', items: ['2.02'], accepted_at: acceptedAt.toISOString(), source: 'latest_filings' },
    };
    const publishedFrom = Date.now();
    await producer.publish(topic, [backfill, live]);
    const publishedTo = Date.now();
    const p = await start(namespace, 'projector-freshness');
    await expectEventually(() => expect(p.counters().processed).toBe(2));

    const { rows } = await pg.query<{ accession: string; first_seen_at: Date; first_seen_source: string; published_at: Date; projected_at: Date }>(
      `SELECT accession, first_seen_at, first_seen_source, published_at, projected_at FROM filing_freshness WHERE accession = ANY($1)`,
      [[accession, backfill.key]],
    );
    expect(rows.map((r) => [r.accession, r.first_seen_at.toISOString(), r.first_seen_source])).toEqual([[accession, live.observed_at, 'latest_filings']]);
    // The Kafka timestamp the producer stamped, and the projector's clock after it.
    expect(rows[0]!.published_at.getTime()).toBeGreaterThanOrEqual(publishedFrom - 1_000);
    expect(rows[0]!.published_at.getTime()).toBeLessThanOrEqual(publishedTo + 1_000);
    expect(rows[0]!.projected_at.getTime()).toBeGreaterThanOrEqual(rows[0]!.published_at.getTime() - 1_000);

    const counts = (await p.service.freshness.get()).values.filter((v) => v.metricName === 'filing_freshness_seconds_count');
    expect(counts.map((v) => [v.labels, v.value])).toEqual([
      [{ stage: 'served' }, 1],
      [{ stage: 'event_created', event_type: 'filing.created' }, 1],
    ]);
    const sums = (await p.service.freshness.get()).values.filter((v) => v.metricName === 'filing_freshness_seconds_sum');
    // Served about 3 s after acceptance (the record was accepted 3 s before the test published it), not years (the backfill).
    for (const v of sums) expect(v.value).toBeGreaterThanOrEqual(3);
    for (const v of sums) expect(v.value).toBeLessThan(60);
  });

  it('sends a malformed record to the dead-letter topic and still projects the next one', async () => {
    const { namespace, topic } = await freshNamespace();
    const brk = example('company@1.brk-b.json');
    const invalid = { ...brk, data: { ...brk.data, cik: '12' } } as RecordEnvelope;
    await producer.publishRaw(topic.name, 'JUNK:US', '{"schema": "company@1", "data": ');
    await producer.publishRaw(topic.name, 'BRK-B:US', JSON.stringify(invalid));
    await producer.publish(topic, [brk]);

    const p = await start(namespace, 'projector-d');
    await expectEventually(() => expect(p.counters()).toMatchObject({ processed: 1, dead_lettered: 2 }));
    const { rows } = await pg.query<{ cik: string }>(`SELECT cik FROM companies WHERE symbol = 'BRK-B:US'`);
    expect(rows).toEqual([{ cik: brk.data.cik }]);

    const dead = await readTopic(settings, topic.dlq, { count: 2, timeoutMs: 30_000 });
    expect(dead.map((m) => m.key).sort()).toEqual(['BRK-B:US', 'JUNK:US']);
    const reasons = Object.fromEntries(dead.map((m) => [m.key, m.headers['dlq-reason']]));
    expect(reasons['JUNK:US']).toMatch(/^invalid JSON/);
    expect(reasons['BRK-B:US']).toMatch(/data\.cik/);
  });
});
