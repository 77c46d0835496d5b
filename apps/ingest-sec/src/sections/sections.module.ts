import { Module, type DynamicModule } from '@nestjs/common';
import { namespacedTopic, TOPICS, type TopicDefinition } from '@app/contracts';
import { startWorker, type RunningWorker } from '@app/messaging';
import { createLogger, type Logger } from '@app/observability';
import { sharedIngestProviders } from '../ingest.providers';
import type { SectionsConfig } from './sections.config';
import { SECTIONS_RUN_ID, SectionsFollowController } from './sections-follow.controller';
import { SECTIONS_TOPIC, SectionsService } from './sections.service';

export interface SectionsModuleOptions {
  config: SectionsConfig;
  /** Defaults to TOPICS.tenkSections under KAFKA_TOPIC_NAMESPACE. */
  topic?: TopicDefinition;
  logger?: Logger;
}

/** Composition root of the 10-K sections use case of ingest-sec. */
@Module({})
export class SectionsModule {
  static forRoot(options: SectionsModuleOptions): DynamicModule {
    const { config } = options;
    const logger = options.logger ?? createLogger({ level: config.LOG_LEVEL, name: 'ingest-sec-sections' });
    return {
      module: SectionsModule,
      providers: [
        { provide: SECTIONS_TOPIC, useValue: options.topic ?? namespacedTopic(TOPICS.tenkSections, config.KAFKA_TOPIC_NAMESPACE) },
        ...sharedIngestProviders(config, logger),
        SectionsService,
      ],
      exports: [SectionsService],
    };
  }
}

/** The sections module with the `--follow` handler of edgar.filings.v1: booted by startWorker only. */
@Module({})
export class SectionsFollowModule {
  static forRoot(options: SectionsModuleOptions & { runId: string }): DynamicModule {
    return {
      module: SectionsFollowModule,
      imports: [SectionsModule.forRoot(options)],
      controllers: [SectionsFollowController],
      providers: [{ provide: SECTIONS_RUN_ID, useValue: options.runId }],
    };
  }
}

/**
 * `--follow`: boots the sections module as a microservice on edgar.filings.v1 (under
 * KAFKA_TOPIC_NAMESPACE, group SECTIONS_GROUP_ID, from the beginning for a new group).
 */
export function startSectionsFollow(config: SectionsConfig, options: { logger: Logger; runId: string; topic?: TopicDefinition }): Promise<RunningWorker> {
  return startWorker(SectionsFollowModule.forRoot({ config, logger: options.logger, runId: options.runId, ...(options.topic ? { topic: options.topic } : {}) }), {
    settings: { brokers: config.KAFKA_BROKERS, clientId: config.KAFKA_CLIENT_ID ?? 'ingest-sec-sections', logger: options.logger },
    groupId: config.SECTIONS_GROUP_ID,
    namespace: config.KAFKA_TOPIC_NAMESPACE,
    batch: { maxRecords: config.CONSUMER_BATCH_MAX_RECORDS, maxBytes: config.CONSUMER_BATCH_MAX_BYTES },
    sessionTimeoutMs: config.CONSUMER_SESSION_TIMEOUT_MS,
    logger: options.logger.child({ runId: options.runId, useCase: 'sections-follow' }),
  });
}
