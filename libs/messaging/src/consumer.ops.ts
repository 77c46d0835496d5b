import { formatMetrics, runChecks, startOpsServer, withTimeout, type MetricFamily, type OpsServer, type OpsServerOptions } from '@app/observability';
import type { TopicDefinition } from '@app/contracts';
import { consumerLag, type PartitionLag } from './consumer-lag.query';
import type { ConsumerCounters, ConsumerRunner } from './consumer.runner';
import type { KafkaSettings } from './kafka.settings';

/** Lag is read with an admin client per call: a scrape storm would open a connection each. */
const LAG_MAX_AGE_MS = 10_000;

/** A broker that does not answer must not hold the scrape. */
const LAG_TIMEOUT_MS = 5_000;

/**
 * The consumer-side metrics of a worker app: records processed, dead-lettered and retried, and
 * the group's lag per partition (committed offset to high watermark). Lag is cached for 10 s;
 * when the broker cannot be asked, the families say so with `<prefix>_lag_up 0` instead of
 * failing the whole scrape.
 */
export class ConsumerMetrics {
  private lag: { at: number; value: PartitionLag[] | null } | undefined;
  private reading: Promise<PartitionLag[] | null> | undefined;

  constructor(
    private readonly settings: KafkaSettings,
    private readonly groupId: string,
    private readonly topics: readonly TopicDefinition[],
    private readonly counters: () => ConsumerCounters,
  ) {}

  async families(): Promise<MetricFamily[]> {
    const labels = { group: this.groupId };
    const c = this.counters();
    const lag = await this.currentLag();
    return [
      { name: 'consumer_records_processed_total', help: 'Records handled and committed.', type: 'counter', samples: [{ labels, value: c.processed }] },
      { name: 'consumer_records_dead_lettered_total', help: 'Records sent to a dead-letter topic and committed.', type: 'counter', samples: [{ labels, value: c.dead_lettered }] },
      { name: 'consumer_retries_total', help: 'Transient handler failures backed off and retried.', type: 'counter', samples: [{ labels, value: c.retries }] },
      { name: 'consumer_lag_up', help: '1 when the lag below was read from the broker (at most 10 s ago), 0 when it could not be.', type: 'gauge', samples: [{ labels, value: lag ? 1 : 0 }] },
      {
        name: 'consumer_lag_records',
        help: "Records between the group's committed offset and the partition's end.",
        type: 'gauge',
        samples: (lag ?? []).map((p) => ({ labels: { ...labels, topic: p.topic, partition: String(p.partition) }, value: p.lag })),
      },
    ];
  }

  private currentLag(): Promise<PartitionLag[] | null> {
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
  /** The app's own metric families. */
  metrics(): MetricFamily[];
}

/** A consumer app's ops server: its checks plus the consumer's, the consumer's metrics plus its own. */
export function startWorkerOps(options: WorkerOpsOptions): Promise<OpsServer> {
  const consumer = options.consumer;
  const consumerMetrics = consumer ? new ConsumerMetrics(consumer.settings, consumer.runner.groupId, consumer.topics, () => consumer.runner.counters) : null;
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
                if (!consumer.runner.healthy) throw new Error(`consumer ${consumer.runner.groupId} is not running`);
              },
            }
          : {}),
      }),
    metrics: async () => formatMetrics([...((await consumerMetrics?.families()) ?? []), ...options.metrics()]),
  });
}
