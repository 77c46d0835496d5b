// Real broker (scripts/kafka.sh or KAFKA_BROKERS), real kafkajs: proves the client/broker pair
// (produce, group join, commit, rejoin after restart) and the runner's DLQ and retry contract.
// @infra-path: kafkajs against the broker itself (topics, groups, commits, session timeouts): docker-compose.yml's Kafka settings in containers, scripts/kafka.sh's locally.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentHash, recordId, sourceId, TOPICS, type CompanyRecordV1, type Form4Data, type TopicDefinition } from '@app/contracts';
import { expectEventually, kafkaBrokersForTests, uniqueGroupId, uniqueTopic } from '@app/testing';
import { Kafka, logLevel, Partitioners, type KafkaMessage } from 'kafkajs';
import {
  consumerLag,
  ConsumerRunner,
  ensureTopics,
  InvalidRecordError,
  PermanentError,
  RecordProducer,
  type BatchHandler,
  type ConsumerRunnerOptions,
  type KafkaSettings,
  type MessageMeta,
} from './index';
import type { RecordEnvelope } from '@app/contracts';

// testTimeout inside a jest project entry is ignored (it is a global option), so set it here.
jest.setTimeout(120_000);

const quietLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

let settings: KafkaSettings;
let producer: RecordProducer;
const runners: ConsumerRunner[] = [];

beforeAll(async () => {
  settings = { brokers: await kafkaBrokersForTests(), clientId: 'messaging-int-spec', logLevel: 'nothing' };
  producer = new RecordProducer(settings);
  await producer.connect();
});

afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.stop()));
});

afterAll(async () => {
  await producer.disconnect();
});

function company(ticker: string, name = `${ticker} Inc.`): CompanyRecordV1 {
  const url = 'https://www.sec.gov/files/company_tickers_exchange.json';
  const hash = contentHash(`${ticker}:${name}`);
  const key = `symbol ${ticker}:US`;
  return {
    schema: 'company@1',
    key,
    id: recordId(key, hash),
    observed_at: '2025-01-02T03:04:05.000Z',
    produced_by: 'messaging-int-spec',
    correlation_id: 'run_test',
    origin: 'live',
    provenance: {
      src_id: sourceId(url, hash),
      source_provider: 'sec',
      source_url: url,
      accession: null,
      quote: null,
      content_hash: hash,
      extracted_at: '2025-01-02T03:04:05.000Z',
    },
    data: {
      cik: '0000320193',
      ticker,
      market: 'US',
      name,
      listing_exchange: 'Nasdaq',
      reference_source: { source_url: url, content_hash: hash },
      detail: null,
    },
  };
}

/** A fresh single-partition copy of the real companies topic (so order across keys is total). */
async function freshTopic(suffix: string): Promise<TopicDefinition> {
  const topic = uniqueTopic({ ...TOPICS.companies, partitions: 1 }, suffix);
  const created = await ensureTopics(settings, [topic]);
  expect(created.sort()).toEqual([topic.dlq, topic.name].sort());
  return topic;
}

/** A handler that applies a batch's records one by one, all or nothing (as a transaction would). */
function eachRecord(apply: (env: RecordEnvelope, meta: MessageMeta) => void | Promise<void>, into?: string[]): BatchHandler {
  return async (batch) => {
    const applied: string[] = [];
    for (const { envelope, meta } of batch.records) {
      await apply(envelope, meta);
      applied.push(envelope.id);
    }
    into?.push(...applied);
  };
}

function runner(options: Omit<ConsumerRunnerOptions, 'settings'>): ConsumerRunner {
  const r = new ConsumerRunner({ settings, logger: quietLogger, fromBeginning: true, retry: { initialMs: 20, maxMs: 100 }, ...options });
  runners.push(r);
  return r;
}

/** Every message of a topic from the beginning, read with a throwaway group. */
async function readAll(topic: string, expected: number): Promise<KafkaMessage[]> {
  const consumer = new Kafka({ clientId: 'messaging-int-spec-reader', brokers: settings.brokers, logLevel: logLevel.NOTHING }).consumer({
    groupId: uniqueGroupId('reader'),
    maxWaitTimeInMs: 500,
  });
  const seen: KafkaMessage[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({ eachMessage: async ({ message }) => void seen.push(message) });
    await expectEventually(() => expect(seen).toHaveLength(expected));
  } finally {
    await consumer.disconnect();
  }
  return seen;
}

async function committedOffset(groupId: string, topic: TopicDefinition): Promise<string | null> {
  const lag = await consumerLag(settings, groupId, [topic]);
  return lag[0]?.committed ?? null;
}

describe('messaging against the local broker', () => {
  it('ensureTopics is idempotent and compacts compacted topics only', async () => {
    const topic = await freshTopic('ensure');
    expect(await ensureTopics(settings, [topic])).toEqual([]);
    const admin = new Kafka({ clientId: 'messaging-int-spec-admin', brokers: settings.brokers, logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    try {
      const { resources } = await admin.describeConfigs({
        includeSynonyms: false,
        resources: [topic.name, topic.dlq].map((name) => ({ type: 2, name, configNames: ['cleanup.policy'] })),
      });
      const policy = Object.fromEntries(resources.map((r) => [r.resourceName, r.configEntries[0]?.configValue]));
      expect(policy).toEqual({ [topic.name]: 'compact', [topic.dlq]: 'delete' });
    } finally {
      await admin.disconnect();
    }
  });

  it('commits what was handled: a restarted group member gets the uncommitted record, not the committed ones', async () => {
    const topic = await freshTopic('restart');
    const groupId = uniqueGroupId('restart');
    const [a, b, c, d] = ['AAA', 'BBB', 'CCC', 'DDD'].map((t) => company(t));
    await producer.publish(topic, [a!, b!, c!]);

    const first: string[] = [];
    const r1 = runner({
      groupId,
      topics: [topic],
      // Two records a batch: [AAA, BBB] is applied and committed, [CCC] never is.
      batch: { maxRecords: 2 },
      handle: eachRecord((env) => {
        // The broken dependency: CCC never gets through on this member.
        if (env.key === c!.key) throw new Error('database unavailable');
        first.push(env.key);
      }),
    });
    await r1.start();
    await expectEventually(() => {
      expect(first).toEqual([a!.key, b!.key]);
      expect(r1.counters.retries).toBeGreaterThanOrEqual(2);
    });
    await r1.stop();
    expect(r1.counters).toMatchObject({ processed: 2, dead_lettered: 0 });
    expect(await committedOffset(groupId, topic)).toBe('2');

    const second: Array<{ key: string; meta: MessageMeta }> = [];
    const r2 = runner({ groupId, topics: [topic], handle: eachRecord((env, meta) => void second.push({ key: env.key, meta })) });
    await r2.start();
    await expectEventually(() => expect(second.map((s) => s.key)).toEqual([c!.key]));
    expect(second[0]!.meta).toEqual({ topic: topic.name, partition: 0, offset: '2', timestamp: expect.stringMatching(/^\d{13}$/) as unknown });
    await producer.publish(topic, [d!]);
    await expectEventually(() => expect(second.map((s) => s.key)).toEqual([c!.key, d!.key]));
    await expectEventually(async () => expect(await committedOffset(groupId, topic)).toBe('4'));
    await r2.stop();
    expect((await r2.lag())[0]).toMatchObject({ committed: '4', high: '4', lag: 0 });
  });

  it('dead-letters malformed JSON and schema-invalid records with reason headers, and goes on', async () => {
    const topic = await freshTopic('dlq');
    const groupId = uniqueGroupId('dlq');
    const valid = company('GOOD');
    const invalid = JSON.stringify({ ...company('BAD'), data: { ...company('BAD').data, cik: '123' } });
    await producer.publishRaw(topic.name, 'symbol JUNK:US', '{"schema": "company@1", oops');
    await producer.publishRaw(topic.name, 'symbol BAD:US', invalid, { schema: 'company@1' });
    await producer.publish(topic, [valid]);

    const handled: string[] = [];
    const r = runner({ groupId, topics: [topic], handle: eachRecord(() => undefined, handled) });
    await r.start();
    await expectEventually(() => expect(handled).toEqual([valid.id]));
    await expectEventually(async () => expect(await committedOffset(groupId, topic)).toBe('3'));
    expect(r.counters).toMatchObject({ processed: 1, dead_lettered: 2, retries: 0, batches: 1 });

    const dead = await readAll(topic.dlq, 2);
    const byKey = new Map(dead.map((m) => [m.key!.toString(), m]));
    const junk = byKey.get('symbol JUNK:US')!;
    expect(junk.value!.toString()).toBe('{"schema": "company@1", oops');
    expect(junk.headers!['dlq-reason']!.toString()).toMatch(/^invalid JSON/);
    expect(junk.headers!['dlq-source-topic']!.toString()).toBe(topic.name);
    expect(junk.headers!['dlq-source-partition']!.toString()).toBe('0');
    expect(junk.headers!['dlq-source-offset']!.toString()).toBe('0');
    expect(new Date(junk.headers!['dlq-failed-at']!.toString()).getTime()).not.toBeNaN();
    const bad = byKey.get('symbol BAD:US')!;
    expect(bad.value!.toString()).toBe(invalid);
    expect(bad.headers!['dlq-reason']!.toString()).toMatch(/^invalid company@1: data\.cik/);
    expect(bad.headers!['dlq-source-offset']!.toString()).toBe('1');
    expect(bad.headers!.schema!.toString()).toBe('company@1');
  });

  it('retries a transient failure on the same record, then commits it once handled', async () => {
    const topic = await freshTopic('transient');
    const groupId = uniqueGroupId('transient');
    const [x, y] = [company('XXX'), company('YYY')];
    await producer.publish(topic, [x]);

    let calls = 0;
    const handled: string[] = [];
    const r = runner({
      groupId,
      topics: [topic],
      handle: eachRecord(() => {
        calls += 1;
        if (calls <= 2) throw new Error(`transient #${calls}`);
      }, handled),
    });
    await r.start();
    await expectEventually(() => expect(handled).toEqual([x.id]));
    await expectEventually(async () => expect(await committedOffset(groupId, topic)).toBe('1'));
    expect(calls).toBe(3);
    expect(r.counters).toEqual({ processed: 1, dead_lettered: 0, retries: 2, batches: 3 });
    await r.stop();

    // A new member of the group starts after the committed record.
    const again: string[] = [];
    const r2 = runner({ groupId, topics: [topic], handle: eachRecord(() => undefined, again) });
    await r2.start();
    await producer.publish(topic, [y]);
    await expectEventually(() => expect(again).toEqual([y.id]));
  });

  it('keeps its group membership through a handler longer than the session timeout: the record is handled once', async () => {
    const topic = await freshTopic('long');
    const groupId = uniqueGroupId('long');
    const [x, y] = [company('LNG'), company('NXT')];
    await producer.publish(topic, [x, y]);
    const handled: string[] = [];
    const r = runner({
      groupId,
      topics: [topic],
      // The broker's smallest session (group.min.session.timeout.ms, 6 s); the first record takes 9 s.
      sessionTimeoutMs: 6_000,
      batch: { maxRecords: 1 },
      handle: eachRecord(async (env) => {
        if (env.id === x.id && !handled.includes(x.id)) await new Promise((resolve) => setTimeout(resolve, 9_000));
        handled.push(env.id);
      }),
    });
    await r.start();
    await expectEventually(async () => expect(await committedOffset(groupId, topic)).toBe('2'), { timeoutMs: 30_000 });
    expect(handled).toEqual([x.id, y.id]);
  }, 60_000);

  it('keeps its group membership through a slice of many short handler calls longer than the session timeout: each record is dead-lettered once', async () => {
    // As a follower whose filings all 404: every call fails permanently in well under a second,
    // and isolating them one by one keeps the slice busy for longer than the session.
    const topic = await freshTopic('isolating');
    const groupId = uniqueGroupId('isolating');
    const records = Array.from({ length: 40 }, (_, i) => company(`ISO${i}`));
    await producer.publish(topic, records);
    const r = runner({
      groupId,
      topics: [topic],
      // The broker's smallest session (6 s); 79 calls of 150 ms (40 -> 20 + 20 -> ... -> 1s) take 12 s.
      sessionTimeoutMs: 6_000,
      handle: async () => {
        await new Promise((resolve) => setTimeout(resolve, 150));
        throw new PermanentError('document not found (404)');
      },
    });
    await r.start();
    await expectEventually(async () => expect(await committedOffset(groupId, topic)).toBe('40'), { timeoutMs: 45_000 });
    expect(r.healthy).toBe(true);
    expect(r.counters).toMatchObject({ processed: 0, dead_lettered: 40, batches: 79 });
    const dead = await readAll(topic.dlq, 40);
    expect(dead.map((m) => m.headers!['dlq-source-offset']!.toString())).toEqual(records.map((_, i) => String(i)));
  }, 60_000);

  it('isolates a PermanentError by splitting the batch: the bad record goes to the DLQ with the error, the others are applied in order', async () => {
    const topic = await freshTopic('permanent');
    const groupId = uniqueGroupId('permanent');
    const records = ['P1', 'P2', 'P3', 'PPP', 'P5', 'P6', 'P7'].map((t) => company(t));
    const p = records[3]!;
    await producer.publish(topic, records);

    const handled: string[] = [];
    const sizes: number[] = [];
    const r = runner({
      groupId,
      topics: [topic],
      handle: async (batch) => {
        sizes.push(batch.records.length);
        // All or nothing, as a transaction: a batch holding PPP applies none of its records.
        if (batch.records.some((x) => x.envelope.id === p.id)) throw new PermanentError('ticker PPP is not in the ticker map');
        handled.push(...batch.records.map((x) => x.envelope.id));
      },
    });
    await r.start();
    await expectEventually(async () => expect(await committedOffset(groupId, topic)).toBe('7'));
    expect(handled).toEqual(records.filter((x) => x !== p).map((x) => x.id));
    // 7 -> [4 | 3] -> [2 | 2] -> [1 | 1]: PPP alone, then the rest.
    expect(sizes).toEqual([7, 4, 2, 2, 1, 1, 3]);
    expect(r.counters).toEqual({ processed: 6, dead_lettered: 1, retries: 0, batches: 7 });

    const [dead] = await readAll(topic.dlq, 1);
    expect(dead!.key!.toString()).toBe(p.key);
    expect(JSON.parse(dead!.value!.toString())).toEqual(p);
    expect(dead!.headers!['dlq-reason']!.toString()).toBe('permanent: ticker PPP is not in the ticker map');
    expect(dead!.headers!['dlq-source-offset']!.toString()).toBe('3');
    expect(dead!.headers!['record-id']!.toString()).toBe(p.id);
  });

  it('cuts a fetched batch by count and by bytes', async () => {
    const topic = await freshTopic('limits');
    const records = Array.from({ length: 10 }, (_, i) => company(`L${i}`));
    await producer.publish(topic, records);
    const byCount: number[] = [];
    const r1 = runner({ groupId: uniqueGroupId('count'), topics: [topic], batch: { maxRecords: 4 }, handle: async (b) => void byCount.push(b.records.length) });
    await r1.start();
    await expectEventually(() => expect(byCount.reduce((n, x) => n + x, 0)).toBe(10));
    expect(Math.max(...byCount)).toBeLessThanOrEqual(4);

    const size = JSON.stringify(records[0]).length;
    const byBytes: number[] = [];
    const r2 = runner({ groupId: uniqueGroupId('bytes'), topics: [topic], batch: { maxBytes: Math.floor(size * 2.5) }, handle: async (b) => void byBytes.push(b.records.length) });
    await r2.start();
    await expectEventually(() => expect(byBytes.reduce((n, x) => n + x, 0)).toBe(10));
    expect(Math.max(...byBytes)).toBeLessThanOrEqual(2);
  });

  it('stop() lets the in-flight record finish and commits it', async () => {
    const topic = await freshTopic('inflight');
    const groupId = uniqueGroupId('inflight');
    const s = company('SSS');
    await producer.publish(topic, [s]);

    let entered = false;
    let finished = false;
    const r = runner({
      groupId,
      topics: [topic],
      handle: async () => {
        entered = true;
        await new Promise((resolve) => setTimeout(resolve, 500));
        finished = true;
      },
    });
    await r.start();
    await expectEventually(() => expect(entered).toBe(true), { intervalMs: 10 });
    await r.stop();
    expect(finished).toBe(true);
    expect(await committedOffset(groupId, topic)).toBe('1');
    await r.stop(); // idempotent
  });

  it('partitions form4 records by issuer (partition-key header), as Kafka would partition that key', async () => {
    const examples = JSON.parse(readFileSync(join(__dirname, '../../persistence/src/projections/examples/form4.records.json'), 'utf8')) as Record<
      'dkng' | 'dkngAmendment' | 'tsla',
      RecordEnvelope<Form4Data>
    >;
    const topic = uniqueTopic(TOPICS.form4, 'partition-by');
    await ensureTopics(settings, [topic]);
    const records = [examples.dkng, examples.tsla, examples.dkngAmendment];
    expect(examples.dkng.key).not.toBe(examples.dkngAmendment.key);
    expect(examples.dkng.data.issuer.cik).toBe(examples.dkngAmendment.data.issuer.cik);
    await producer.publish(topic, records);

    const murmur2 = Partitioners.DefaultPartitioner();
    const partitionMetadata = [0, 1, 2].map((partitionId) => ({ partitionId, leader: 0, replicas: [0], isr: [0], partitionErrorCode: 0, offlineReplicas: [] }));
    const expected = [0, 0, 0];
    for (const r of records) expected[murmur2({ topic: topic.name, partitionMetadata, message: { key: r.data.issuer.cik, value: null } })]! += 1;
    const lag = await consumerLag(settings, uniqueGroupId('nobody'), [topic]);
    expect([...lag].sort((a, b) => a.partition - b.partition).map((p) => Number(p.high))).toEqual(expected);
    const messages = await readAll(topic.name, 3);
    expect(messages.map((m) => [m.key!.toString(), m.headers!['partition-key']!.toString()]).sort()).toEqual(
      records.map((r) => [r.key, r.data.issuer.cik]).sort(),
    );
  });

  it('the producer refuses a schema-invalid record and sends nothing of the batch', async () => {
    const topic = await freshTopic('refuse');
    const good = company('OKAY');
    const bad = { ...company('NOPE'), data: { ...company('NOPE').data, ticker: '' } };
    await expect(producer.publish(topic, [good, bad])).rejects.toThrow(InvalidRecordError);
    await expect(producer.publish(topic, [good, bad])).rejects.toThrow(/#1 \(symbol NOPE:US\): invalid company@1: data\.ticker/);
    const [end] = await consumerLag(settings, uniqueGroupId('nobody'), [topic]);
    expect(end).toMatchObject({ high: '0', lag: 0 });

    // The same producer still publishes valid records with their headers.
    await producer.publish(topic, [good]);
    const [message] = await readAll(topic.name, 1);
    expect(message!.key!.toString()).toBe(good.key);
    expect(message!.headers!['schema']!.toString()).toBe('company@1');
    expect(message!.headers!['produced-by']!.toString()).toBe('messaging-int-spec');
    expect(message!.headers!['correlation-id']!.toString()).toBe('run_test');
    expect(message!.headers!['partition-key']).toBeUndefined();
  });
});
