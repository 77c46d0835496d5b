import { startWorker, type ConsumerCounters } from '@app/messaging';
import { createLogger, createMetricsRegistry, readCounter, type Registry } from '@app/observability';
import { pingDatabase } from '@app/persistence';
import type { DataSource } from 'typeorm';
import type { ProjectorConfig } from './projector.config';
import { ProjectorModule } from './projector.module';
import { PROJECTOR_DATA_SOURCE, PROJECTOR_EVENT_RELAY, ProjectorService } from './projector.service';
import type { WebhookEventRelay } from './webhook-event.relay';

export { PROJECTED_TOPICS } from './projector.service';

export interface RunningProjector {
  service: ProjectorService;
  /** The event log relay; null in log mode (a replay relays nothing). */
  relay: WebhookEventRelay | null;
  /** The ops server's port (/healthz, /readyz, /metrics), when OPS_PORT is set. */
  opsPort: number | null;
  counters(): ConsumerCounters;
  /** Why the consumer is not consuming now (rejoining, rebalancing, crashed), or null when it is. */
  notRunning(): string | null;
  stop(): Promise<void>;
}

/** Boots the projector microservice and its ops server; `stop()` finishes and commits the batch in flight first. */
export async function startProjector(config: ProjectorConfig): Promise<RunningProjector> {
  const logger = createLogger({ name: 'projector', level: config.LOG_LEVEL });
  const settings = { brokers: config.KAFKA_BROKERS, clientId: config.KAFKA_CLIENT_ID ?? 'projector', logger };
  const worker = await startWorker(ProjectorModule.forRoot(config, logger), {
    settings,
    groupId: config.PROJECTOR_GROUP_ID,
    namespace: config.KAFKA_TOPIC_NAMESPACE,
    batch: { maxRecords: config.CONSUMER_BATCH_MAX_RECORDS, maxBytes: config.CONSUMER_BATCH_MAX_BYTES },
    sessionTimeoutMs: config.CONSUMER_SESSION_TIMEOUT_MS,
    partitionsConcurrently: config.CONSUMER_PARTITIONS_CONCURRENTLY,
    logger,
    ...(config.OPS_PORT !== undefined
      ? {
          ops: (app) => ({
            host: config.OPS_HOST,
            port: config.OPS_PORT!,
            logger,
            checks: { postgres: () => pingDatabase(app.get<DataSource>(PROJECTOR_DATA_SOURCE)) },
            registry: projectorMetrics(app.get(ProjectorService), app.get<WebhookEventRelay | null>(PROJECTOR_EVENT_RELAY)),
            maxLag: config.CONSUMER_READY_MAX_LAG,
          }),
        }
      : {}),
  });
  const service = worker.app.get(ProjectorService);
  const relay = worker.app.get<WebhookEventRelay | null>(PROJECTOR_EVENT_RELAY);
  const runner = worker.runner;
  logger.info({ groupId: config.PROJECTOR_GROUP_ID, events: config.PROJECTOR_EVENTS, topics: runner.topics.map((t) => t.name) }, 'projector started');
  const progress = setInterval(() => logger.info({ ...runner.counters, ...service.counts }, 'projector progress'), 30_000);
  progress.unref();
  let stopping: Promise<void> | undefined;
  return {
    service,
    relay,
    opsPort: worker.opsPort,
    counters: () => runner.counters,
    notRunning: () => runner.notRunning,
    stop() {
      stopping ??= (async () => {
        clearInterval(progress);
        await worker.stop();
        logger.info({ ...runner.counters, ...service.counts }, 'projector stopped');
      })();
      return stopping;
    },
  };
}

/** The projector's registry: process and runtime metrics plus what the projection did. */
function projectorMetrics(service: ProjectorService, relay: WebhookEventRelay | null): Registry {
  const registry = createMetricsRegistry();
  readCounter(registry, {
    name: 'projector_records_total',
    help: 'Records projected, by what they did to the read model.',
    labelNames: ['outcome'],
    read: () => (['inserted', 'updated', 'unchanged'] as const).map((outcome) => ({ labels: { outcome }, value: service.counts[outcome] })),
  });
  readCounter(registry, { name: 'projector_webhook_events_total', help: 'Webhook events made for new or changed rows.', read: () => service.counts.events });
  readCounter(registry, { name: 'projector_webhook_deliveries_total', help: 'Deliveries queued for those events (one per subscribed endpoint).', read: () => service.counts.deliveries });
  readCounter(registry, { name: 'projector_logged_webhook_events_total', help: 'Logged webhook events a replay inserted as they were (PROJECTOR_EVENTS=log).', read: () => service.counts.loggedEvents });
  if (relay) {
    readCounter(registry, { name: 'projector_event_log_published_total', help: 'Webhook events the relay published to the event log topic.', read: () => relay.counts.published });
    readCounter(registry, { name: 'projector_event_log_failures_total', help: 'Relay steps that failed (the events stayed pending for the next step).', read: () => relay.counts.failures });
  }
  registry.registerMetric(service.freshness);
  return registry;
}
