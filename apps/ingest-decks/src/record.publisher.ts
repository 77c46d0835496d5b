import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { RecordEnvelope, TopicDefinition } from '@app/contracts';
import { RecordProducer, ensureTopics, type KafkaSettings } from '@app/messaging';

export const KAFKA_SETTINGS = Symbol('KAFKA_SETTINGS');
/** The RecordPublisher the use case publishes through. */
export const RECORD_PUBLISHER = Symbol('RECORD_PUBLISHER');

/** Where records go (RecordProducer in the app, an array in tests). */
export interface RecordPublisher {
  publish(topic: TopicDefinition, records: readonly RecordEnvelope[]): Promise<void>;
}

/**
 * RecordProducer behind the RecordPublisher port: creates each topic and connects on first use.
 * Like ingest-sec's (apps do not import each other; it belongs in libs/messaging), except that a
 * failed topic creation or connection is tried again on the next publish instead of being cached:
 * this app is a long-running consumer that retries its handler while the broker is away.
 */
@Injectable()
export class KafkaRecordPublisher implements RecordPublisher, OnApplicationShutdown {
  private readonly producer: RecordProducer;
  private readonly ensured = new Set<string>();

  constructor(@Inject(KAFKA_SETTINGS) private readonly settings: KafkaSettings) {
    this.producer = new RecordProducer(settings);
  }

  async publish(topic: TopicDefinition, records: readonly RecordEnvelope[]): Promise<void> {
    if (!this.ensured.has(topic.name)) {
      await ensureTopics(this.settings, [topic]);
      this.ensured.add(topic.name);
    }
    await this.producer.connect();
    await this.producer.publish(topic, records);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.producer.disconnect();
  }
}
