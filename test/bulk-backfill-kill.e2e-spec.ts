// The bulk backfill killed for real: `bulk.main.js` (the built command) reads the fixture
// submissions.zip from the fixture EDGAR server, slowly (each range request answered late), and is
// SIGKILLed once its checkpoint counts two entries done; a second run resumes from the checkpoint.
// Counted on the topics: every record is there, and what went out twice is no more than the
// records of the entries the checkpoint had not yet counted (the window).
import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { contentHash, namespacedTopic, TOPICS } from '@app/contracts';
import { consumerLag, readTopic, type KafkaSettings } from '@app/messaging';
import { createLogger } from '@app/observability';
import { fixtureSubmissionsEntries, kafkaBrokersForTests, startFixtureServer, SUBMISSIONS_ZIP_PATH, writeZip, type FixtureServer } from '@app/testing';
import { BulkBackfillService } from '../apps/ingest-sec/src/bulk/bulk-backfill.service';
import { bulkCheckpointSchema, type BulkCheckpoint } from '../apps/ingest-sec/src/bulk/bulk.checkpoint';
import { bulkConfigSchema } from '../apps/ingest-sec/src/bulk/bulk.config';
import { mainEntityRecords, overflowEntityRecords } from '../apps/ingest-sec/src/bulk/bulk.mapper';
import { BulkModule } from '../apps/ingest-sec/src/bulk/bulk.module';

jest.setTimeout(300_000);

const ROOT = join(__dirname, '..');
const BULK_MAIN = join(ROOT, 'dist', 'apps', 'ingest-sec', 'src', 'bulk.main.js');
const UA = 'Filings Platform e2e ops@filings.example';

let dir: string;
let fixtures: FixtureServer;
let settings: KafkaSettings;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bulk-kill-'));
  const zipPath = join(dir, 'submissions.zip');
  await writeZip(zipPath, fixtureSubmissionsEntries());
  fixtures = await startFixtureServer({ routes: [{ path: SUBMISSIONS_ZIP_PATH, file: zipPath, contentType: 'application/zip', delayMs: 250 }] });
  settings = { brokers: await kafkaBrokersForTests(), clientId: 'bulk-kill-e2e', logLevel: 'nothing' };
});

afterAll(async () => {
  await fixtures?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Records each entry of the fixture archive makes, in archive order. */
function recordsPerEntry(): number[] {
  const entries = fixtureSubmissionsEntries();
  const names = new Map<string, string>();
  const source = { url: 'https://data.sec.gov/submissions/x.json', contentHash: contentHash('x'), fetchedAt: '2025-08-02T00:00:00.000Z' };
  const ctx = { runId: 'run_count', extractedAt: source.fetchedAt };
  for (const e of entries) {
    if (!e.name.includes('-submissions-')) {
      const r = mainEntityRecords(e.bytes.toString('utf8'), source, ctx);
      names.set(r.company.cik, r.company.name);
    }
  }
  return entries.map((e) => {
    const text = e.bytes.toString('utf8');
    if (!e.name.includes('-submissions-')) {
      const r = mainEntityRecords(text, source, ctx);
      return r.filings.length + r.companies.length;
    }
    const cik = e.name.slice(3, 13);
    return overflowEntityRecords(text, { cik, name: names.get(cik)! }, source, ctx).filings.length;
  });
}

describe('bulk backfill killed with SIGKILL half-way, then run again', () => {
  it('finishes with every record on the topics, and republishes no more than the checkpoint window', async () => {
    expect(existsSync(BULK_MAIN)).toBe(true); // npm test builds dist before the integration tests
    const namespace = `bk${randomBytes(4).toString('hex')}`;
    const checkpointPath = join(dir, 'checkpoint.json');
    const env = {
      ...process.env,
      EDGAR_USER_AGENT: UA,
      KAFKA_BROKERS: settings.brokers.join(','),
      KAFKA_TOPIC_NAMESPACE: namespace,
      BULK_PUBLISH_BATCH: '300',
      BULK_HTTP_BLOCK_BYTES: '4096',
      LOG_LEVEL: 'warn',
    };
    const url = `${fixtures.url}${SUBMISSIONS_ZIP_PATH}`;
    const child = spawn(process.execPath, [BULK_MAIN, '--submissions', url, '--checkpoint', checkpointPath], { env, stdio: 'ignore' });
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
    const read = (): BulkCheckpoint | null => (existsSync(checkpointPath) ? bulkCheckpointSchema.parse(JSON.parse(readFileSync(checkpointPath, 'utf8'))) : null);
    const deadline = Date.now() + 120_000;
    while ((read()?.entries_done ?? 0) < 2 && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 10));
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const atKill = read()!;
    expect(atKill.finished_at).toBeNull();
    expect(atKill.entries_done).toBeGreaterThanOrEqual(2);
    expect(atKill.entries_done).toBeLessThan(5);

    const config = bulkConfigSchema.parse({ ...env, LOG_LEVEL: 'silent' });
    const app = await NestFactory.createApplicationContext(BulkModule.forRoot({ config, logger: createLogger({ level: 'silent' }) }), { logger: false });
    const second = await app.get(BulkBackfillService).execute({ source: url, checkpointPath }).finally(() => app.close());
    expect(second).toMatchObject({ status: 'finished', entries_done: 5, entries_skipped: atKill.entries_done, orphan_overflow: 0 });

    const perEntry = recordsPerEntry();
    const unique = perEntry.reduce((n, c) => n + c, 0);
    // The window: records of the entries the checkpoint had not counted when the process died.
    const window = perEntry.slice(atKill.entries_done).reduce((n, c) => n + c, 0);
    expect(second.records_published).toBe(window);
    const topics = [namespacedTopic(TOPICS.filings, namespace), namespacedTopic(TOPICS.companies, namespace)];
    const lag = await consumerLag(settings, `none-${namespace}`, topics);
    const onTopics = lag.reduce((n, p) => n + Number(p.high), 0);
    const messages = (await Promise.all(topics.map((t) => readTopic(settings, t.name, { count: lag.filter((p) => p.topic === t.name).reduce((n, p) => n + Number(p.high), 0), timeoutMs: 60_000 })))).flat();
    expect(messages).toHaveLength(onTopics);
    expect(new Set(messages.map((m) => m.headers['record-id'])).size).toBe(unique);
    expect(onTopics - unique).toBeLessThanOrEqual(window);
  });
});
