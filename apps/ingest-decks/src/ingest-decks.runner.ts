import { startWorker, type RunningWorker } from '@app/messaging';
import { createLogger, createMetricsRegistry, type Logger } from '@app/observability';
import type { IngestDecksConfig } from './ingest-decks.config';
import { decksKafkaSettings, IngestDecksWorkerModule, type IngestDecksModuleOptions } from './ingest-decks.module';
import { IrDocumentsConsumer, type DrainSummary } from './ir-documents.consumer';

/** DECKS_GROUP_ID, under KAFKA_TOPIC_NAMESPACE like the topics: namespaces sharing a broker share no group either. */
export function decksGroupId(config: IngestDecksConfig): string {
  const namespace = config.KAFKA_TOPIC_NAMESPACE;
  return namespace ? `${namespace}.${config.DECKS_GROUP_ID}` : config.DECKS_GROUP_ID;
}

export interface DecksWorker {
  worker: RunningWorker;
  /** The counts so far, with the runner's. */
  summary(): DrainSummary;
  /**
   * Consumes until `signal` aborts, or with `once` until the group has caught up (lag 0); then
   * stops (the batch in flight commits) and returns the summary. Throws when the consumer died.
   */
  follow(options: { once: boolean; signal?: AbortSignal; checkMs?: number }): Promise<DrainSummary>;
  stop(): Promise<void>;
  /** The ops server's port, when OPS_PORT is set. */
  opsPort: number | null;
}

/**
 * Boots ingest-decks as a microservice consuming ir.documents.v1 (group decksGroupId, from the
 * beginning of the compacted topic for a new group). Consuming starts at once.
 */
export async function startDecksWorker(options: IngestDecksModuleOptions): Promise<DecksWorker> {
  const { config } = options;
  const logger: Logger = options.logger ?? createLogger({ level: config.LOG_LEVEL, name: 'ingest-decks' });
  const settings = decksKafkaSettings(config, logger);
  const worker = await startWorker(IngestDecksWorkerModule.forRoot({ ...options, logger }), {
    settings,
    groupId: decksGroupId(config),
    namespace: config.KAFKA_TOPIC_NAMESPACE,
    batch: { maxRecords: config.CONSUMER_BATCH_MAX_RECORDS, maxBytes: config.CONSUMER_BATCH_MAX_BYTES },
    sessionTimeoutMs: config.CONSUMER_SESSION_TIMEOUT_MS,
    logger,
    // A follower runs for days: OPS_PORT gives it /healthz, /readyz and /metrics (consumer and process metrics).
    ...(config.OPS_PORT !== undefined ? { ops: () => ({ host: config.OPS_HOST, port: config.OPS_PORT!, logger, checks: {}, registry: createMetricsRegistry(), maxLag: config.CONSUMER_READY_MAX_LAG }) } : {}),
  });
  const stop = () => worker.stop();
  const consumer = worker.app.get(IrDocumentsConsumer);
  const summary = (): DrainSummary => ({ runId: consumer.runId, ...consumer.counts, ...worker.runner.counters });
  return {
    worker,
    summary,
    async follow(followOptions) {
      try {
        await worker.follow(followOptions);
      } finally {
        await stop();
      }
      return summary();
    },
    stop,
    opsPort: worker.opsPort,
  };
}

/** `--once`: consumes ir.documents.v1 until the group has caught up, then stops; the summary. */
export async function drainIrDocuments(options: IngestDecksModuleOptions & { checkMs?: number }): Promise<DrainSummary> {
  const decks = await startDecksWorker(options);
  return decks.follow({ once: true, ...(options.checkMs !== undefined ? { checkMs: options.checkMs } : {}) });
}
