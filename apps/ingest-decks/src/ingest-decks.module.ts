import { Module, type DynamicModule } from '@nestjs/common';
import { namespacedTopic, TOPICS, type TopicDefinition } from '@app/contracts';
import { KafkaRecordPublisher, type KafkaSettings } from '@app/messaging';
import { createLogger, type Logger } from '@app/observability';
import type { IngestDecksConfig } from './ingest-decks.config';
import { DECKS_CONFIG, DECKS_LOGGER, DOCUMENT_TEXTS_TOPIC, IngestDecksService } from './ingest-decks.service';
import { IrDocumentsConsumer } from './ir-documents.consumer';
import { KAFKA_SETTINGS, RECORD_PUBLISHER } from './record.publisher';

export interface IngestDecksModuleOptions {
  config: IngestDecksConfig;
  /** Defaults to TOPICS.documentTexts under KAFKA_TOPIC_NAMESPACE. */
  targetTopic?: TopicDefinition;
  logger?: Logger;
}

/** Kafka settings of ingest-decks (publisher and consumer). */
export function decksKafkaSettings(config: IngestDecksConfig, logger?: Logger): KafkaSettings {
  return { brokers: config.KAFKA_BROKERS, clientId: config.KAFKA_CLIENT_ID ?? 'ingest-decks', publishRetryMs: config.KAFKA_PUBLISH_RETRY_MS, ...(logger ? { logger } : {}) };
}

/** Composition root of ingest-decks: config, logger, Kafka publisher and the use case (`--url` boots this alone). */
@Module({})
export class IngestDecksModule {
  static forRoot(options: IngestDecksModuleOptions): DynamicModule {
    const { config } = options;
    const logger = options.logger ?? createLogger({ level: config.LOG_LEVEL, name: 'ingest-decks' });
    const settings = decksKafkaSettings(config, logger);
    return {
      module: IngestDecksModule,
      providers: [
        { provide: DECKS_CONFIG, useValue: config },
        { provide: DECKS_LOGGER, useValue: logger },
        { provide: KAFKA_SETTINGS, useValue: settings },
        { provide: DOCUMENT_TEXTS_TOPIC, useValue: options.targetTopic ?? namespacedTopic(TOPICS.documentTexts, config.KAFKA_TOPIC_NAMESPACE) },
        { provide: RECORD_PUBLISHER, useFactory: () => new KafkaRecordPublisher(settings) },
        IngestDecksService,
      ],
      exports: [IngestDecksService],
    };
  }
}

/** ingest-decks with its consumer of ir.documents.v1: booted by startWorker only (ingest-decks.runner.ts). */
@Module({})
export class IngestDecksWorkerModule {
  static forRoot(options: IngestDecksModuleOptions): DynamicModule {
    return { module: IngestDecksWorkerModule, imports: [IngestDecksModule.forRoot(options)], controllers: [IrDocumentsConsumer] };
  }
}
