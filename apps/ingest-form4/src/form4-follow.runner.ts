import { Module, type DynamicModule } from '@nestjs/common';
import { registerEdgarBudgetMetrics } from '@app/edgar';
import { startWorker, type ConsumerCounters, type RunningWorker } from '@app/messaging';
import { createMetricsRegistry, type Logger } from '@app/observability';
import { FORM4_RUN_ID, Form4FollowController, type Form4FollowCounts } from './form4-follow.controller';
import { Form4IngestService } from './form4-ingest.service';
import type { IngestForm4Config } from './ingest-form4.config';
import { IngestForm4Module, type IngestForm4ModuleOptions } from './ingest-form4.module';
import { kafkaSettingsOf } from './ingest-form4.providers';

/** ingest-form4 with the `--follow` handler of edgar.filings.v1: booted by startWorker only. */
@Module({})
export class Form4FollowModule {
  static forRoot(options: IngestForm4ModuleOptions & { runId: string }): DynamicModule {
    return {
      module: Form4FollowModule,
      imports: [IngestForm4Module.forRoot(options)],
      controllers: [Form4FollowController],
      providers: [{ provide: FORM4_RUN_ID, useValue: options.runId }],
    };
  }
}

export interface Form4FollowSummary extends ConsumerCounters, Form4FollowCounts {
  runId: string;
}

export interface Form4Follower {
  /** The use case of the worker's module, for the one-shot part of the run (FORM4_FILINGS, submissions). */
  service: Form4IngestService;
  /**
   * Consumes until `signal` aborts, or with `once` until the group has caught up; then stops
   * (the batch in flight commits) and returns the counts. Throws when the consumer died.
   */
  follow(options: { once: boolean; signal?: AbortSignal; checkMs?: number }): Promise<Form4FollowSummary>;
  /** Stops consuming and closes the module. Idempotent. */
  stop(): Promise<void>;
  /** The ops server's port, when OPS_PORT is set. */
  opsPort: number | null;
}

function edgarMetricsRegistry() {
  const registry = createMetricsRegistry();
  registerEdgarBudgetMetrics(registry);
  return registry;
}

/**
 * `--follow`: boots ingest-form4 as a microservice on edgar.filings.v1 (under KAFKA_TOPIC_NAMESPACE,
 * group FORM4_GROUP_ID, from the beginning for a new group). Consuming starts at once.
 */
export async function startForm4Follow(config: IngestForm4Config, options: { logger: Logger; runId: string }): Promise<Form4Follower> {
  const logger = options.logger.child({ runId: options.runId, useCase: 'form4-follow' });
  const settings = kafkaSettingsOf(config, logger);
  const worker: RunningWorker = await startWorker(Form4FollowModule.forRoot({ config, logger: options.logger, runId: options.runId }), {
    settings,
    groupId: config.FORM4_GROUP_ID,
    namespace: config.KAFKA_TOPIC_NAMESPACE,
    batch: { maxRecords: config.CONSUMER_BATCH_MAX_RECORDS, maxBytes: config.CONSUMER_BATCH_MAX_BYTES },
    sessionTimeoutMs: config.CONSUMER_SESSION_TIMEOUT_MS,
    logger,
    // A follower runs for days: OPS_PORT gives it /healthz, /readyz and /metrics (consumer, EDGAR budget and process metrics).
    ...(config.OPS_PORT !== undefined ? { ops: () => ({ host: config.OPS_HOST, port: config.OPS_PORT!, logger, checks: {}, registry: edgarMetricsRegistry(), maxLag: config.CONSUMER_READY_MAX_LAG }) } : {}),
  });
  const stop = () => worker.stop();
  const controller = worker.app.get(Form4FollowController);
  const summary = (): Form4FollowSummary => ({ runId: options.runId, ...worker.runner.counters, ...controller.counts });
  return {
    service: worker.app.get(Form4IngestService),
    async follow(followOptions) {
      try {
        await worker.follow(followOptions);
      } finally {
        await stop();
      }
      const counts = summary();
      logger.info(counts, 'Form 4 follow stopped');
      return counts;
    },
    stop,
    opsPort: worker.opsPort,
  };
}
