import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { RecordEnvelope, TopicDefinition } from '@app/contracts';
import { RecordProducer, ensureTopics, type KafkaSettings } from '@app/messaging';
import type { RecordPublisher } from './ingest-ir.service';

export const KAFKA_SETTINGS = Symbol('KAFKA_SETTINGS');

/**
 * RecordProducer behind the RecordPublisher port: creates each topic and connects on first use.
 * (The same small adapter as ingest-sec's; apps do not import each other.)
 */
@Injectable()
export class KafkaRecordPublisher implements RecordPublisher, OnApplicationShutdown {
  private readonly producer: RecordProducer;
  private connected: Promise<void> | undefined;
  private readonly ensured = new Map<string, Promise<unknown>>();

  constructor(@Inject(KAFKA_SETTINGS) private readonly settings: KafkaSettings) {
    this.producer = new RecordProducer(settings);
  }

  async publish(topic: TopicDefinition, records: readonly RecordEnvelope[]): Promise<void> {
    if (records.length === 0) return;
    let ensured = this.ensured.get(topic.name);
    if (!ensured) {
      ensured = ensureTopics(this.settings, [topic]);
      this.ensured.set(topic.name, ensured);
    }
    await ensured;
    this.connected ??= this.producer.connect();
    await this.connected;
    await this.producer.publish(topic, records);
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.connected) await this.producer.disconnect();
  }
}
