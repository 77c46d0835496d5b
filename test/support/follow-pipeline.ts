// Shared setup of the `<worker> --follow` end-to-end tests: a test database, the fixture EDGAR
// server, a fresh topic namespace with every projected topic, and the projector; records published
// on the filings topic, a follower run until caught up, and a wait for the projector.
/* eslint-disable no-restricted-imports -- tests may import apps (CONVENTIONS 5); this helper is one folder deeper than test/*.ts, so its paths start with ../../ */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { namespacedTopic, TOPICS, type RecordEnvelope, type TopicDefinition } from '@app/contracts';
import { consumerLag, ensureTopics, RecordProducer, type KafkaSettings, type RunningWorker } from '@app/messaging';
import { createLogger, type Logger } from '@app/observability';
import { createDataSource } from '@app/persistence';
import { createTestDatabase, expectEventually, kafkaBrokersForTests, startFixtureServer, uniqueGroupId, type FixtureRoute, type FixtureServer, type TestDatabase } from '@app/testing';
import { followEnv } from '../../apps/ingest-sec/src/document-worker.int-helpers';
import { projectorConfigSchema } from '../../apps/projector/src/projector.config';
import { PROJECTED_TOPICS, startProjector } from '../../apps/projector/src/projector.runner';

export interface FollowPipeline {
  db: TestDatabase;
  ds: DataSource;
  server: FixtureServer;
  settings: KafkaSettings;
  namespace: string;
  /** The filings topic under the namespace. */
  filings: TopicDefinition;
  /** Publishes records on `topic` (the filings topic by default). */
  publish(records: RecordEnvelope[], topic?: TopicDefinition): Promise<void>;
  /**
   * One follower run until its group (`group`, named in `env` by the caller) has caught up with the
   * filings topic; its counters. `start` is the worker's start function (startEightKFollow, ...).
   */
  followOnce(start: (env: NodeJS.ProcessEnv, options: { logger: Logger; runId: string }) => Promise<RunningWorker>, extraEnv: Record<string, string>): Promise<RunningWorker['runner']['counters']>;
  /** Waits until the projector has applied every record published so far on `topics` (under the namespace). */
  projected(topics: readonly TopicDefinition[]): Promise<void>;
  close(): Promise<void>;
}

/** Starts the pipeline for a test named `name` (database prefix, namespace and group prefix); `routes` add fixture routes. */
export async function startFollowPipeline(name: string, options: { routes?: readonly FixtureRoute[] } = {}): Promise<FollowPipeline> {
  const db = await createTestDatabase(name.replace(/-/g, '_'));
  const ds = createDataSource({ url: db.url });
  await ds.initialize();
  const server = await startFixtureServer({ routes: options.routes });
  const settings: KafkaSettings = { brokers: await kafkaBrokersForTests(), clientId: `${name}-e2e`, logLevel: 'nothing' };
  const namespace = `test-${name}-${randomBytes(4).toString('hex')}`;
  const filings = namespacedTopic(TOPICS.filings, namespace);
  await ensureTopics(settings, PROJECTED_TOPICS.map((t) => namespacedTopic(t, namespace)));
  const projectorGroup = uniqueGroupId(`${name}-projector`);
  const projector = await startProjector(
    projectorConfigSchema.parse({ DATABASE_URL: db.url, KAFKA_BROKERS: settings.brokers.join(','), KAFKA_TOPIC_NAMESPACE: namespace, PROJECTOR_GROUP_ID: projectorGroup, LOG_LEVEL: 'warn' }),
  );
  return {
    db,
    ds,
    server,
    settings,
    namespace,
    filings,
    async publish(records, topic = filings) {
      const producer = new RecordProducer(settings);
      await producer.connect();
      try {
        await producer.publish(topic, records);
      } finally {
        await producer.disconnect();
      }
    },
    async followOnce(start, extraEnv) {
      const worker = await start(followEnv(server, settings, namespace, extraEnv), { logger: createLogger({ level: 'silent' }), runId: `run_int_${name}` });
      try {
        await worker.follow({ once: true, checkMs: 250 });
        return { ...worker.runner.counters };
      } finally {
        await worker.stop();
      }
    },
    async projected(topics) {
      const named = topics.map((t) => namespacedTopic(t, namespace));
      await expectEventually(async () => expect((await consumerLag(settings, projectorGroup, named)).every((p) => p.lag === 0)).toBe(true), { timeoutMs: 60_000, intervalMs: 250 });
    },
    async close() {
      await projector.stop();
      await server.close();
      await ds.destroy();
      await db.drop();
    },
  };
}
