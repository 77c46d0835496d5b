import { Module, type DynamicModule } from '@nestjs/common';
import { namespacedTopic, TOPICS, type TopicDefinition } from '@app/contracts';
import { KafkaRecordPublisher, type KafkaSettings } from '@app/messaging';
import { createLogger, type Logger } from '@app/observability';
import type { IngestDecksConfig } from './ingest-decks.config';
import { DECKS_CONFIG, DECKS_LOGGER, DOCUMENT_TEXTS_TOPIC, IngestDecksService } from './ingest-decks.service';
import { IR_DOCUMENTS_TOPIC, IrDocumentsConsumer } from './ir-documents.consumer';
import { KAFKA_SETTINGS, RECORD_PUBLISHER } from './record.publisher';

export interface IngestDecksModuleOptions {
  config: IngestDecksConfig;
  /** Defaults to TOPICS.issuerDocuments under KAFKA_TOPIC_NAMESPACE. */
  sourceTopic?: TopicDefinition;
  /** Defaults to TOPICS.documentTexts under KAFKA_TOPIC_NAMESPACE. */
  targetTopic?: TopicDefinition;
  logger?: Logger;
}

/** Composition root of ingest-decks: config, logger, Kafka publisher, the use case and its consumer. */
@Module({})
export class IngestDecksModule {
  static forRoot(options: IngestDecksModuleOptions): DynamicModule {
    const { config } = options;
    const logger = options.logger ?? createLogger({ level: config.LOG_LEVEL, name: 'ingest-decks' });
    const settings: KafkaSettings = { brokers: config.KAFKA_BROKERS, clientId: config.KAFKA_CLIENT_ID ?? 'ingest-decks', logger };
    return {
      module: IngestDecksModule,
      providers: [
        { provide: DECKS_CONFIG, useValue: config },
        { provide: DECKS_LOGGER, useValue: logger },
        { provide: KAFKA_SETTINGS, useValue: settings },
        { provide: IR_DOCUMENTS_TOPIC, useValue: options.sourceTopic ?? namespacedTopic(TOPICS.issuerDocuments, config.KAFKA_TOPIC_NAMESPACE) },
        { provide: DOCUMENT_TEXTS_TOPIC, useValue: options.targetTopic ?? namespacedTopic(TOPICS.documentTexts, config.KAFKA_TOPIC_NAMESPACE) },
        { provide: RECORD_PUBLISHER, useFactory: () => new KafkaRecordPublisher(settings) },
        IngestDecksService,
        IrDocumentsConsumer,
      ],
      exports: [IngestDecksService, IrDocumentsConsumer],
    };
  }
}
