// The event log relay through a broker outage, on a Kafka of this test's own (ports 19592/19593;
// the shared 9092 broker is never stopped): while the broker is down the events stay in the
// outbox, and they go out once it answers again; the outbox is empty after the relay ran.
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { TOPICS, webhookEventId, webhookEventRecordV1 } from '@app/contracts';
import { KafkaRecordPublisher, readTopic, type KafkaSettings } from '@app/messaging';
import { createLogger } from '@app/observability';
import { createDataSource, WebhookEventLogRepository, WebhookEventsRepository, type NewWebhookEvent } from '@app/persistence';
import { createTestDatabase, expectEventually, OwnKafka, repoRoot, uniqueTopic, type TestDatabase } from '@app/testing';
import { WebhookEventRelay } from './webhook-event.relay';

jest.setTimeout(300_000);

let kafka: OwnKafka;
let db: TestDatabase;
let ds: DataSource;
let settings: KafkaSettings;
let relay: WebhookEventRelay;
const topic = uniqueTopic(TOPICS.webhookEvents, 'relay-outage');

beforeAll(async () => {
  kafka = new OwnKafka({ port: 19592, controllerPort: 19593, runDir: join(repoRoot(), '.run', 'test', 'kafka-19592') });
  await kafka.up();
  settings = { brokers: kafka.brokers, clientId: 'relay-outage-int-spec', logLevel: 'nothing' };
  db = await createTestDatabase('evlog_relay');
  ds = createDataSource({ url: db.url });
  await ds.initialize();
  // A short retry bound: a step gives up in about a second and leaves the events for the next one.
  relay = new WebhookEventRelay(ds, new KafkaRecordPublisher({ ...settings, publishRetryMs: 1_000 }), topic, createLogger({ level: 'silent' }));
});

afterAll(async () => {
  await relay?.stop();
  await ds?.destroy();
  await db?.drop();
  await kafka?.down();
});

const event = (accession: string): NewWebhookEvent => ({
  id: webhookEventId('filing.created', accession),
  type: 'filing.created',
  entityKey: accession,
  data: { accession },
  sourceTopic: 'edgar.filings.v1',
  sourceRecordId: `rec_${accession}`,
  sourceProducedAt: new Date(),
});

const pending = (): Promise<number> => new WebhookEventLogRepository(ds).pendingCount();

async function step(): Promise<void> {
  relay.kick();
  await relay.settled();
}

it('keeps the events pending while the broker is down and publishes them once it answers', async () => {
  await new WebhookEventsRepository(ds).insertEvents([event('0000000002-26-000001'), event('0000000002-26-000002')]);
  await step();
  expect(relay.counts).toEqual({ published: 2, failures: 0 });
  expect(await pending()).toBe(0);

  await kafka.down();
  await new WebhookEventsRepository(ds).insertEvents([event('0000000002-26-000003'), event('0000000002-26-000004')]);
  await step();
  expect(relay.counts).toEqual({ published: 2, failures: 1 });
  expect(await pending()).toBe(2);

  await kafka.up();
  await expectEventually(
    async () => {
      await step();
      expect(await pending()).toBe(0);
    },
    { timeoutMs: 120_000, intervalMs: 1_000 },
  );
  expect(relay.counts.published).toBe(4);

  const logged = await readTopic(settings, topic.name, { count: 4, timeoutMs: 60_000 });
  expect(new Set(logged.map((m) => m.key))).toEqual(new Set(['000001', '000002', '000003', '000004'].map((n) => webhookEventId('filing.created', `0000000002-26-${n}`))));
  for (const m of logged) expect(webhookEventRecordV1.safeParse(JSON.parse(m.value ?? '')).success).toBe(true);
});
