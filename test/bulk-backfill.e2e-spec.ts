// Bulk backfill end to end on real infrastructure: a submissions.zip built from the real fixture
// submissions files (two of them split into main + overflow file), served slowly by the fixture
// EDGAR server at SEC's path -> the built `ingest-sec bulk` over HTTP range requests, SIGKILLed
// once its checkpoint counts two entries, then run again -> Kafka -> the batched projector ->
// Postgres -> /v1/filings: the same rows as the unsplit files give, and nothing published twice
// beyond the records of the entries the checkpoint had not yet counted (the window). History is not
// news: the backfill makes no webhook event; the live poller's first read of the real latest-filings
// feed afterwards makes exactly one per filing it discovered.
import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { contentHash, namespacedTopic, TOPICS } from '@app/contracts';
import { EdgarClient, isEightKForm, parseRecentFilings, parseSubmissions, RequestLimiter } from '@app/edgar';
import { consumerLag, ensureTopics, KafkaRecordPublisher, readTopic, type KafkaSettings } from '@app/messaging';
import { createLogger } from '@app/observability';
import {
  createTestDatabase,
  defaultFixturesDir,
  expectEventually,
  fixtureSubmissionsEntries,
  kafkaBrokersForTests,
  startFixtureServer,
  SUBMISSIONS_ZIP_PATH,
  writeZip,
  type FixtureServer,
  type TestDatabase,
} from '@app/testing';
import { createApiApp } from '../apps/api/src/api.app';
import type { ApiContext } from '../apps/api/src/api.context';
import { apiConfigSchema } from '../apps/api/src/config/api.config';
import { BulkBackfillService, type BulkBackfillSummary } from '../apps/ingest-sec/src/bulk/bulk-backfill.service';
import { bulkCheckpointSchema, type BulkCheckpoint } from '../apps/ingest-sec/src/bulk/bulk.checkpoint';
import { bulkConfigSchema } from '../apps/ingest-sec/src/bulk/bulk.config';
import { mainEntityRecords, overflowEntityRecords } from '../apps/ingest-sec/src/bulk/bulk.mapper';
import { BulkModule } from '../apps/ingest-sec/src/bulk/bulk.module';
import { filingRecordFromSubmissions } from '../apps/ingest-sec/src/filings/filing.mapper';
import { FilingsLiveService } from '../apps/ingest-sec/src/filings/filings-live.service';
import { parseFilingsConfig } from '../apps/ingest-sec/src/filings/filings.config';
import { projectorConfigSchema } from '../apps/projector/src/projector.config';
import { PROJECTED_TOPICS, startProjector, type RunningProjector } from '../apps/projector/src/projector.runner';

jest.setTimeout(600_000);

const UA = 'Filings Platform e2e ops@filings.example';
const BULK_MAIN = join(__dirname, '..', 'dist', 'apps', 'ingest-sec', 'src', 'bulk.main.js');
const silent = createLogger({ level: 'silent' });

let dir: string;
let db: TestDatabase;
let pg: Client;
let fixtures: FixtureServer;
let settings: KafkaSettings;
let namespace: string;
let projector: RunningProjector | undefined;
let api: NestFastifyApplication;
let key: string;
let checkpointPath: string;
/** Every accession of the three real submissions files, as they were before the split. */
let accessions: string[];
/** accession -> record id of its filing@1 made from the unsplit file (the id hashes the data only). */
let expectedIds: Map<string, string>;
let atKill: BulkCheckpoint;
let second: BulkBackfillSummary;

/** The bulk backfill's settings: small range requests and publish batches, so a kill lands half-way. */
const bulkEnv = (): Record<string, string> => ({
  EDGAR_USER_AGENT: UA,
  KAFKA_BROKERS: settings.brokers.join(','),
  KAFKA_TOPIC_NAMESPACE: namespace,
  BULK_PUBLISH_BATCH: '300',
  BULK_HTTP_BLOCK_BYTES: '4096',
  LOG_LEVEL: 'warn',
});
const zipUrl = () => `${fixtures.url}${SUBMISSIONS_ZIP_PATH}`;
const readCheckpoint = (): BulkCheckpoint | null => (existsSync(checkpointPath) ? bulkCheckpointSchema.parse(JSON.parse(readFileSync(checkpointPath, 'utf8'))) : null);

/** The built command, SIGKILLed once its checkpoint counts two entries done; the checkpoint then. */
async function killedRun(): Promise<BulkCheckpoint> {
  const child = spawn(process.execPath, [BULK_MAIN, '--submissions', zipUrl(), '--checkpoint', checkpointPath], { env: { ...process.env, ...bulkEnv() }, stdio: 'ignore' });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  const deadline = Date.now() + 120_000;
  while ((readCheckpoint()?.entries_done ?? 0) < 2 && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 10));
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
  return readCheckpoint()!;
}

async function resumedRun(): Promise<BulkBackfillSummary> {
  const config = bulkConfigSchema.parse({ ...bulkEnv(), LOG_LEVEL: 'silent' });
  const app = await NestFactory.createApplicationContext(BulkModule.forRoot({ config, logger: silent }), { logger: false });
  try {
    return await app.get(BulkBackfillService).execute({ source: zipUrl(), checkpointPath });
  } finally {
    await app.close();
  }
}

/** Records each entry of the fixture archive makes, in archive order. */
function recordsPerEntry(): number[] {
  const entries = fixtureSubmissionsEntries();
  const source = { url: 'https://data.sec.gov/submissions/x.json', contentHash: contentHash('x'), fetchedAt: '2025-08-02T00:00:00.000Z' };
  const ctx = { runId: 'run_count', origin: 'live' as const, extractedAt: source.fetchedAt };
  const names = new Map<string, string>();
  for (const e of entries) {
    if (e.name.includes('-submissions-')) continue;
    const r = mainEntityRecords(e.bytes.toString('utf8'), source, ctx);
    names.set(r.company.cik, r.company.name);
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

async function get<T>(url: string): Promise<{ status: number; body: T }> {
  const r = await api.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
  return { status: r.statusCode, body: r.json<T>() };
}

const topics = () => [namespacedTopic(TOPICS.filings, namespace), namespacedTopic(TOPICS.companies, namespace)];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bulk-e2e-'));
  checkpointPath = join(dir, 'checkpoints', 'bulk-submissions.json');
  const zipPath = join(dir, 'submissions.zip');
  await writeZip(zipPath, fixtureSubmissionsEntries());
  expectedIds = new Map();
  for (const file of ['CIK0000717423.json', 'CIK0000789019.json', 'CIK0001318605.json']) {
    const bytes = readFileSync(join(defaultFixturesDir(), 'submissions', file));
    const company = parseSubmissions(bytes);
    const source = { url: `https://data.sec.gov/submissions/${file}`, contentHash: 'sha256:unused', fetchedAt: '2025-08-02T00:00:00.000Z' };
    for (const f of parseRecentFilings(bytes)) {
      const r = filingRecordFromSubmissions(company, f, source, { runId: 'run_expected', origin: 'live' as const, extractedAt: source.fetchedAt });
      if (r) expectedIds.set(r.key, r.id);
    }
  }
  accessions = [...expectedIds.keys()].sort();

  db = await createTestDatabase('bulk_e2e');
  pg = new Client({ connectionString: db.url });
  await pg.connect();
  // Each range request answered late: the kill lands while entries are still being read.
  fixtures = await startFixtureServer({ routes: [{ path: SUBMISSIONS_ZIP_PATH, file: zipPath, contentType: 'application/zip', delayMs: 250 }] });
  settings = { brokers: await kafkaBrokersForTests(), clientId: 'bulk-e2e', logLevel: 'nothing' };
  namespace = `e2e${randomBytes(4).toString('hex')}`;
  await ensureTopics(settings, PROJECTED_TOPICS.map((t) => namespacedTopic(t, namespace)));
  projector = await startProjector(
    projectorConfigSchema.parse({ DATABASE_URL: db.url, KAFKA_BROKERS: settings.brokers.join(','), KAFKA_TOPIC_NAMESPACE: namespace, PROJECTOR_GROUP_ID: `projector-${namespace}`, LOG_LEVEL: 'warn' }),
  );

  expect(existsSync(BULK_MAIN)).toBe(true); // npm test builds dist before the integration tests
  atKill = await killedRun();
  second = await resumedRun();

  await expectEventually(
    async () => {
      const lag = await consumerLag(settings, `projector-${namespace}`, topics());
      expect(lag.reduce((n, p) => n + p.lag, 0)).toBe(0);
      const { rows } = await pg.query<{ n: number }>('SELECT count(*)::int AS n FROM filings');
      expect(rows[0]!.n).toBe(accessions.length);
    },
    { timeoutMs: 180_000, intervalMs: 500 },
  );

  api = await createApiApp(
    apiConfigSchema.parse({
      DATABASE_URL: db.url,
      API_KEY_PEPPER: randomBytes(24).toString('hex'),
      CURSOR_SECRET: randomBytes(24).toString('hex'),
      PLAN_ENTERPRISE_BURST_PER_SECOND: 1_000_000,
      PLAN_ENTERPRISE_DAILY_QUOTA: 10_000_000,
      LOG_LEVEL: 'silent',
    }),
    { logger: silent },
  );
  const context = api.get<ApiContext>('API_CONTEXT');
  await pg.query(`INSERT INTO accounts (id, name, plan) VALUES ('acct_bulk', 'bulk e2e', 'enterprise')`);
  key = (await context.keys.createKey({ accountId: 'acct_bulk', mode: 'live', label: 'bulk e2e' })).key;
});

afterAll(async () => {
  await api?.close();
  await projector?.stop();
  await fixtures?.close();
  await pg?.end();
  await db?.drop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('submissions.zip -> ingest-sec bulk -> Kafka -> projector -> /v1/filings', () => {
  it('killed half-way, the second run skipped the entries the checkpoint lists and finished', () => {
    expect(atKill.finished_at).toBeNull();
    expect(atKill.entries_done).toBeGreaterThanOrEqual(2);
    expect(atKill.entries_done).toBeLessThan(5);
    expect(second).toMatchObject({ status: 'finished', entries_total: 5, entries_done: 5, entries_skipped: atKill.entries_done, entries_read: 5 - atKill.entries_done, orphan_overflow: 0 });
    expect(bulkCheckpointSchema.parse(JSON.parse(readFileSync(checkpointPath, 'utf8')))).toMatchObject({ entries_done: 5, finished_at: expect.any(String) });
  });

  it('published every record, and again no more than the records of the entries the checkpoint had not counted', async () => {
    const perEntry = recordsPerEntry();
    const window = perEntry.slice(atKill.entries_done).reduce((n, c) => n + c, 0);
    expect(second.records_published).toBe(window);
    const lag = await consumerLag(settings, `projector-${namespace}`, topics());
    const onTopics = lag.reduce((n, p) => n + Number(p.high), 0);
    const highOf = (name: string) => lag.filter((p) => p.topic === name).reduce((n, p) => n + Number(p.high), 0);
    const messages = (await Promise.all(topics().map((t) => readTopic(settings, t.name, { count: highOf(t.name), timeoutMs: 60_000 })))).flat();
    expect(messages).toHaveLength(onTopics);
    const ids = new Set(messages.map((m) => m.headers['record-id']));
    // Every filing plus one company@1 per ticker (MUR, MSFT, TSLA).
    expect(ids.size).toBe(accessions.length + 3);
    expect(ids.size).toBe(perEntry.reduce((n, c) => n + c, 0));
    expect(onTopics - ids.size).toBeLessThanOrEqual(window);
  });

  it('/v1/filings lists every filing of every entity file, overflow files included, each once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const url: string = `/v1/filings?limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const { status, body } = await get<{ data: { accession: string }[]; pagination: { next_cursor: string | null } }>(url);
      expect(status).toBe(200);
      seen.push(...body.data.map((f) => f.accession));
      cursor = body.pagination.next_cursor;
    } while (cursor !== null);
    expect(seen.sort()).toEqual(accessions);
    // The same rows as the unsplit files give: one per accession, each from the record made of the same data.
    const { rows } = await pg.query<{ accession: string; record_id: string }>('SELECT accession, record_id FROM filings ORDER BY accession');
    expect(new Map(rows.map((r) => [r.accession, r.record_id]))).toEqual(expectedIds);
  });

  it("serves a filing of Microsoft's overflow file under its company, traced to that entity file", async () => {
    const overflow = fixtureSubmissionsEntries().find((e) => e.name === 'CIK0000789019-submissions-001.json')!;
    const accession = (JSON.parse(overflow.bytes.toString('utf8')) as { accessionNumber: string[] }).accessionNumber[0]!;
    const { status, body } = await get<{ cik: string; company_name: string; provenance: { source_url: string; quote: string } }>(`/v1/filings/${accession}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ cik: '0000789019', company_name: 'MICROSOFT CORP' });
    expect(body.provenance.source_url).toBe('https://data.sec.gov/submissions/CIK0000789019-submissions-001.json');
    expect(overflow.bytes.toString('utf8')).toContain(body.provenance.quote);
  });
});

describe('history is not news: the backfill announces nothing, live discovery announces each filing once', () => {
  interface EventItem { id: string; type: string; data: { accession: string } }
  const listEvents = async (): Promise<EventItem[]> => {
    const { status, body } = await get<{ data: EventItem[] }>('/v1/events?limit=100');
    expect(status).toBe(200);
    return body.data;
  };

  it('the bulk backfill wrote no webhook event and /v1/events is empty', async () => {
    const { rows } = await pg.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_events');
    expect(rows[0]!.n).toBe(0);
    expect(await listEvents()).toEqual([]);
  });

  it('the live poller reads the real feed: one filing.created per filing it found, none for history', async () => {
    const config = parseFilingsConfig({
      EDGAR_USER_AGENT: UA, EDGAR_WWW_BASE_URL: fixtures.url, EDGAR_DATA_BASE_URL: fixtures.url,
      KAFKA_BROKERS: settings.brokers.join(','), KAFKA_TOPIC_NAMESPACE: namespace, SEC_COVERAGE: 'all', LOG_LEVEL: 'silent',
    });
    const edgar = new EdgarClient({ userAgent: UA, wwwBaseUrl: fixtures.url, dataBaseUrl: fixtures.url, maxRps: 10, budget: new RequestLimiter(10), maxAttempts: 1 });
    const publisher = new KafkaRecordPublisher({ ...settings, clientId: 'bulk-e2e-live' });
    try {
      const summary = await new FilingsLiveService(config, edgar, publisher, namespacedTopic(TOPICS.filings, namespace), silent).pollFeed();
      expect(summary.published).toBeGreaterThan(50);
      await expectEventually(
        async () => {
          const { rows } = await pg.query<{ n: number }>(`SELECT count(*)::int AS n FROM filings WHERE source = 'latest_filings'`);
          expect(rows[0]!.n).toBe(summary.published);
        },
        { timeoutMs: 60_000, intervalMs: 250 },
      );
    } finally {
      await publisher.close();
    }
    const { rows: live } = await pg.query<{ accession: string; form: string }>(`SELECT accession, form FROM filings WHERE source = 'latest_filings' ORDER BY accession`);
    // An 8-K is announced once the 8-K worker has read its items (none runs here).
    const announced = live.filter((f) => !isEightKForm(f.form)).map((f) => f.accession);
    const { rows: events } = await pg.query<{ type: string; entity_key: string }>('SELECT type, entity_key FROM webhook_events ORDER BY entity_key');
    expect(events.map((e) => e.entity_key)).toEqual(announced);
    expect(new Set(events.map((e) => e.type))).toEqual(new Set(['filing.created']));
    // The feed shows an event once it has settled (FEED_SETTLE_SECONDS); its next_cursor is set on its last page too: has_more says whether to go on.
    await expectEventually(
      async () => {
        const items: EventItem[] = [];
        for (let cursor: string | null = null, more = true; more; ) {
          const page: { body: { data: EventItem[]; pagination: { next_cursor: string | null; has_more: boolean } } } = await get(`/v1/events?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
          items.push(...page.body.data);
          cursor = page.body.pagination.next_cursor;
          more = page.body.pagination.has_more;
        }
        expect(items.map((e) => e.data.accession).sort()).toEqual(announced);
      },
      { timeoutMs: 30_000, intervalMs: 1_000 },
    );
  });
});
