import { Module, type DynamicModule } from '@nestjs/common';
import { namespacedTopic, TOPICS, type TopicDefinition } from '@app/contracts';
import { createLogger, type Logger } from '@app/observability';
import type { IngestSecConfig } from './ingest-sec.config';
import { COMPANIES_TOPIC, INGEST_SEC_CONFIG, IngestSecService } from './ingest-sec.service';
import { sharedIngestProviders } from './ingest.providers';

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
        { provide: COMPANIES_TOPIC, useValue: options.topic ?? namespacedTopic(TOPICS.companies, config.KAFKA_TOPIC_NAMESPACE) },
        ...sharedIngestProviders(config, logger, 'backfill'),
        IngestSecService,
      ],
      exports: [IngestSecService],
    };
  }
}
