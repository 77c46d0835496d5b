import type { RecordEnvelope, TopicDefinition } from '@app/contracts';
import type { KafkaSettings } from './kafka.settings';
import { RecordProducer } from './record.producer';
import { ensureTopics } from './topics.admin';

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
  private readonly producer: RecordProducer;
  private readonly ensured = new Set<string>();

  constructor(private readonly settings: KafkaSettings) {
    this.producer = new RecordProducer(settings);
  }

  async publish(topic: TopicDefinition, records: readonly RecordEnvelope[]): Promise<void> {
    if (records.length === 0) return;
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
