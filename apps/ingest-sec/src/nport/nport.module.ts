import { Module, type DynamicModule } from '@nestjs/common';
import { namespacedTopic, TOPICS, type TopicDefinition } from '@app/contracts';
import { createLogger, type Logger } from '@app/observability';
import { sharedIngestProviders } from '../ingest.providers';
import type { NportConfig } from './nport.config';
import { FUND_HOLDINGS_TOPIC, NPORT_CONFIG, NportIngestService } from './nport-ingest.service';

export interface NportModuleOptions {
  config: NportConfig;
  /** Defaults to TOPICS.fundHoldings under KAFKA_TOPIC_NAMESPACE. */
  topic?: TopicDefinition;
  logger?: Logger;
}

/** Composition root of the N-PORT use case: the shared ingest providers plus the use case. */
@Module({})
export class NportModule {
  static forRoot(options: NportModuleOptions): DynamicModule {
    const { config } = options;
    const logger = options.logger ?? createLogger({ level: config.LOG_LEVEL, name: 'ingest-sec-nport' });
    return {
      module: NportModule,
      providers: [
        { provide: NPORT_CONFIG, useValue: config },
        { provide: FUND_HOLDINGS_TOPIC, useValue: options.topic ?? namespacedTopic(TOPICS.fundHoldings, config.KAFKA_TOPIC_NAMESPACE) },
        ...sharedIngestProviders(config, logger, 'backfill'),
        NportIngestService,
      ],
      exports: [NportIngestService],
    };
  }
}
