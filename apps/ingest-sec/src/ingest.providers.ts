import { Inject, Injectable, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import type { RecordEnvelope, TopicDefinition } from '@app/contracts';
import { EdgarClient } from '@app/edgar';
import { RecordProducer, ensureTopics, type KafkaSettings } from '@app/messaging';
import type { Logger } from '@app/observability';

export const INGEST_LOGGER = Symbol('INGEST_LOGGER');
export const KAFKA_SETTINGS = Symbol('KAFKA_SETTINGS');
/** The RecordPublisher every ingest use case publishes through. */
export const RECORD_PUBLISHER = Symbol('RECORD_PUBLISHER');

/** Where records go (RecordProducer in the app, an array in tests). */
export interface RecordPublisher {
  publish(topic: TopicDefinition, records: readonly RecordEnvelope[]): Promise<void>;
}

/** RecordProducer behind the RecordPublisher port: creates each topic and connects on first use. */
@Injectable()
export class KafkaRecordPublisher implements RecordPublisher, OnApplicationShutdown {
  private readonly producer: RecordProducer;
  private connected: Promise<void> | undefined;
  private readonly ensured = new Map<string, Promise<unknown>>();

  constructor(@Inject(KAFKA_SETTINGS) private readonly settings: KafkaSettings) {
    this.producer = new RecordProducer(settings);
  }

  async publish(topic: TopicDefinition, records: readonly RecordEnvelope[]): Promise<void> {
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
    await this.producer.disconnect();
  }
}

/** The environment every ingest use case reads (edgarConfig + kafkaConfig pieces). */
export interface IngestEnvironment {
  EDGAR_USER_AGENT: string;
  EDGAR_WWW_BASE_URL: string;
  EDGAR_DATA_BASE_URL: string;
  EDGAR_MAX_RPS: number;
  EDGAR_THROTTLE_PAUSE_MS: number;
  KAFKA_BROKERS: string[];
  KAFKA_CLIENT_ID?: string;
}

/** Logger, EDGAR client and Kafka publisher shared by every ingest-sec module (companies, filings, ...). */
export function sharedIngestProviders(config: IngestEnvironment, logger: Logger): Provider[] {
  return [
    { provide: INGEST_LOGGER, useValue: logger },
    { provide: KAFKA_SETTINGS, useValue: { brokers: config.KAFKA_BROKERS, clientId: config.KAFKA_CLIENT_ID ?? 'ingest-sec' } satisfies KafkaSettings },
    {
      provide: EdgarClient,
      useFactory: () =>
        new EdgarClient({
          userAgent: config.EDGAR_USER_AGENT,
          wwwBaseUrl: config.EDGAR_WWW_BASE_URL,
          dataBaseUrl: config.EDGAR_DATA_BASE_URL,
          maxRps: config.EDGAR_MAX_RPS,
          throttlePauseMs: config.EDGAR_THROTTLE_PAUSE_MS,
          logger: logger.child({ component: 'edgar' }),
        }),
    },
    { provide: RECORD_PUBLISHER, useClass: KafkaRecordPublisher },
  ];
}
