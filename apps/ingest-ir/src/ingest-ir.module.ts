import { Module, type DynamicModule } from '@nestjs/common';
import { namespacedTopic, TOPICS } from '@app/contracts';
import { KafkaRecordPublisher } from '@app/messaging';
import { createLogger, type Logger } from '@app/observability';
import type { IngestIrConfig } from './ingest-ir.config';
import { IngestIrService, IR_CONFIG, IR_LOGGER, IR_TOPICS, RECORD_PUBLISHER, type IrTopics } from './ingest-ir.service';

export interface IngestIrModuleOptions {
  config: IngestIrConfig;
  /** Defaults to the ir.* topics under KAFKA_TOPIC_NAMESPACE. */
  topics?: IrTopics;
  logger?: Logger;
}

/** Composition root of the IR crawl: config, logger, Kafka publisher, the use case. */
@Module({})
export class IngestIrModule {
  static forRoot(options: IngestIrModuleOptions): DynamicModule {
    const { config } = options;
    const ns = config.KAFKA_TOPIC_NAMESPACE;
    const logger = options.logger ?? createLogger({ level: config.LOG_LEVEL, name: 'ingest-ir' });
    const topics: IrTopics = options.topics ?? {
      roster: namespacedTopic(TOPICS.issuerRoster, ns),
      documents: namespacedTopic(TOPICS.issuerDocuments, ns),
      descriptions: namespacedTopic(TOPICS.companyDescriptions, ns),
      sites: namespacedTopic(TOPICS.irSites, ns),
    };
    return {
      module: IngestIrModule,
      providers: [
        { provide: IR_CONFIG, useValue: config },
        { provide: IR_LOGGER, useValue: logger },
        { provide: IR_TOPICS, useValue: topics },
        { provide: RECORD_PUBLISHER, useFactory: () => new KafkaRecordPublisher({ brokers: config.KAFKA_BROKERS, clientId: config.KAFKA_CLIENT_ID ?? 'ingest-ir', publishRetryMs: config.KAFKA_PUBLISH_RETRY_MS }) },
        IngestIrService,
      ],
      exports: [IngestIrService],
    };
  }
}
