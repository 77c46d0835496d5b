import { Pool } from 'pg';
import { createLogger, createMetricsRegistry, readCounter, readGauge, runChecks, startOpsServer, type OpsServer, type Registry } from '@app/observability';
import { createDataSource, DISPATCH_PLANNER_OPTIONS, pingDatabase, listenForNewDeliveries, WebhookDispatchRepository, type DeliveriesListener } from '@app/persistence';
import { SecretBox } from '@app/webhooks';
import { Dispatcher, type DispatcherCounts } from './dispatcher';
import { deliveryUserAgent, type WebhooksConfig } from './webhooks.config';
import { WebhookSender } from './webhook.sender';

export interface RunningWebhooks {
  dispatcher: Dispatcher;
  /** The ops server's port (/healthz, /readyz, /metrics), when OPS_PORT is set. */
  opsPort: number | null;
  counters(): { dispatcher: DispatcherCounts };
  stop(): Promise<void>;
}

/**
 * Connects Postgres and starts the dispatcher: it consumes no topic (the projector inserts the
 * events and deliveries) and claims due deliveries, woken by the projector's commits. `stop()`
 * stops claiming, lets the attempts in flight finish and record, then disconnects.
 */
export async function startWebhooks(config: WebhooksConfig): Promise<RunningWebhooks> {
  const logger = createLogger({ name: 'webhooks', level: config.LOG_LEVEL });
  const ds = createDataSource({ url: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE, applicationName: 'webhooks' });
  await ds.initialize();
  // One claim at a time, RECORD_WRITERS result batches, releases: a few connections.
  const dispatchPool = new Pool({ connectionString: config.DATABASE_URL, max: 4, application_name: 'webhooks-dispatcher', options: DISPATCH_PLANNER_OPTIONS });
  // An idle connection that drops (database restart) is replaced on the next query; unheard, its error would end the process.
  dispatchPool.on('error', (err) => logger.warn({ err }, 'an idle dispatcher database connection failed'));
  let listener: DeliveriesListener | null = null;
  const closeDatabase = async (): Promise<void> => {
    await listener?.close();
    await Promise.all([ds.destroy(), dispatchPool.end()]);
  };
  const sender = new WebhookSender({
    timeoutMs: config.WEBHOOKS_TIMEOUT_MS,
    allowHttp: config.WEBHOOKS_ALLOW_HTTP,
    allowPrivateHosts: config.WEBHOOKS_ALLOW_PRIVATE_HOSTS,
    maxSockets: config.WEBHOOKS_CONCURRENCY,
  });
  const dispatcher = new Dispatcher(
    new WebhookDispatchRepository(ds, dispatchPool),
    sender,
    new SecretBox(config.WEBHOOK_SECRETS_KEY),
    {
      concurrency: config.WEBHOOKS_CONCURRENCY,
      pollMs: config.WEBHOOKS_POLL_MS,
      timeoutMs: config.WEBHOOKS_TIMEOUT_MS,
      retrySchedule: config.WEBHOOKS_RETRY_SCHEDULE,
      disableAfterMs: config.WEBHOOKS_DISABLE_AFTER_MS,
      leaseSlackMs: config.WEBHOOKS_LEASE_SLACK_MS,
      userAgent: deliveryUserAgent(config),
    },
    logger,
  );
  let ops: OpsServer | null = null;
  try {
    // New deliveries are claimed as their transaction commits, not at the next poll.
    listener = await listenForNewDeliveries(config.DATABASE_URL, () => dispatcher.wake(), logger);
    dispatcher.start();
    if (config.OPS_PORT !== undefined) {
      const registry = webhooksMetrics(dispatcher);
      ops = await startOpsServer({
        host: config.OPS_HOST,
        port: config.OPS_PORT,
        logger,
        ready: () =>
          runChecks({
            // Both pools: the DataSource's and the dispatcher's connections.
            postgres: () => Promise.all([pingDatabase(ds), pingDatabase(dispatchPool)]),
            dispatcher: () => {
              if (!dispatcher.running) throw new Error('dispatcher is not running');
            },
          }),
        metrics: () => registry.metrics(),
      });
    }
  } catch (err) {
    await dispatcher.stop();
    sender.close();
    await closeDatabase();
    throw err;
  }
  const counters = () => ({ dispatcher: { ...dispatcher.counts } });
  logger.info({ concurrency: config.WEBHOOKS_CONCURRENCY, opsPort: ops?.port ?? null }, 'webhooks dispatcher started');
  const progress = setInterval(() => logger.info(counters(), 'webhooks progress'), 30_000);
  progress.unref();
  let stopping: Promise<void> | undefined;
  return {
    dispatcher,
    opsPort: ops?.port ?? null,
    counters,
    stop() {
      stopping ??= (async () => {
        clearInterval(progress);
        await ops?.close();
        await dispatcher.stop();
        sender.close();
        await closeDatabase();
        logger.info(counters(), 'webhooks stopped');
      })();
      return stopping;
    },
  };
}

/** The dispatcher's registry: process and runtime metrics plus its own (the projector makes the events and deliveries, and counts them). */
export function webhooksMetrics(dispatcher: Dispatcher): Registry {
  const registry = createMetricsRegistry();
  const c = dispatcher.counts;
  readCounter(registry, { name: 'webhooks_deliveries_claimed_total', help: 'Deliveries claimed by this process.', read: () => c.claimed });
  readCounter(registry, {
    name: 'webhooks_attempts_total',
    help: 'Delivery attempts recorded, by what followed: succeeded, retried (scheduled again) or failed (exhausted, gone or refused).',
    labelNames: ['result'],
    read: () => [
      { labels: { result: 'succeeded' }, value: c.succeeded },
      { labels: { result: 'retried' }, value: c.retried },
      { labels: { result: 'failed' }, value: c.failed },
    ],
  });
  readCounter(registry, { name: 'webhooks_endpoints_disabled_total', help: 'Endpoints this process disabled (410, or failing for the configured time).', read: () => c.disabled });
  readCounter(registry, { name: 'webhooks_dispatcher_errors_total', help: "Transient errors of the dispatcher's own work (claims or results not written).", read: () => c.errors });
  readGauge(registry, { name: 'webhooks_attempts_sending', help: 'Attempts whose POST is under way.', read: () => dispatcher.sendingCount });
  readGauge(registry, { name: 'webhooks_deliveries_queued', help: 'Claimed deliveries waiting for a free slot.', read: () => dispatcher.queuedCount });
  readGauge(registry, { name: 'webhooks_attempts_unrecorded', help: 'Attempt results waiting to be written.', read: () => dispatcher.unrecordedCount });
  registry.registerMetric(dispatcher.attemptSeconds);
  registry.registerMetric(dispatcher.firstAttemptDelaySeconds);
  registry.registerMetric(dispatcher.freshness);
  return registry;
}
