import { Pool } from 'pg';
import { namespacedTopic, TOPICS, WEBHOOK_EVENT_SOURCES } from '@app/contracts';
import { ConsumerRunner, ensureTopics, startWorkerOps, type ConsumerCounters } from '@app/messaging';
import { createLogger, type MetricFamily, type OpsServer } from '@app/observability';
import { createDataSource } from '@app/persistence';
import { SecretBox } from '@app/webhooks';
import { Dispatcher, type DispatcherCounts } from './dispatcher';
import { FanOutService, type FanOutCounts } from './fan-out.service';
import type { WebhooksConfig } from './webhooks.config';
import { WebhookSender } from './webhook.sender';
import { DISPATCH_PLANNER_OPTIONS, WebhooksRepository } from './webhooks.repository';

/** Record topics that make events (see WEBHOOK_EVENT_SOURCES). */
export const WEBHOOK_SOURCE_TOPICS = [TOPICS.filings, TOPICS.form4, TOPICS.issuerDocuments];

export interface RunningWebhooks {
  fanOut: FanOutService;
  dispatcher: Dispatcher;
  /** The ops server's port (/healthz, /readyz, /metrics), when OPS_PORT is set. */
  opsPort: number | null;
  counters(): { consumer: ConsumerCounters; fanOut: FanOutCounts; dispatcher: DispatcherCounts };
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Run the consumer (fan-out); default true. */
  consume?: boolean;
  /** Run the dispatcher; default true. */
  dispatch?: boolean;
}

/**
 * Connects Postgres and Kafka, starts the fan-out consumer and the dispatcher. `stop()` stops
 * claiming, lets the attempts in flight finish and record, finishes and commits the record in
 * flight, then disconnects.
 */
export async function startWebhooks(config: WebhooksConfig, options: StartOptions = {}): Promise<RunningWebhooks> {
  // Every source topic must be wired here; a new event source fails fast instead of staying silent.
  for (const s of WEBHOOK_EVENT_SOURCES) {
    if (!WEBHOOK_SOURCE_TOPICS.includes(s.topic)) throw new Error(`webhook event source topic ${s.topic.name} is not consumed`);
  }
  const logger = createLogger({ name: 'webhooks', level: config.LOG_LEVEL });
  const ds = createDataSource({ url: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE, applicationName: 'webhooks' });
  await ds.initialize();
  // One claim at a time, RECORD_WRITERS result batches, releases: a few connections.
  const dispatchPool = new Pool({ connectionString: config.DATABASE_URL, max: 4, application_name: 'webhooks-dispatcher', options: DISPATCH_PLANNER_OPTIONS });
  // An idle connection that drops (database restart) is replaced on the next query; unheard, its error would end the process.
  dispatchPool.on('error', (err) => logger.warn({ err }, 'an idle dispatcher database connection failed'));
  const closeDatabase = async (): Promise<void> => {
    await Promise.all([ds.destroy(), dispatchPool.end()]);
  };
  const repo = new WebhooksRepository(ds, dispatchPool);
  const sender = new WebhookSender({
    timeoutMs: config.WEBHOOKS_TIMEOUT_MS,
    allowHttp: config.WEBHOOKS_ALLOW_HTTP,
    allowPrivateHosts: config.WEBHOOKS_ALLOW_PRIVATE_HOSTS,
    maxSockets: config.WEBHOOKS_CONCURRENCY,
  });
  const dispatcher = new Dispatcher(
    repo,
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
  const fanOut = new FanOutService(ds, repo, config.WEBHOOKS_PROJECTION_WAIT_MS, () => dispatcher.wake());
  const topics = WEBHOOK_SOURCE_TOPICS.map((t) => namespacedTopic(t, config.KAFKA_TOPIC_NAMESPACE));
  const settings = { brokers: config.KAFKA_BROKERS, clientId: config.KAFKA_CLIENT_ID ?? 'webhooks', logger };
  const runner =
    options.consume === false
      ? null
      : new ConsumerRunner({
          settings,
          groupId: config.WEBHOOKS_GROUP_ID,
          topics,
          fromBeginning: true,
          logger,
          // Waiting for the projector is the usual transient failure: start retrying soon.
          retry: { initialMs: 200, maxMs: 30_000 },
          handle: (envelope, meta) => fanOut.handle(envelope, meta),
        });
  try {
    if (runner) {
      await ensureTopics(settings, topics);
      await runner.start();
    }
    if (options.dispatch !== false) dispatcher.start();
  } catch (err) {
    await runner?.stop().catch(() => undefined);
    await closeDatabase();
    throw err;
  }
  const counters = () => ({
    consumer: runner?.counters ?? { processed: 0, dead_lettered: 0, retries: 0 },
    fanOut: { ...fanOut.counts },
    dispatcher: { ...dispatcher.counts },
  });
  let ops: OpsServer | null = null;
  if (config.OPS_PORT !== undefined) {
    try {
      ops = await startWorkerOps({
        host: config.OPS_HOST,
        port: config.OPS_PORT,
        logger,
        consumer: runner ? { runner, settings, topics } : null,
        checks: {
          // Both pools: the fan-out's and the dispatcher's connections.
          postgres: () => Promise.all([ds.query('SELECT 1'), dispatchPool.query('SELECT 1')]),
          ...(options.dispatch !== false
            ? {
                dispatcher: () => {
                  if (!dispatcher.running) throw new Error('dispatcher is not running');
                },
              }
            : {}),
        },
        metrics: () => webhooksMetricFamilies(fanOut.counts, dispatcher),
      });
    } catch (err) {
      await Promise.all([dispatcher.stop(), runner?.stop()]);
      sender.close();
      await closeDatabase();
      throw err;
    }
  }
  logger.info({ groupId: config.WEBHOOKS_GROUP_ID, topics: topics.map((t) => t.name), concurrency: config.WEBHOOKS_CONCURRENCY }, 'webhooks started');
  const progress = setInterval(() => logger.info(counters(), 'webhooks progress'), 30_000);
  progress.unref();
  let stopping: Promise<void> | undefined;
  return {
    fanOut,
    dispatcher,
    opsPort: ops?.port ?? null,
    counters,
    stop() {
      stopping ??= (async () => {
        clearInterval(progress);
        await ops?.close();
        // Both at once: the dispatcher drains its attempts while the consumer finishes its record.
        await Promise.all([dispatcher.stop(), runner?.stop()]);
        sender.close();
        await closeDatabase();
        logger.info(counters(), 'webhooks stopped');
      })();
      return stopping;
    },
  };
}

/** The webhooks app's own metrics (the consumer's come from ConsumerMetrics). */
export function webhooksMetricFamilies(fanOut: FanOutCounts, dispatcher: Dispatcher): MetricFamily[] {
  const c = dispatcher.counts;
  const counter = (name: string, help: string, value: number): MetricFamily => ({ name, help, type: 'counter', samples: [{ value }] });
  const gauge = (name: string, help: string, value: number): MetricFamily => ({ name, help, type: 'gauge', samples: [{ value }] });
  return [
    counter('webhooks_events_total', 'Events made from first-seen source records.', fanOut.events),
    counter('webhooks_deliveries_created_total', 'Deliveries inserted by the fan-out (one per event and subscribed endpoint).', fanOut.deliveries),
    counter('webhooks_records_replayed_total', 'Source records whose event existed already: nothing written.', fanOut.replayed),
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
