// A broker outage on a Kafka of this test's own (ports 19492/19493; the shared 9092 broker is
// never touched), SIGKILLed in the middle of a one-shot ingest-form4 run (issue 19 point 3):
// - the run, with a 10 s publish retry bound, stops with Form4IngestStoppedError (the exit-75
//   path of main.ts): a summary of what it published and a checkpoint of those accessions;
// - the same command run again while the broker is still down rides out the rest of the outage
//   (default bound, minutes), reads only the filings not published and removes the checkpoint;
// - every filing is on the topic;
// - the entry point (main.ts, in a child process) exits 75 with one line and a summary when the
//   broker is not there at all.
import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from '@app/config';
import { TOPICS } from '@app/contracts';
import { consumerLag, readTopic, type KafkaSettings } from '@app/messaging';
import { createLogger } from '@app/observability';
import { expectEventually, OwnKafka, startFixtureServer, swcRegisterScript, uniqueGroupId, uniqueTopic, type FixtureServer } from '@app/testing';
import { form4CheckpointSchema } from '../apps/ingest-form4/src/form4.checkpoint';
import { Form4IngestService, Form4IngestStoppedError, type Form4IngestSummary } from '../apps/ingest-form4/src/form4-ingest.service';
import { ingestForm4ConfigSchema, parseForm4FilingRef } from '../apps/ingest-form4/src/ingest-form4.config';
import { IngestForm4Module } from '../apps/ingest-form4/src/ingest-form4.module';

jest.setTimeout(300_000);
// Its broker is its own (scripts/kafka.sh) whatever the shared infrastructure is, hence no
// `@infra-path` line: the containers pass of .ci/run would repeat it unchanged.

const UA = 'Filings Platform e2e ops@filings.example';
/** Every Form 4 fixture by explicit reference; Microsoft's, the fourth, answers 5 s late and the broker dies meanwhile. */
const FILINGS = [
  '1835856:0001493152-25-009612',
  '1883685:0001104659-25-025206',
  '1572616:0000950170-24-012830:ownership.xml',
  '789019:0001062993-24-016587:xslF345X05/form4.xml',
  '1321655:0001321655-24-000181:wk-form4_1727395357.xml',
  '933972:0000933972-25-990001:374WaterForm4.xml',
  '1640147:0001640147-22-990001:form4.snow.xml',
  '1512673:0001062993-23-020702:form4.xml',
  '1318605:0000899243-21-044060:/Archives/edgar/data/1318605/000089924321044060/doc4.xml',
].map((token) => parseForm4FilingRef(token)!);
const SLOW_PATH = '/Archives/edgar/data/789019/000106299324016587/form4.xml';
const OUTAGE_MS = 30_000;

/** Loads main.ts with swc and @app/* mapped to libs. */
const ROOT = resolve(__dirname, '..');
const REGISTER = swcRegisterScript(ROOT);

let dir: string;
let kafka: OwnKafka;
let fixtures: FixtureServer;
let settings: KafkaSettings;
const topic = uniqueTopic(TOPICS.form4, 'outage');
const logger = createLogger({ level: 'silent' });

/** Records on the test's topic: the sum of its high watermarks (a group that never committed reads them all as lag). */
async function recordsOnTopic(): Promise<number> {
  return (await consumerLag(settings, uniqueGroupId('count'), [topic])).reduce((n, p) => n + Number(p.high), 0);
}

async function runIngest(publishRetryMs: number): Promise<Form4IngestSummary> {
  const config = loadConfig(ingestForm4ConfigSchema, {
    EDGAR_USER_AGENT: UA,
    EDGAR_WWW_BASE_URL: fixtures.url,
    EDGAR_DATA_BASE_URL: fixtures.url,
    KAFKA_BROKERS: kafka.brokers.join(','),
    KAFKA_PUBLISH_RETRY_MS: String(publishRetryMs),
    FORM4_SUBMISSIONS: 'none',
    FORM4_CHECKPOINT: join(dir, 'form4.json'),
    LOG_LEVEL: 'silent',
  });
  const app = await NestFactory.createApplicationContext(IngestForm4Module.forRoot({ config, topic, logger }), { logger: false });
  try {
    return await app.get(Form4IngestService).execute({ filings: FILINGS });
  } finally {
    await app.close();
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'form4-outage-'));
  kafka = new OwnKafka({ port: 19492, controllerPort: 19493, runDir: join(__dirname, '..', '.run', 'test', 'kafka-19492') });
  await kafka.up();
  settings = { brokers: kafka.brokers, clientId: 'form4-outage-e2e', logLevel: 'nothing' };
  fixtures = await startFixtureServer({ routes: [{ path: SLOW_PATH, file: 'form4/MSFT-0001062993-24-016587-form4.xml', delayMs: 5_000 }] });
});

afterAll(async () => {
  await fixtures?.close();
  await kafka?.down();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('a one-shot Form 4 run stops with a summary and a checkpoint; the same command resumes through the outage', async () => {
  // Run 1: the broker is SIGKILLed while the fourth filing is being read.
  const first = runIngest(10_000).then(
    () => null,
    (err: unknown) => err,
  );
  // Filings are read one after the other, one record each: once the third filing's record is
  // published, the fourth waits 5 s for its answer. The kill waits until the broker holds the three
  // records (high watermarks, not a fixed pause: on a loaded runner the third may take a while), and
  // comes before the fourth is answered (the fixture server's status is 0 until then).
  await expectEventually(() => expect(fixtures.requests.some((r) => r.path.startsWith('/Archives/edgar/data/1572616/'))).toBe(true), { timeoutMs: 60_000, intervalMs: 50 });
  await expectEventually(async () => expect(await recordsOnTopic()).toBe(3), { timeoutMs: 4_000, intervalMs: 100 });
  expect(fixtures.requests.some((r) => r.path === SLOW_PATH && r.status !== 0)).toBe(false);
  kafka.kill(0);
  const killedAt = Date.now();
  const stopped = await first;
  expect(stopped).toBeInstanceOf(Form4IngestStoppedError);
  const { summary, selected, checkpointPath } = stopped as Form4IngestStoppedError;
  expect(selected).toBe(9);
  expect(summary.resumedFrom).toBe(0);
  expect(summary.counts).toMatchObject({ filings: 3, published: 3, failed: 0, not_found: 0 });
  expect((stopped as Error).message).toMatch(/^stopped with 3 Form 4 filings published \(3 in this run\), 6 of 9 not read yet: gave up publishing 1 records to test\.\S+ after \d+ s: .*; checkpoint .*form4\.json: run the same command again to resume$/);
  const checkpoint = form4CheckpointSchema.parse(JSON.parse(readFileSync(checkpointPath, 'utf8')));
  expect(checkpoint.published).toEqual(FILINGS.slice(0, 3).map((f) => f.accession));

  // Run 2, the same command with the default bound, starts while the broker is still down; it comes back OUTAGE_MS after the kill.
  const requestsBefore = fixtures.requests.length;
  const second = runIngest(300_000);
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, OUTAGE_MS - (Date.now() - killedAt))));
  await kafka.up();
  const resumed = await second;
  expect(resumed.resumedFrom).toBe(3);
  expect(resumed.counts).toMatchObject({ filings: 6, published: 6, failed: 0, not_found: 0 });
  expect(resumed.filings.map((f) => f.accession)).toEqual(FILINGS.slice(3).map((f) => f.accession));
  expect(existsSync(checkpointPath)).toBe(false);
  // The filings the first run published were not read again.
  const reread = fixtures.requests.slice(requestsBefore).filter((r) => FILINGS.slice(0, 3).some((f) => r.path.startsWith(`/Archives/edgar/data/${Number(f.cik)}/`)));
  expect(reread).toEqual([]);

  // Every filing is on the topic (the fourth possibly twice: a retried send).
  const messages = await readTopic(settings, topic.name, { count: 50, timeoutMs: 15_000 });
  const keys = new Set(messages.map((m) => m.key));
  expect([...keys].sort()).toEqual(FILINGS.map((f) => f.accession).sort());
  process.stdout.write(`form4 broker outage: ${FILINGS.length} filings, ${messages.length} records on the topic, ${keys.size} distinct\n`);
});

it('main.ts exits 75 (EX_TEMPFAIL) with one line, a JSON summary and a checkpoint when the broker is not there', async () => {
  writeFileSync(join(dir, 'register.js'), REGISTER);
  const checkpointPath = join(dir, 'main.json');
  const child = spawn(process.execPath, ['-r', join(dir, 'register.js'), join(ROOT, 'apps/ingest-form4/src/main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      EDGAR_USER_AGENT: UA,
      EDGAR_WWW_BASE_URL: fixtures.url,
      EDGAR_DATA_BASE_URL: fixtures.url,
      // Nothing listens there.
      KAFKA_BROKERS: '127.0.0.1:19491',
      KAFKA_PUBLISH_RETRY_MS: '2000',
      FORM4_FILINGS: '1572616:0000950170-24-012830:ownership.xml,1321655:0001321655-24-000181:wk-form4_1727395357.xml',
      FORM4_SUBMISSIONS: 'none',
      FORM4_CHECKPOINT: checkpointPath,
      LOG_LEVEL: 'silent',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
  expect({ code, stderr }).toMatchObject({ code: 75 });
  const lines = stderr.split('\n');
  expect(lines).toContainEqual(expect.stringMatching(/^ingest-form4: stopped with 0 Form 4 filings published \(0 in this run\), 2 of 2 not read yet: gave up publishing 1 records to edgar\.form4\.v1 after \d+ s: .*; checkpoint .*main\.json: run the same command again to resume$/));
  const summary = lines.find((l) => l.includes('"msg":"ingest-form4 stopped"'));
  expect(JSON.parse(summary!)).toMatchObject({ level: 'error', checkpoint: checkpointPath, published: 0, resumedFrom: 0, selected: 2 });
  expect(form4CheckpointSchema.parse(JSON.parse(readFileSync(checkpointPath, 'utf8')))).toMatchObject({ published: [], records_published: 0 });
});
