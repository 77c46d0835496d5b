import { validateRecord, type RecordEnvelope, type TopicDefinition } from '@app/contracts';
import { CompressionTypes, Partitioners, type ICustomPartitioner, type Message, type Producer } from 'kafkajs';
import { createKafka } from './kafka.client';
import type { KafkaSettings } from './kafka.settings';
import { InvalidRecordError } from './permanent.error';

/** Records per `send`: keeps requests well under the broker's default 1 MiB message batch limit. */
export const PUBLISH_BATCH_SIZE = 500;

/**
 * Value bytes per `send`: the broker refuses a record batch over message.max.bytes (1 MiB by
 * default), and 500 small records fit, but two 13F chunks of ~450 KB each do not.
 */
export const PUBLISH_BATCH_BYTES = 768 * 1024;

/** Consecutive slices of `values` of at most `maxCount` items and `maxBytes` (a larger item goes alone). */
export function byteBoundedBatches<T>(values: readonly T[], bytesOf: (v: T) => number, maxCount: number, maxBytes: number): T[][] {
  const out: T[][] = [];
  let batch: T[] = [];
  let bytes = 0;
  for (const v of values) {
    const n = bytesOf(v);
    if (batch.length > 0 && (batch.length >= maxCount || bytes + n > maxBytes)) {
      out.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(v);
    bytes += n;
  }
  if (batch.length > 0) out.push(batch);
  return out;
}

/** The header naming what a record is partitioned by, on topics that partition by something else than the key. */
export const PARTITION_KEY_HEADER = 'partition-key';

/** Kafka headers of a record, from its envelope metadata (and its topic's partitionBy). */
export function recordHeaders(record: RecordEnvelope, topic?: TopicDefinition): Record<string, string> {
  return {
    schema: record.schema,
    'record-id': record.id,
    'produced-by': record.produced_by,
    'correlation-id': record.correlation_id,
    ...(topic?.partitionBy ? { [PARTITION_KEY_HEADER]: topic.partitionBy(record) } : {}),
  };
}

/**
 * The Java-compatible murmur2 partitioner (same key, same partition as any other client), over the
 * `partition-key` header when a message has one: a dead letter or a requeued record carries its
 * headers along, so it lands where the original did.
 */
function partitionKeyPartitioner(): ReturnType<ICustomPartitioner> {
  const murmur2 = Partitioners.DefaultPartitioner();
  return ({ topic, partitionMetadata, message }) => {
    const header = message.headers?.[PARTITION_KEY_HEADER];
    const key = header === undefined ? message.key : Buffer.isBuffer(header) ? header : String(header);
    return murmur2({ topic, partitionMetadata, message: { ...message, key } });
  };
}

/**
 * kafkajs acknowledged a send without writing some of its partitions (transient: send again).
 * kafkajs 2.2.4 retries a failed produce only to the brokers that have not answered yet, so when a
 * leader dies mid-send and its partitions move to a broker that already answered for its own, those
 * partitions are never sent and send() resolves anyway (tulios/kafkajs#1798; test/three-brokers lost
 * 63 of 9,441 records this way).
 */
export class UnsentPartitionsError extends Error {
  constructor(
    readonly topic: string,
    readonly partitions: readonly number[],
  ) {
    super(`the broker acknowledged a send to ${topic} without partitions ${partitions.join(', ')} (leader moved mid-send): not written`);
    this.name = 'UnsentPartitionsError';
  }
}

/**
 * Idempotent producer (acks=all, one request in flight, so retries neither duplicate nor reorder).
 * `publish` validates every record against its topic's schemas before anything is sent.
 */
export class RecordProducer {
  private readonly producer: Producer;
  private connected = false;
  /** The partition kafkajs chose for each message being sent, to check the acknowledgement covers them all. */
  private readonly partitionOf = new WeakMap<Message, number>();

  constructor(settings: KafkaSettings) {
    this.producer = createKafka(settings).producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      createPartitioner: () => {
        const choose = partitionKeyPartitioner();
        return (args) => {
          const partition = choose(args);
          this.partitionOf.set(args.message, partition);
          return partition;
        };
      },
    });
  }

  async connect(): Promise<void> {
    if (this.connected) return;
    await this.producer.connect();
    this.connected = true;
  }

  async disconnect(): Promise<void> {
    if (!this.connected) return;
    this.connected = false;
    await this.producer.disconnect();
  }

  /**
   * Validates all records, then sends them in batches; throws InvalidRecordError (and sends
   * nothing) when any record fails. Resolves once every record is acknowledged by the broker.
   */
  async publish(topic: TopicDefinition, records: readonly RecordEnvelope[]): Promise<void> {
    const failures: Array<{ index: number; key: string | undefined; error: string }> = [];
    records.forEach((record, index) => {
      const result = validateRecord(topic, record);
      if (!result.ok) failures.push({ index, key: typeof record?.key === 'string' ? record.key : undefined, error: result.error });
    });
    if (failures.length > 0) throw new InvalidRecordError(topic.name, failures);

    const messages = records.map((record) => ({ key: record.key, value: JSON.stringify(record), headers: recordHeaders(record, topic) }) satisfies Message);
    for (const batch of byteBoundedBatches(messages, (m) => Buffer.byteLength(m.value), PUBLISH_BATCH_SIZE, PUBLISH_BATCH_BYTES)) await this.send(topic.name, batch);
  }

  /** Sends bytes as they are, without validation: for dead letters and tests only. */
  async publishRaw(topicName: string, key: string | Buffer | null, value: string | Buffer | null, headers?: Record<string, string>): Promise<void> {
    await this.send(topicName, [{ key, value, headers }]);
  }

  private async send(topic: string, messages: Message[]): Promise<void> {
    if (!this.connected) throw new Error('RecordProducer is not connected: call connect() first');
    const acknowledged = await this.producer.send({ topic, acks: -1, compression: CompressionTypes.None, messages });
    const written = new Set(acknowledged.map((r) => r.partition));
    const unsent = [...new Set(messages.map((m) => this.partitionOf.get(m) ?? -1))].filter((p) => !written.has(p));
    if (unsent.length > 0) throw new UnsentPartitionsError(topic, unsent.sort((a, b) => a - b));
  }
}
