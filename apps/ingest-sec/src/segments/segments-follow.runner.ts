import { Module, type DynamicModule } from '@nestjs/common';
import { startWorker, type RunningWorker } from '@app/messaging';
import type { Logger } from '@app/observability';
import type { SegmentsConfig } from './segments.config';
import { SEGMENTS_RUN_ID, SegmentsFollowController } from './segments-follow.controller';
import { SegmentsModule, type SegmentsModuleOptions } from './segments.module';

/** The segments module with the `--follow` handler of edgar.filings.v1: booted by startWorker only. */
@Module({})
export class SegmentsFollowModule {
  static forRoot(options: SegmentsModuleOptions & { runId: string }): DynamicModule {
    return {
      module: SegmentsFollowModule,
      imports: [SegmentsModule.forRoot(options)],
      controllers: [SegmentsFollowController],
      providers: [{ provide: SEGMENTS_RUN_ID, useValue: options.runId }],
    };
  }
}

/**
 * `--follow`: boots the segments module as a microservice on edgar.filings.v1 (under
 * KAFKA_TOPIC_NAMESPACE, group SEGMENTS_GROUP_ID, from the beginning for a new group). Consuming
 * starts at once; `worker.follow()` waits, `worker.stop()` commits the batch in flight and closes.
 */
export function startSegmentsFollow(config: SegmentsConfig, options: { logger: Logger; runId: string }): Promise<RunningWorker> {
  return startWorker(SegmentsFollowModule.forRoot({ config, logger: options.logger, runId: options.runId }), {
    settings: { brokers: config.KAFKA_BROKERS, clientId: config.KAFKA_CLIENT_ID ?? 'ingest-sec-segments', logger: options.logger },
    groupId: config.SEGMENTS_GROUP_ID,
    namespace: config.KAFKA_TOPIC_NAMESPACE,
    batch: { maxRecords: config.CONSUMER_BATCH_MAX_RECORDS, maxBytes: config.CONSUMER_BATCH_MAX_BYTES },
    sessionTimeoutMs: config.CONSUMER_SESSION_TIMEOUT_MS,
    logger: options.logger.child({ runId: options.runId, useCase: 'segments-follow' }),
  });
}
