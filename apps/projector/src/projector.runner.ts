import { namespacedTopic, TOPICS } from '@app/contracts';
import { ConsumerRunner, ensureTopics, startWorkerOps, type ConsumerCounters } from '@app/messaging';
import { createLogger, type OpsServer } from '@app/observability';
import { createDataSource } from '@app/persistence';
import type { ProjectorConfig } from './projector.config';
import { ProjectorService } from './projector.service';

export interface RunningProjector {
  service: ProjectorService;
  /** The ops server's port (/healthz, /readyz, /metrics), when OPS_PORT is set. */
  opsPort: number | null;
  counters(): ConsumerCounters;
  stop(): Promise<void>;
}

/** Topics the projector reads; each new read model adds its topic here. */
export const PROJECTED_TOPICS = [
  TOPICS.companies,
  TOPICS.fundHoldings,
  TOPICS.filings,
  TOPICS.segments,
  TOPICS.issuerRoster,
  TOPICS.issuerDocuments,
  TOPICS.companyDescriptions,
  TOPICS.documentTexts,
  TOPICS.form4,
];

/** Connects Postgres and Kafka and starts projecting; `stop()` finishes the record in flight first. */
export async function startProjector(config: ProjectorConfig): Promise<RunningProjector> {
  const logger = createLogger({ name: 'projector', level: config.LOG_LEVEL });
  const ds = createDataSource({ url: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE, applicationName: 'projector' });
  await ds.initialize();
  const service = new ProjectorService(ds);
  const topics = PROJECTED_TOPICS.map((t) => namespacedTopic(t, config.KAFKA_TOPIC_NAMESPACE));
  const settings = { brokers: config.KAFKA_BROKERS, clientId: config.KAFKA_CLIENT_ID ?? 'projector', logger };
  const runner = new ConsumerRunner({
    settings,
    groupId: config.PROJECTOR_GROUP_ID,
    topics,
    fromBeginning: true,
    logger,
    handle: async (envelope, meta) => {
      const outcome = await service.handle(envelope);
      if (outcome !== 'unchanged') logger.debug({ key: envelope.key, id: envelope.id, outcome, ...meta }, 'projected');
    },
  });
  try {
    // The broker does not auto-create topics: a topic no producer has written to yet would fail the subscription.
    await ensureTopics(settings, topics);
    await runner.start();
  } catch (err) {
    await ds.destroy();
    throw err;
  }
  let ops: OpsServer | null = null;
  if (config.OPS_PORT !== undefined) {
    try {
      ops = await startWorkerOps({
        host: config.OPS_HOST,
        port: config.OPS_PORT,
        logger,
        consumer: { runner, settings, topics },
        checks: { postgres: () => ds.query('SELECT 1') },
        metrics: () => [
          {
            name: 'projector_records_total',
            help: 'Records projected, by what they did to the read model.',
            type: 'counter',
            samples: Object.entries(service.counts).map(([outcome, value]) => ({ labels: { outcome }, value })),
          },
        ],
      });
    } catch (err) {
      await runner.stop();
      await ds.destroy();
      throw err;
    }
  }
  logger.info({ groupId: config.PROJECTOR_GROUP_ID, topics: PROJECTED_TOPICS.map((t) => t.name) }, 'projector started');
  const progress = setInterval(() => logger.info({ ...runner.counters, ...service.counts }, 'projector progress'), 30_000);
  progress.unref();
  let stopping: Promise<void> | undefined;
  return {
    service,
    opsPort: ops?.port ?? null,
    counters: () => runner.counters,
    stop() {
      stopping ??= (async () => {
        clearInterval(progress);
        await ops?.close();
        await runner.stop();
        await ds.destroy();
        logger.info({ ...runner.counters, ...service.counts }, 'projector stopped');
      })();
      return stopping;
    },
  };
}
