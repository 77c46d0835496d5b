import { Module, type DynamicModule } from '@nestjs/common';
import { namespacedTopic, TOPICS } from '@app/contracts';
import { startWorker, type RunningWorker } from '@app/messaging';
import type { EdgarPriority } from '@app/edgar';
import { createLogger, type Logger } from '@app/observability';
import { sharedIngestProviders } from '../ingest.providers';
import type { EightKConfig } from './eightk.config';
import { EIGHTK_RUN_ID, EightKFollowController } from './eightk-follow.controller';
import { EIGHTK_DOCUMENTS_TOPIC, EIGHTK_FILINGS_TOPIC, EIGHTK_MAX_BYTES, EightKService } from './eightk.service';

export interface EightKModuleOptions {
  config: EightKConfig;
  logger?: Logger;
  /** EDGAR budget priority: `backfill` (default) for named filings, `documents` when following new filings. */
  edgarPriority?: EdgarPriority;
}

/** Composition root of the 8-K use case: the shared ingest providers plus the use case. */
@Module({})
export class EightKModule {
  static forRoot(options: EightKModuleOptions): DynamicModule {
    const { config } = options;
    const logger = options.logger ?? createLogger({ level: config.LOG_LEVEL, name: 'ingest-sec-eightk' });
    return {
      module: EightKModule,
      providers: [
        { provide: EIGHTK_DOCUMENTS_TOPIC, useValue: namespacedTopic(TOPICS.documentTexts, config.KAFKA_TOPIC_NAMESPACE) },
        { provide: EIGHTK_FILINGS_TOPIC, useValue: namespacedTopic(TOPICS.filings, config.KAFKA_TOPIC_NAMESPACE) },
        { provide: EIGHTK_MAX_BYTES, useValue: config.EIGHTK_MAX_SUBMISSION_BYTES },
        ...sharedIngestProviders(config, logger, options.edgarPriority ?? 'backfill'),
        EightKService,
      ],
      exports: [EightKService],
    };
  }
}

/** The 8-K module with the `--follow` handler of edgar.filings.v1: booted by startWorker only. */
@Module({})
export class EightKFollowModule {
  static forRoot(options: EightKModuleOptions & { runId: string }): DynamicModule {
    return {
      module: EightKFollowModule,
      imports: [EightKModule.forRoot({ ...options, edgarPriority: 'documents' })],
      controllers: [EightKFollowController],
      providers: [{ provide: EIGHTK_RUN_ID, useValue: options.runId }],
    };
  }
}

/**
 * `--follow`: boots the 8-K module as a microservice on edgar.filings.v1 (under
 * KAFKA_TOPIC_NAMESPACE, group EIGHTK_GROUP_ID, from the beginning for a new group).
 */
export function startEightKFollow(config: EightKConfig, options: { logger: Logger; runId: string }): Promise<RunningWorker> {
  return startWorker(EightKFollowModule.forRoot({ config, logger: options.logger, runId: options.runId }), {
    settings: { brokers: config.KAFKA_BROKERS, clientId: config.KAFKA_CLIENT_ID ?? 'ingest-sec-eightk', logger: options.logger },
    groupId: config.EIGHTK_GROUP_ID,
    namespace: config.KAFKA_TOPIC_NAMESPACE,
    batch: { maxRecords: config.CONSUMER_BATCH_MAX_RECORDS, maxBytes: config.CONSUMER_BATCH_MAX_BYTES },
    sessionTimeoutMs: config.CONSUMER_SESSION_TIMEOUT_MS,
    logger: options.logger.child({ runId: options.runId, useCase: 'eightk-follow' }),
  });
}
