import { Module, type DynamicModule } from '@nestjs/common';
import { namespacedTopic, TOPICS, type TopicDefinition } from '@app/contracts';
import { startWorker, type RunningWorker } from '@app/messaging';
import type { EdgarPriority } from '@app/edgar';
import { createLogger, type Logger } from '@app/observability';
import { sharedIngestProviders } from '../ingest.providers';
import type { NportConfig } from './nport.config';
import { NPORT_RUN_ID, NportFollowController } from './nport-follow.controller';
import { FUND_HOLDINGS_TOPIC, NPORT_CONFIG, NportIngestService } from './nport-ingest.service';

export interface NportModuleOptions {
  config: NportConfig;
  /** Defaults to TOPICS.fundHoldings under KAFKA_TOPIC_NAMESPACE. */
  topic?: TopicDefinition;
  logger?: Logger;
  /** EDGAR budget priority: `backfill` (default) for named filings, `documents` when following new filings. */
  edgarPriority?: EdgarPriority;
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
        ...sharedIngestProviders(config, logger, options.edgarPriority ?? 'backfill'),
        NportIngestService,
      ],
      exports: [NportIngestService],
    };
  }
}

/** The N-PORT module with the `--follow` handler of edgar.filings.v1: booted by startWorker only. */
@Module({})
export class NportFollowModule {
  static forRoot(options: NportModuleOptions & { runId: string }): DynamicModule {
    return {
      module: NportFollowModule,
      imports: [NportModule.forRoot({ ...options, edgarPriority: 'documents' })],
      controllers: [NportFollowController],
      providers: [{ provide: NPORT_RUN_ID, useValue: options.runId }],
    };
  }
}

/**
 * `--follow`: boots the N-PORT module as a microservice on edgar.filings.v1 (under
 * KAFKA_TOPIC_NAMESPACE, group NPORT_GROUP_ID, from the beginning for a new group).
 */
export function startNportFollow(config: NportConfig, options: { logger: Logger; runId: string; topic?: TopicDefinition }): Promise<RunningWorker> {
  return startWorker(NportFollowModule.forRoot({ config, logger: options.logger, runId: options.runId, ...(options.topic ? { topic: options.topic } : {}) }), {
    settings: { brokers: config.KAFKA_BROKERS, clientId: config.KAFKA_CLIENT_ID ?? 'ingest-sec-nport', logger: options.logger },
    groupId: config.NPORT_GROUP_ID,
    namespace: config.KAFKA_TOPIC_NAMESPACE,
    batch: { maxRecords: config.CONSUMER_BATCH_MAX_RECORDS, maxBytes: config.CONSUMER_BATCH_MAX_BYTES },
    sessionTimeoutMs: config.CONSUMER_SESSION_TIMEOUT_MS,
    logger: options.logger.child({ runId: options.runId, useCase: 'nport-follow' }),
  });
}
