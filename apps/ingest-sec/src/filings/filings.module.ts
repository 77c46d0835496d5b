import { Module, type DynamicModule } from '@nestjs/common';
import { namespacedTopic, TOPICS, type TopicDefinition } from '@app/contracts';
import { createLogger, type Logger } from '@app/observability';
import { sharedIngestProviders } from '../ingest.providers';
import { FILINGS_TOPIC, FilingsBackfillService } from './filings-backfill.service';
import { FILINGS_CONFIG, FilingsLiveService } from './filings-live.service';
import { FilingsQuarterService } from './filings-quarter.service';
import type { FilingsConfig } from './filings.config';

export interface FilingsModuleOptions {
  config: FilingsConfig;
  /** Defaults to TOPICS.filings under KAFKA_TOPIC_NAMESPACE. */
  topic?: TopicDefinition;
  logger?: Logger;
}

/** Composition root of the filings use case: shared EDGAR client and publisher, backfill, live and quarter services. */
@Module({})
export class FilingsModule {
  static forRoot(options: FilingsModuleOptions): DynamicModule {
    const { config } = options;
    const logger = options.logger ?? createLogger({ level: config.LOG_LEVEL, name: 'ingest-sec-filings' });
    return {
      module: FilingsModule,
      providers: [
        { provide: FILINGS_CONFIG, useValue: config },
        { provide: FILINGS_TOPIC, useValue: options.topic ?? namespacedTopic(TOPICS.filings, config.KAFKA_TOPIC_NAMESPACE) },
        ...sharedIngestProviders(config, logger),
        FilingsBackfillService,
        FilingsLiveService,
        FilingsQuarterService,
      ],
      exports: [FilingsBackfillService, FilingsLiveService, FilingsQuarterService],
    };
  }
}
