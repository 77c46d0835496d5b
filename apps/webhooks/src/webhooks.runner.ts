import { Pool } from 'pg';
import { createLogger, formatMetrics, runChecks, startOpsServer, type MetricFamily, type OpsServer } from '@app/observability';
import { createDataSource, DISPATCH_PLANNER_OPTIONS, listenForNewDeliveries, WebhookDispatchRepository, type DeliveriesListener } from '@app/persistence';
import { SecretBox } from '@app/webhooks';
import { Dispatcher, type DispatcherCounts } from './dispatcher';
import type { WebhooksConfig } from './webhooks.config';
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
      userAgent: config.WEBHOOKS_USER_AGENT,
    },
    logger,
  );
  let ops: OpsServer | null = null;
  try {
    // New deliveries are claimed as their transaction commits, not at the next poll.
    listener = await listenForNewDeliveries(config.DATABASE_URL, () => dispatcher.wake(), logger);
    dispatcher.start();
    if (config.OPS_PORT !== undefined) {
      ops = await startOpsServer({
        host: config.OPS_HOST,
        port: config.OPS_PORT,
        logger,
        ready: () =>
          runChecks({
            // Both pools: the DataSource's and the dispatcher's connections.
            postgres: () => Promise.all([ds.query('SELECT 1'), dispatchPool.query('SELECT 1')]),
            dispatcher: () => {
              if (!dispatcher.running) throw new Error('dispatcher is not running');
            },
          }),
        metrics: async () => formatMetrics(webhooksMetricFamilies(dispatcher)),
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

/** The dispatcher's metrics (the projector makes the events and deliveries, and counts them). */
export function webhooksMetricFamilies(dispatcher: Dispatcher): MetricFamily[] {
  const c = dispatcher.counts;
  const counter = (name: string, help: string, value: number): MetricFamily => ({ name, help, type: 'counter', samples: [{ value }] });
  const gauge = (name: string, help: string, value: number): MetricFamily => ({ name, help, type: 'gauge', samples: [{ value }] });
  return [
    counter('webhooks_deliveries_claimed_total', 'Deliveries claimed by this process.', c.claimed),
    {
      name: 'webhooks_attempts_total',
      help: 'Delivery attempts recorded, by what followed: succeeded, retried (scheduled again) or failed (exhausted, gone or refused).',
      type: 'counter',
      samples: [
        { labels: { result: 'succeeded' }, value: c.succeeded },
        { labels: { result: 'retried' }, value: c.retried },
        { labels: { result: 'failed' }, value: c.failed },
      ],
    },
    counter('webhooks_endpoints_disabled_total', 'Endpoints this process disabled (410, or failing for the configured time).', c.disabled),
    counter('webhooks_dispatcher_errors_total', "Transient errors of the dispatcher's own work (claims or results not written).", c.errors),
    gauge('webhooks_attempts_sending', 'Attempts whose POST is under way.', dispatcher.sendingCount),
    gauge('webhooks_deliveries_queued', 'Claimed deliveries waiting for a free slot.', dispatcher.queuedCount),
    gauge('webhooks_attempts_unrecorded', 'Attempt results waiting to be written.', dispatcher.unrecordedCount),
    { name: 'webhooks_attempt_duration_seconds', help: 'Time from sending an attempt to its result.', type: 'histogram', samples: dispatcher.attemptSeconds.samples() },
    {
      name: 'webhooks_first_attempt_delay_seconds',
      help: "Time from an event being made to its delivery's first attempt.",
      type: 'histogram',
      samples: dispatcher.firstAttemptDelaySeconds.samples(),
    },
  ];
}
