import { Module, type DynamicModule } from '@nestjs/common';
import { namespacedTopic, TOPICS } from '@app/contracts';
import { GroupActiveError, KafkaRecordPublisher, resetGroupToEarliest, startWorker, type RunningWorker } from '@app/messaging';
import { createLogger, type Logger } from '@app/observability';
import type { IngestIrConfig } from './ingest-ir.config';
import { IngestIrService, IR_CONFIG, IR_LOGGER, IR_TOPICS, RECORD_PUBLISHER, type IrTopics } from './ingest-ir.service';
import { IrFollowController } from './ir-follow.controller';
import { IR_FOLLOW_RUN_ID, IrSitesFollower } from './ir-follow.service';

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
      exports: [IngestIrService, IR_CONFIG, IR_LOGGER],
    };
  }
}

/** The IR module with the `--follow` handler of edgar.companies.v1: booted by startWorker only. */
@Module({})
export class IngestIrFollowModule {
  static forRoot(options: IngestIrModuleOptions & { runId: string }): DynamicModule {
    return {
      module: IngestIrFollowModule,
      imports: [IngestIrModule.forRoot(options)],
      controllers: [IrFollowController],
      providers: [{ provide: IR_FOLLOW_RUN_ID, useValue: options.runId }, IrSitesFollower],
    };
  }
}

/**
 * `--follow`: rewinds group IR_GROUP_ID to the beginning of edgar.companies.v1 and
 * edgar.tenk-sections.v1 (both compacted), so a restart learns every company and the IR website its
 * 10-K names again and recrawls it with conditional GETs, then boots the IR module as a
 * microservice on those topics (under KAFKA_TOPIC_NAMESPACE).
 */
export async function startIrFollow(config: IngestIrConfig, options: { logger: Logger; runId: string; topics?: IrTopics }): Promise<RunningWorker> {
  const settings = { brokers: config.KAFKA_BROKERS, clientId: config.KAFKA_CLIENT_ID ?? 'ingest-ir', logger: options.logger };
  const followed = [TOPICS.companies, TOPICS.tenkSections].map((t) => namespacedTopic(t, config.KAFKA_TOPIC_NAMESPACE).name);
  try {
    await resetGroupToEarliest(settings, config.IR_GROUP_ID, followed);
  } catch (error) {
    // Another member is live (a second replica): it holds the set; this one goes on from the committed offsets.
    if (!(error instanceof GroupActiveError)) throw error;
    options.logger.warn({ groupId: config.IR_GROUP_ID, error: error.message }, 'IR follow: group active, not rewound');
  }
  return startWorker(IngestIrFollowModule.forRoot({ config, logger: options.logger, runId: options.runId, ...(options.topics ? { topics: options.topics } : {}) }), {
    settings,
    groupId: config.IR_GROUP_ID,
    namespace: config.KAFKA_TOPIC_NAMESPACE,
    fromBeginning: true,
    batch: { maxRecords: config.CONSUMER_BATCH_MAX_RECORDS, maxBytes: config.CONSUMER_BATCH_MAX_BYTES },
    sessionTimeoutMs: config.CONSUMER_SESSION_TIMEOUT_MS,
    logger: options.logger.child({ runId: options.runId, useCase: 'ir-follow' }),
  });
}
