import { Module, type DynamicModule } from '@nestjs/common';
import { namespacedTopic, TOPICS } from '@app/contracts';
import { startWorker, type RunningWorker } from '@app/messaging';
import type { EdgarPriority } from '@app/edgar';
import { createLogger, type Logger } from '@app/observability';
import { sharedIngestProviders } from '../ingest.providers';
import type { ThirteenFConfig } from './thirteenf.config';
import { THIRTEENF_RUN_ID, ThirteenFFollowController } from './thirteenf-follow.controller';
import { ThirteenFListService, THIRTEENF_SECURITIES_TOPIC } from './thirteenf-list.service';
import { THIRTEENF_HOLDINGS_TOPIC, THIRTEENF_MAX_BYTES, ThirteenFService } from './thirteenf.service';

export interface ThirteenFModuleOptions {
  config: ThirteenFConfig;
  logger?: Logger;
  /** EDGAR budget priority: `backfill` (default) for named filings and the list, `documents` when following new filings. */
  edgarPriority?: EdgarPriority;
}

/** Composition root of the 13F use cases (filings, the 13(f) securities list): the shared ingest providers plus both. */
@Module({})
export class ThirteenFModule {
  static forRoot(options: ThirteenFModuleOptions): DynamicModule {
    const { config } = options;
    const logger = options.logger ?? createLogger({ level: config.LOG_LEVEL, name: 'ingest-sec-13f' });
    return {
      module: ThirteenFModule,
      providers: [
        { provide: THIRTEENF_HOLDINGS_TOPIC, useValue: namespacedTopic(TOPICS.thirteenFHoldings, config.KAFKA_TOPIC_NAMESPACE) },
        { provide: THIRTEENF_SECURITIES_TOPIC, useValue: namespacedTopic(TOPICS.thirteenFSecurities, config.KAFKA_TOPIC_NAMESPACE) },
        { provide: THIRTEENF_MAX_BYTES, useValue: config.THIRTEENF_MAX_SUBMISSION_BYTES },
        ...sharedIngestProviders(config, logger, options.edgarPriority ?? 'backfill'),
        ThirteenFService,
        ThirteenFListService,
      ],
      exports: [ThirteenFService, ThirteenFListService],
    };
  }
}

/** The 13F module with the `--follow` handler of edgar.filings.v1: booted by startWorker only. */
@Module({})
export class ThirteenFFollowModule {
  static forRoot(options: ThirteenFModuleOptions & { runId: string }): DynamicModule {
    return {
      module: ThirteenFFollowModule,
      imports: [ThirteenFModule.forRoot({ ...options, edgarPriority: 'documents' })],
      controllers: [ThirteenFFollowController],
      providers: [{ provide: THIRTEENF_RUN_ID, useValue: options.runId }],
    };
  }
}

/**
 * `13f --follow`: boots the 13F module as a microservice on edgar.filings.v1 (under
 * KAFKA_TOPIC_NAMESPACE, group THIRTEENF_GROUP_ID, from the beginning for a new group).
 */
export function startThirteenFFollow(config: ThirteenFConfig, options: { logger: Logger; runId: string }): Promise<RunningWorker> {
  return startWorker(ThirteenFFollowModule.forRoot({ config, logger: options.logger, runId: options.runId }), {
    settings: { brokers: config.KAFKA_BROKERS, clientId: config.KAFKA_CLIENT_ID ?? 'ingest-sec-13f', logger: options.logger },
    groupId: config.THIRTEENF_GROUP_ID,
    namespace: config.KAFKA_TOPIC_NAMESPACE,
    batch: { maxRecords: config.CONSUMER_BATCH_MAX_RECORDS, maxBytes: config.CONSUMER_BATCH_MAX_BYTES },
    sessionTimeoutMs: config.CONSUMER_SESSION_TIMEOUT_MS,
    logger: options.logger.child({ runId: options.runId, useCase: '13f-follow' }),
  });
}
