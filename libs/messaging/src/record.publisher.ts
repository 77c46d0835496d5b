import type { RecordEnvelope, TopicDefinition } from '@app/contracts';
import type { KafkaSettings } from './kafka.settings';
import { stderrLogger, type MessagingLogger } from './messaging.logger';
import { InvalidRecordError } from './permanent.error';
import { RecordProducer } from './record.producer';
import { ensureTopics } from './topics.admin';

export const DEFAULT_PUBLISH_RETRY_MS = 5 * 60_000;

/** The broker did not take a publish within the retry bound: the caller stops, reports what it published, and can resume. */
export class PublishGaveUpError extends Error {
  constructor(
    readonly topic: string,
    readonly records: number,
    readonly elapsedMs: number,
    override readonly cause: unknown,
  ) {
    super(`gave up publishing ${records} records to ${topic} after ${Math.round(elapsedMs / 1000)} s: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'PublishGaveUpError';
  }
}

/** Where an ingestor's records go: Kafka in the apps, an array in unit tests. */
export interface RecordPublisher {
  publish(topic: TopicDefinition, records: readonly RecordEnvelope[]): Promise<void>;
}

/**
 * RecordProducer behind the RecordPublisher port, shared by every ingest app: creates each topic
 * and connects on first use. A failed topic creation or connection is tried again on the next
 * publish rather than remembered, so a long-running consumer that retries its handler recovers
 * once the broker is back. `onApplicationShutdown` lets Nest disconnect it with the app.
 */
export class KafkaRecordPublisher implements RecordPublisher {
  private producer: RecordProducer;
  private readonly ensured = new Set<string>();
  private readonly logger: MessagingLogger;

  constructor(private readonly settings: KafkaSettings) {
    this.producer = new RecordProducer(settings);
    this.logger = settings.logger ?? stderrLogger;
  }

  /**
   * Publishes, riding out a broker outage: any failure but an invalid record is retried (backing
   * off 1 s doubling to 10 s, one warning per attempt with the time left) until `publishRetryMs`
   * has passed, then PublishGaveUpError. A retried batch may be published twice in part (same
   * record ids: consumers deduplicate), never lost.
   */
  async publish(topic: TopicDefinition, records: readonly RecordEnvelope[]): Promise<void> {
    if (records.length === 0) return;
    const started = Date.now();
    const boundMs = this.settings.publishRetryMs ?? DEFAULT_PUBLISH_RETRY_MS;
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.publishOnce(topic, records);
        if (attempt > 1) this.logger.info({ topic: topic.name, records: records.length, attempts: attempt, outage_ms: Date.now() - started }, 'broker took the records again: publishing resumed');
        return;
      } catch (err) {
        if (err instanceof InvalidRecordError) throw err;
        const elapsedMs = Date.now() - started;
        if (elapsedMs >= boundMs) throw new PublishGaveUpError(topic.name, records.length, elapsedMs, err);
        const delayMs = Math.min(1_000 * 2 ** (attempt - 1), 10_000, boundMs - elapsedMs);
        await this.renewProducer();
        this.logger.warn(
          { topic: topic.name, records: records.length, attempt, waited_s: Math.round(elapsedMs / 1000), gives_up_in_s: Math.round((boundMs - elapsedMs) / 1000), error: err instanceof Error ? err.message : String(err) },
          'publish failed (broker unreachable?): retrying',
        );
        await new Promise((resolve) => setTimeout(resolve, delayMs));
      }
    }
  }

  /**
   * A fresh idempotent producer (new producer id, sequence numbers from 0) for the next attempt:
   * after a send failed against a leader that died, kafkajs's sequence numbers no longer match the
   * broker's and every retry on the same producer fails with OutOfOrderSequenceNumber.
   */
  private async renewProducer(): Promise<void> {
    const old = this.producer;
    this.producer = new RecordProducer(this.settings);
    await old.disconnect().catch(() => undefined);
  }

  private async publishOnce(topic: TopicDefinition, records: readonly RecordEnvelope[]): Promise<void> {
    if (!this.ensured.has(topic.name)) {
      await ensureTopics(this.settings, [topic]);
      this.ensured.add(topic.name);
    }
    await this.producer.connect();
    await this.producer.publish(topic, records);
  }

  async close(): Promise<void> {
    await this.producer.disconnect();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.close();
  }
}
