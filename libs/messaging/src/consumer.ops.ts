import { readCounter, readGauge, runChecks, startOpsServer, withTimeout, type OpsServer, type OpsServerOptions, type Registry } from '@app/observability';
import type { TopicDefinition } from '@app/contracts';
import { consumerLag, type PartitionLag } from './consumer-lag.query';
import type { ConsumerCounters, ConsumerRunner } from './consumer.runner';
import type { KafkaSettings } from './kafka.settings';

/** Lag is read with an admin client per call: a scrape storm would open a connection each. */
const LAG_MAX_AGE_MS = 10_000;

/** A broker that does not answer must not hold the scrape. */
const LAG_TIMEOUT_MS = 5_000;

/**
 * The consumer-side metrics of a worker app, in its registry: records processed, dead-lettered and
 * retried, and the group's lag per partition (committed offset to high watermark). Lag is cached
 * for 10 s; when the broker cannot be asked, `consumer_lag_up 0` says so instead of failing the
 * whole scrape.
 */
export class ConsumerMetrics {
  private lag: { at: number; value: PartitionLag[] | null } | undefined;
  private reading: Promise<PartitionLag[] | null> | undefined;

  constructor(
    private readonly settings: KafkaSettings,
    private readonly groupId: string,
    private readonly topics: readonly TopicDefinition[],
    counters: () => ConsumerCounters,
    registry: Registry,
  ) {
    const labels = { group: groupId };
    const labelNames = ['group'];
    readCounter(registry, { name: 'consumer_records_processed_total', help: 'Records handled and committed.', labelNames, read: () => [{ labels, value: counters().processed }] });
    readCounter(registry, { name: 'consumer_records_dead_lettered_total', help: 'Records sent to a dead-letter topic and committed.', labelNames, read: () => [{ labels, value: counters().dead_lettered }] });
    readCounter(registry, { name: 'consumer_retries_total', help: 'Transient handler failures backed off and retried.', labelNames, read: () => [{ labels, value: counters().retries }] });
    readGauge(registry, {
      name: 'consumer_lag_up',
      help: '1 when the lag below was read from the broker (at most 10 s ago), 0 when it could not be.',
      labelNames,
      read: async () => [{ labels, value: (await this.currentLag()) ? 1 : 0 }],
    });
    readGauge(registry, {
      name: 'consumer_lag_records',
      help: "Records between the group's committed offset and the partition's end.",
      labelNames: ['group', 'topic', 'partition'],
      read: async () => ((await this.currentLag()) ?? []).map((p) => ({ labels: { ...labels, topic: p.topic, partition: String(p.partition) }, value: p.lag })),
    });
  }

  /** The group's lag per partition, at most 10 s old; null when the broker could not be asked. */
  currentLag(): Promise<PartitionLag[] | null> {
    if (this.lag && Date.now() - this.lag.at < LAG_MAX_AGE_MS) return Promise.resolve(this.lag.value);
    // One read at a time: scrapes that come while it runs share it (a dead broker would otherwise
    // collect one connecting admin client per scrape).
    this.reading ??= withTimeout(consumerLag({ ...this.settings, logLevel: 'nothing' }, this.groupId, this.topics), LAG_TIMEOUT_MS, 'reading the consumer lag')
      .catch(() => null)
      .then((value) => {
        this.lag = { at: Date.now(), value };
        return value;
      })
      .finally(() => {
        this.reading = undefined;
      });
    return this.reading;
  }
}

export interface WorkerOpsOptions extends Pick<OpsServerOptions, 'host' | 'port' | 'logger'> {
  /** The app's consumer: its health is a readiness check, its counters and lag are metrics. */
  consumer: { runner: ConsumerRunner; settings: KafkaSettings; topics: readonly TopicDefinition[] } | null;
  /** The app's other readiness checks (its database, ...). */
  checks: Record<string, () => unknown>;
  /** The app's registry (its own metrics in it): the consumer's are added to it. */
  registry: Registry;
  /** Records of lag above which readiness fails, naming the lag; unset: lag is not a readiness check. */
  maxLag?: number;
}

/** A consumer app's ops server: its checks plus the consumer's, the consumer's metrics plus its own. */
export function startWorkerOps(options: WorkerOpsOptions): Promise<OpsServer> {
  const consumer = options.consumer;
  const metrics = consumer ? new ConsumerMetrics(consumer.settings, consumer.runner.groupId, consumer.topics, () => consumer.runner.counters, options.registry) : null;
  const maxLag = options.maxLag;
  return startOpsServer({
    host: options.host,
    port: options.port,
    logger: options.logger,
    ready: () =>
      runChecks({
        ...options.checks,
        ...(consumer
          ? {
              consumer: () => {
                const why = consumer.runner.notRunning;
                if (why !== null) throw new Error(`consumer ${consumer.runner.groupId} ${why}`);
              },
            }
          : {}),
        ...(metrics && maxLag !== undefined ? { lag: () => lagWithin(metrics, maxLag) } : {}),
      }),
    metrics: () => options.registry.metrics(),
  });
}

/** Readiness check: the group's total lag is at most `maxLag` (an unreadable lag is the consumer check's business). */
async function lagWithin(metrics: ConsumerMetrics, maxLag: number): Promise<void> {
  const lag = await metrics.currentLag();
  if (lag === null) return;
  const total = lag.reduce((n, p) => n + p.lag, 0);
  if (total > maxLag) throw new Error(`${total} records behind, above the bound of ${maxLag} (CONSUMER_READY_MAX_LAG)`);
}
