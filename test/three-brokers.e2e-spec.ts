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
// Its brokers are its own (scripts/kafka.sh), hence no `@infra-path` line: the containers pass of
// .ci/run would only repeat it.
// Before UnsentPartitionsError (libs/messaging), 2 runs in 3 ended with 63-68 of the 9,441 records
// acknowledged by kafkajs and never written: the gap diagnosis below found them missing on Kafka.

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

it('SIGKILL of one of three brokers mid ingest and projection: nothing lost, nothing twice, the ingest goes on', async () => {
  const logger = createLogger({ level: 'silent' });
  projector = await startProjector(
    projectorConfigSchema.parse({ DATABASE_URL: db.url, KAFKA_BROKERS: kafka.brokers.join(','), KAFKA_TOPIC_NAMESPACE: namespace, PROJECTOR_GROUP_ID: 'projector', LOG_LEVEL: process.env.FAULT_TEST_LOG_LEVEL ?? 'silent' }),
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

  const settings: KafkaSettings = { brokers: kafka.brokers, clientId: 'three-brokers-e2e', logLevel: 'nothing' };
  const topic = namespacedTopic(TOPICS.companies, namespace);
  const onKafka = (await consumerLag(settings, uniqueGroupId('count'), [topic])).reduce((n, p) => n + Number(p.high), 0);
  const messages = await readTopic(settings, topic.name, { count: onKafka, timeoutMs: 60_000 });
  const ids = new Set(messages.map((m) => m.headers['record-id']));
  // Every acknowledged record is on Kafka (kafkajs could acknowledge a send it had not written: see UnsentPartitionsError).
  expect(ids.size).toBe(summary.published);
  try {
    await expectEventually(async () => expect(await rowCount()).toBe(summary.published), { timeoutMs: 180_000, intervalMs: 1_000 });
  } catch (e) {
    process.stdout.write(`three brokers: projector not caught up: ${await whereTheGapIs(settings, topic)}\n`);
    throw e;
  }
  const projected = await rowCount();
  const lost = ids.size - projected;
  const counts = projector.service.counts;
  process.stdout.write(
    `three brokers: produced ${summary.published} records (${onKafka} messages on Kafka, ${onKafka - ids.size} extra copies), projected ${projected}, ` +
      `lost ${lost}, duplicated ${counts.updated} (projector: ${counts.inserted} inserted, ${counts.updated} applied again, ${counts.unchanged} redeliveries skipped)\n`,
  );
  expect(lost).toBe(0);
  // A record applied twice would count as updated (companies are keyed by symbol, one row each).
  expect(counts.inserted).toBe(summary.published);
  expect(counts.updated).toBe(0);
});

async function rowCount(): Promise<number> {
  const { rows } = await pg.query<{ n: string }>('SELECT count(*) AS n FROM companies');
  return Number(rows[0]!.n);
}

/**
 * Per partition: the group's committed offset, the high watermark, and the offsets of the records
 * on Kafka whose key has no row. Committed past a missing record means the projector skipped it;
 * missing records at or after the committed offset mean it stopped consuming that partition.
 */
async function whereTheGapIs(settings: KafkaSettings, topic: ReturnType<typeof namespacedTopic>): Promise<string> {
  const lag = await consumerLag(settings, 'projector', [topic]);
  const onKafka = lag.reduce((n, p) => n + Number(p.high), 0);
  const messages = await readTopic(settings, topic.name, { count: onKafka, timeoutMs: 60_000 });
  const { rows } = await pg.query<{ symbol: string }>('SELECT symbol FROM companies');
  const projected = new Set(rows.map((r) => r.symbol));
  const missing = new Map<number, string[]>();
  for (const m of messages) {
    if (m.key !== null && !projected.has(m.key)) missing.set(m.partition, [...(missing.get(m.partition) ?? []), m.offset]);
  }
  const parts = lag.map((p) => {
    const gaps = missing.get(p.partition) ?? [];
    const where = gaps.length === 0 ? '' : ` missing ${gaps.length} at offsets ${gaps[0]}..${gaps[gaps.length - 1]}`;
    return `p${p.partition} committed ${p.committed ?? 'none'} high ${p.high}${where}`;
  });
  return `${parts.join('; ')}; consumer ${projector?.notRunning() ?? 'running'}`;
}
