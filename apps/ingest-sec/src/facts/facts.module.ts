import { Module, type DynamicModule } from '@nestjs/common';
import { namespacedTopic, TOPICS, type TopicDefinition } from '@app/contracts';
import { createLogger, type Logger } from '@app/observability';
import { sharedIngestProviders } from '../ingest.providers';
import type { FactsConfig } from './facts.config';
import { CompanyFactsService, FACTS_TOPIC } from './facts.service';

export interface FactsModuleOptions {
  config: FactsConfig;
  /** Defaults to TOPICS.xbrlFacts under KAFKA_TOPIC_NAMESPACE. */
  topic?: TopicDefinition;
  logger?: Logger;
}

/** Composition root of `facts`: the EDGAR client (history priority), the shared publisher, the service. */
@Module({})
export class FactsModule {
  static forRoot(options: FactsModuleOptions): DynamicModule {
    const { config } = options;
    const logger = options.logger ?? createLogger({ level: config.LOG_LEVEL, name: 'ingest-sec-facts' });
    return {
      module: FactsModule,
      providers: [
        { provide: FACTS_TOPIC, useValue: options.topic ?? namespacedTopic(TOPICS.xbrlFacts, config.KAFKA_TOPIC_NAMESPACE) },
        ...sharedIngestProviders(config, logger, 'backfill'),
        CompanyFactsService,
      ],
      exports: [CompanyFactsService],
    };
  }
}
