import { Module, type DynamicModule } from '@nestjs/common';
import { namespacedTopic, TOPICS, type TopicDefinition } from '@app/contracts';
import { KafkaRecordPublisher, type RecordPublisher } from '@app/messaging';
import { createLogger, type Logger } from '@app/observability';
import { INGEST_LOGGER, RECORD_PUBLISHER } from '../ingest.providers';
import { BULK_CONFIG, BULK_TOPICS, BulkBackfillService, type BulkTopics } from './bulk-backfill.service';
import type { BulkConfig } from './bulk.config';
import { COMPANY_FACTS_TOPIC, CompanyFactsBulkService } from './companyfacts-bulk.service';

export interface BulkModuleOptions {
  config: BulkConfig;
  /** Defaults to TOPICS.filings and TOPICS.companies under KAFKA_TOPIC_NAMESPACE. */
  topics?: BulkTopics;
  /** companyfacts.zip's records: defaults to TOPICS.xbrlFacts under KAFKA_TOPIC_NAMESPACE. */
  factsTopic?: TopicDefinition;
  logger?: Logger;
  /** Defaults to the Kafka publisher every ingest app uses. */
  publisher?: RecordPublisher;
}

/** Composition root of the bulk loads of SEC's nightly zips (submissions.zip, companyfacts.zip): config, topics, the shared Kafka publisher, the services. */
@Module({})
export class BulkModule {
  static forRoot(options: BulkModuleOptions): DynamicModule {
    const { config } = options;
    const logger = options.logger ?? createLogger({ level: config.LOG_LEVEL, name: 'ingest-sec-bulk' });
    const topics = options.topics ?? {
      filings: namespacedTopic(TOPICS.filings, config.KAFKA_TOPIC_NAMESPACE),
      companies: namespacedTopic(TOPICS.companies, config.KAFKA_TOPIC_NAMESPACE),
    };
    return {
      module: BulkModule,
      providers: [
        { provide: BULK_CONFIG, useValue: config },
        { provide: BULK_TOPICS, useValue: topics },
        { provide: COMPANY_FACTS_TOPIC, useValue: options.factsTopic ?? namespacedTopic(TOPICS.xbrlFacts, config.KAFKA_TOPIC_NAMESPACE) },
        { provide: INGEST_LOGGER, useValue: logger },
        options.publisher
          ? { provide: RECORD_PUBLISHER, useValue: options.publisher }
          : { provide: RECORD_PUBLISHER, useFactory: () => new KafkaRecordPublisher({ brokers: config.KAFKA_BROKERS, clientId: config.KAFKA_CLIENT_ID ?? 'ingest-sec-bulk', publishRetryMs: config.KAFKA_PUBLISH_RETRY_MS }) },
        BulkBackfillService,
        CompanyFactsBulkService,
      ],
      exports: [BulkBackfillService, CompanyFactsBulkService],
    };
  }
}
