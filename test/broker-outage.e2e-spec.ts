// A broker outage of 60 s on a Kafka of this test's own (ports 19292/19293; the shared 9092 broker
// is never touched), SIGKILLed in the middle of an ingest-sec companies run (issue 19 points 3, 4):
// - the run, with a 10 s publish retry bound, stops with a summary and a checkpoint;
// - the same command run again while the broker is still down rides out the rest of the outage
//   (default bound, minutes) and finishes from the checkpoint: every company is on the topic;
// - a consumer's /readyz is 503 naming the consumer while kafkajs restarts it, 200 once it has
//   rejoined; a group's lag above CONSUMER_READY_MAX_LAG is named by /readyz;
// - a consumer stopped while the broker is down stays stopped (kafkajs' own restart timer once
//   outlived stop() and retried for ever, and CI's jest never exited).
import 'reflect-metadata';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from '@app/config';
import { TOPICS } from '@app/contracts';
import { ConsumerRunner, consumerLag, ensureTopics, startWorkerOps, type KafkaSettings, type MessagingLogger } from '@app/messaging';
import { createLogger, createMetricsRegistry, type OpsServer } from '@app/observability';
import { expectEventually, OwnKafka, startFixtureServer, uniqueGroupId, uniqueTopic, type FixtureServer } from '@app/testing';
import { companiesCheckpointSchema } from '../apps/ingest-sec/src/companies.checkpoint';
import { ingestSecConfigSchema } from '../apps/ingest-sec/src/ingest-sec.config';
import { IngestSecModule } from '../apps/ingest-sec/src/ingest-sec.module';
import { IngestStoppedError, IngestSecService, type IngestSecSummary } from '../apps/ingest-sec/src/ingest-sec.service';

jest.setTimeout(300_000);
// Its brokers are its own (scripts/kafka.sh) whatever the shared infrastructure is, hence no
// `@infra-path` line: the containers pass of .ci/run would repeat it unchanged, minutes for nothing.

const UA = 'Filings Platform e2e ops@filings.example';
const COMPANIES = 9441;
/** Row 3,000 of the fixture ticker map: its submissions answer 15 s late, and the broker dies meanwhile. */
const SLOW_CIK = '0001525221';
const OUTAGE_MS = 60_000;

let dir: string;
let kafka: OwnKafka;
let fixtures: FixtureServer;
let settings: KafkaSettings;
const topic = uniqueTopic(TOPICS.companies, 'outage');
const logger = createLogger({ level: 'silent' });

async function readyz(ops: OpsServer): Promise<{ status: number; checks: Record<string, string> }> {
  const r = await fetch(`http://127.0.0.1:${ops.port}/readyz`);
  return { status: r.status, checks: ((await r.json()) as { checks: Record<string, string> }).checks };
}

async function runIngest(publishRetryMs: number): Promise<IngestSecSummary> {
  const config = loadConfig(ingestSecConfigSchema, {
    EDGAR_USER_AGENT: UA,
    EDGAR_WWW_BASE_URL: fixtures.url,
    EDGAR_DATA_BASE_URL: fixtures.url,
    KAFKA_BROKERS: kafka.brokers.join(','),
    KAFKA_PUBLISH_RETRY_MS: String(publishRetryMs),
    SEC_COVERAGE: 'all',
    SEC_SUBMISSIONS: SLOW_CIK,
    SEC_CHECKPOINT: join(dir, 'companies.json'),
    LOG_LEVEL: 'silent',
  });
  const app = await NestFactory.createApplicationContext(IngestSecModule.forRoot({ config, topic, logger }), { logger: false });
  try {
    return await app.get(IngestSecService).execute();
  } finally {
    await app.close();
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'broker-outage-'));
  kafka = new OwnKafka({ port: 19292, controllerPort: 19293, runDir: join(__dirname, '..', '.run', 'test', 'kafka-19292') });
  await kafka.up();
  settings = { brokers: kafka.brokers, clientId: 'broker-outage-e2e', logLevel: 'nothing' };
  // 15 s: the kill must land while this file is pending. The fixture server records the request on
  // arrival; when it recorded answers instead, the kill came after and chunks past it were published.
  fixtures = await startFixtureServer({ routes: [{ path: `/submissions/CIK${SLOW_CIK}.json`, file: 'submissions/CIK0000789019.json', delayMs: 15_000 }] });
});

afterAll(async () => {
  await fixtures?.close();
  await kafka?.down();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('an ingest stops with a checkpoint, the same command resumes through the outage; readiness tells the truth', async () => {
  // A consumer of the topic with its ops server: every key it sees, readiness bounded by lag.
  const seen = new Map<string, number>();
  await ensureTopics(settings, [topic]);
  const runner = new ConsumerRunner({
    settings,
    groupId: uniqueGroupId('outage'),
    topics: [topic],
    fromBeginning: true,
    sessionTimeoutMs: 10_000,
    handle: async (batch) => {
      for (const { envelope } of batch.records) seen.set(envelope.key, (seen.get(envelope.key) ?? 0) + 1);
    },
    logger,
  });
  await runner.start();
  const ops = await startWorkerOps({ host: '127.0.0.1', port: 0, logger, consumer: { runner, settings, topics: [topic] }, checks: {}, registry: createMetricsRegistry(), maxLag: 100_000 });
  // A group that never consumes: its lag (every record) is above a bound of 100, and /readyz says so.
  const idle = new ConsumerRunner({ settings, groupId: uniqueGroupId('idle'), topics: [topic], handle: async () => undefined, logger });
  const idleOps = await startWorkerOps({ host: '127.0.0.1', port: 0, logger, consumer: { runner: idle, settings, topics: [topic] }, checks: {}, registry: createMetricsRegistry(), maxLag: 100 });
  // A consumer stopped during the outage: every line it logs, and when.
  const stoppedLog: { at: number; msg: string | undefined; restart?: boolean }[] = [];
  const record = (obj: { restart?: boolean }, msg?: string) => void stoppedLog.push({ at: Date.now(), msg, restart: obj.restart });
  const recordingLogger: MessagingLogger = { info: record, warn: record, error: record };
  const stoppedInOutage = new ConsumerRunner({ settings, groupId: uniqueGroupId('stopped'), topics: [topic], handle: async () => undefined, logger: recordingLogger });
  await stoppedInOutage.start();
  try {
    await expectEventually(async () => expect(await readyz(ops)).toMatchObject({ status: 200, checks: { consumer: 'ok', lag: 'ok' } }), { timeoutMs: 60_000, intervalMs: 500 });

    // Run 1: the broker is SIGKILLed while chunk 15 waits for its slow submissions file.
    const first = runIngest(10_000).then(
      () => null,
      (err: unknown) => err,
    );
    await expectEventually(() => expect(fixtures.requests.some((r) => r.path === `/submissions/CIK${SLOW_CIK}.json`)).toBe(true), { timeoutMs: 60_000 });
    kafka.kill(0);
    const killedAt = Date.now();
    const stopped = await first;
    expect(stopped).toBeInstanceOf(IngestStoppedError);
    const { summary, checkpointPath } = stopped as IngestStoppedError;
    const checkpoint = companiesCheckpointSchema.parse(JSON.parse(readFileSync(checkpointPath, 'utf8')));
    // Chunks of 200 before the one the broker died under (the slow row is about 3,000 after duplicates).
    const done = checkpoint.covered_done;
    expect(done % 200).toBe(0);
    expect(done).toBeGreaterThanOrEqual(2_800);
    expect(done).toBeLessThanOrEqual(3_200);
    expect(summary).toMatchObject({ covered: COMPANIES, published: done, resumedFrom: 0 });

    // The consumer is not running while kafkajs restarts it: /readyz names it.
    await expectEventually(
      async () => {
        const r = await readyz(ops);
        expect(r.status).toBe(503);
        expect(r.checks.consumer).toMatch(/^consumer test-outage-\S+ (crashed|is rebalancing|is stopped|has not joined)/);
      },
      { timeoutMs: 60_000, intervalMs: 500 },
    );

    // Stopped while kafkajs is restarting it, it stays stopped, through the outage and after.
    await expectEventually(() => expect(stoppedLog.map((l) => l.msg)).toContain('kafka consumer crashed'), { timeoutMs: 60_000, intervalMs: 500 });
    await stoppedInOutage.stop();
    const stoppedAt = Date.now();

    // Run 2, the same command with the default bound, starts while the broker is still down; it comes back 60 s after the kill.
    const second = runIngest(300_000);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, OUTAGE_MS - (Date.now() - killedAt))));
    await kafka.up();
    const resumed = await second;
    expect(resumed).toMatchObject({ covered: COMPANIES, resumedFrom: done, published: COMPANIES - done, errors: 0 });
    expect(existsSync(checkpointPath)).toBe(false);

    // Every company is on the topic, and the consumer, restarted by kafkajs, reads them all and is ready again.
    await expectEventually(() => expect(seen.size).toBe(COMPANIES), { timeoutMs: 120_000, intervalMs: 500 });
    await expectEventually(async () => expect(await readyz(ops)).toMatchObject({ status: 200, checks: { consumer: 'ok' } }), { timeoutMs: 60_000, intervalMs: 500 });
    await expectEventually(
      async () => {
        const idleReady = await readyz(idleOps);
        expect(idleReady.status).toBe(503);
        expect(idleReady.checks.lag).toMatch(/^\d+ records behind, above the bound of 100 /);
        expect(idleReady.checks.consumer).toMatch(/is idle/);
      },
      { timeoutMs: 15_000, intervalMs: 1_000 },
    );
    // The start kafkajs had under way may still fail once; it must not be restarted.
    const afterStop = stoppedLog.filter((l) => l.at > stoppedAt);
    expect(afterStop.length).toBeLessThanOrEqual(1);
    expect(afterStop.filter((l) => l.restart !== false)).toEqual([]);
    const high = (await consumerLag(settings, uniqueGroupId('count'), [topic])).reduce((n, p) => n + Number(p.high), 0);
    process.stdout.write(`broker outage: ${COMPANIES} companies, ${high} records on the topic (first run's prefix and retried batches included), consumer saw ${seen.size} distinct\n`);
  } finally {
    await ops.close();
    await idleOps.close();
    await runner.stop();
    await idle.stop();
    await stoppedInOutage.stop();
  }
});
