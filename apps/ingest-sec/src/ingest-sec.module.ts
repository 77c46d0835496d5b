import { Inject, Injectable, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { namespacedTopic, TOPICS, type RecordEnvelope, type TopicDefinition } from '@app/contracts';
import { EdgarClient } from '@app/edgar';
import { RecordProducer, ensureTopics, type KafkaSettings } from '@app/messaging';
import { createLogger, type Logger } from '@app/observability';
import type { IngestSecConfig } from './ingest-sec.config';
import { COMPANIES_TOPIC, COMPANY_PUBLISHER, INGEST_LOGGER, INGEST_SEC_CONFIG, IngestSecService, type RecordPublisher } from './ingest-sec.service';

const KAFKA_SETTINGS = Symbol('KAFKA_SETTINGS');

/** RecordProducer behind the RecordPublisher port: creates the topic and connects on first use. */
@Injectable()
export class KafkaRecordPublisher implements RecordPublisher, OnApplicationShutdown {
  private readonly producer: RecordProducer;
  private ready: Promise<void> | undefined;

  constructor(@Inject(KAFKA_SETTINGS) private readonly settings: KafkaSettings) {
    this.producer = new RecordProducer(settings);
  }

  async publish(topic: TopicDefinition, records: readonly RecordEnvelope[]): Promise<void> {
    this.ready ??= ensureTopics(this.settings, [topic]).then(() => this.producer.connect());
    await this.ready;
    await this.producer.publish(topic, records);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.producer.disconnect();
  }
}

export interface IngestSecModuleOptions {
  config: IngestSecConfig;
  /** Defaults to TOPICS.companies under KAFKA_TOPIC_NAMESPACE; tests may pass a unique copy. */
  topic?: TopicDefinition;
  logger?: Logger;
}

/** Composition root of the ingest-sec worker: config, EDGAR client, Kafka publisher, the run service. */
@Module({})
export class IngestSecModule {
  static forRoot(options: IngestSecModuleOptions): DynamicModule {
    const { config } = options;
    const logger = options.logger ?? createLogger({ level: config.LOG_LEVEL, name: 'ingest-sec' });
    return {
      module: IngestSecModule,
      providers: [
        { provide: INGEST_SEC_CONFIG, useValue: config },
        { provide: INGEST_LOGGER, useValue: logger },
        { provide: COMPANIES_TOPIC, useValue: options.topic ?? namespacedTopic(TOPICS.companies, config.KAFKA_TOPIC_NAMESPACE) },
        {
          provide: KAFKA_SETTINGS,
          useValue: { brokers: config.KAFKA_BROKERS, clientId: config.KAFKA_CLIENT_ID ?? 'ingest-sec' } satisfies KafkaSettings,
        },
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
        { provide: COMPANY_PUBLISHER, useClass: KafkaRecordPublisher },
        IngestSecService,
      ],
      exports: [IngestSecService],
    };
  }
}
