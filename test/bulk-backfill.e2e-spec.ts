// Bulk backfill end to end on real infrastructure: a submissions.zip built from the real fixture
// submissions files (two of them split into main + overflow file), served by the fixture EDGAR
// server at SEC's path -> ingest-sec bulk over HTTP range requests, stopped half-way and run again
// -> Kafka -> the batched projector -> Postgres -> /v1/filings.
import 'reflect-metadata';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { namespacedTopic, TOPICS } from '@app/contracts';
import { parseRecentFilings, parseSubmissions } from '@app/edgar';
import { consumerLag, ensureTopics, readTopic, type KafkaSettings } from '@app/messaging';
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
import { BulkModule } from '../apps/ingest-sec/src/bulk/bulk.module';
import { filingRecordFromSubmissions } from '../apps/ingest-sec/src/filings/filing.mapper';
import { projectorConfigSchema } from '../apps/projector/src/projector.config';
import { PROJECTED_TOPICS, startProjector, type RunningProjector } from '../apps/projector/src/projector.runner';

jest.setTimeout(600_000);

const UA = 'Filings Platform e2e ops@filings.example';
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
let first: BulkBackfillSummary;
let atStop: BulkCheckpoint;
let second: BulkBackfillSummary;

async function bulkRun(stopAfterEntries: number | null): Promise<BulkBackfillSummary> {
  const config = bulkConfigSchema.parse({
    EDGAR_USER_AGENT: UA,
    KAFKA_BROKERS: settings.brokers.join(','),
    KAFKA_TOPIC_NAMESPACE: namespace,
    BULK_PUBLISH_BATCH: '300',
    BULK_HTTP_BLOCK_BYTES: String(64 * 1024),
    LOG_LEVEL: 'silent',
  });
  const app = await NestFactory.createApplicationContext(BulkModule.forRoot({ config, logger: silent }), { logger: false });
  const stop = new AbortController();
  try {
    return await app.get(BulkBackfillService).execute({
      source: `${fixtures.url}${SUBMISSIONS_ZIP_PATH}`,
      checkpointPath,
      signal: stop.signal,
      onCheckpoint: (c) => {
        if (stopAfterEntries !== null && c.entries_done >= stopAfterEntries) stop.abort();
      },
    });
  } finally {
    await app.close();
  }
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
      const r = filingRecordFromSubmissions(company, f, source, { runId: 'run_expected', extractedAt: source.fetchedAt });
      if (r) expectedIds.set(r.key, r.id);
    }
  }
  accessions = [...expectedIds.keys()].sort();

  db = await createTestDatabase('bulk_e2e');
  pg = new Client({ connectionString: db.url });
  await pg.connect();
  fixtures = await startFixtureServer({ routes: [{ path: SUBMISSIONS_ZIP_PATH, file: zipPath, contentType: 'application/zip' }] });
  settings = { brokers: await kafkaBrokersForTests(), clientId: 'bulk-e2e', logLevel: 'nothing' };
  namespace = `e2e${randomBytes(4).toString('hex')}`;
  await ensureTopics(settings, PROJECTED_TOPICS.map((t) => namespacedTopic(t, namespace)));
  projector = await startProjector(
    projectorConfigSchema.parse({ DATABASE_URL: db.url, KAFKA_BROKERS: settings.brokers.join(','), KAFKA_TOPIC_NAMESPACE: namespace, PROJECTOR_GROUP_ID: `projector-${namespace}`, LOG_LEVEL: 'warn' }),
  );

  // Stopped once two entries are done (acknowledged and checkpointed), then run again.
  first = await bulkRun(2);
  atStop = bulkCheckpointSchema.parse(JSON.parse(readFileSync(checkpointPath, 'utf8')));
  second = await bulkRun(null);

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
  it('stopped half-way, the second run skipped the entries the checkpoint lists and finished', () => {
    expect(first.status).toBe('stopped');
    expect(atStop.entries_done).toBeGreaterThanOrEqual(2);
    expect(atStop.entries_done).toBeLessThan(5);
    expect(second).toMatchObject({ status: 'finished', entries_total: 5, entries_done: 5, entries_skipped: atStop.entries_done, entries_read: 5 - atStop.entries_done, orphan_overflow: 0 });
    expect(bulkCheckpointSchema.parse(JSON.parse(readFileSync(checkpointPath, 'utf8')))).toMatchObject({ entries_done: 5, finished_at: expect.any(String) });
  });

  it('published each record once: nothing beyond the checkpoint window (empty here: a stop checkpoints the publish in flight) again', async () => {
    const lag = await consumerLag(settings, `projector-${namespace}`, topics());
    const onTopics = lag.reduce((n, p) => n + Number(p.high), 0);
    expect(onTopics).toBe(first.records_published + second.records_published);
    const highOf = (name: string) => lag.filter((p) => p.topic === name).reduce((n, p) => n + Number(p.high), 0);
    const messages = (await Promise.all(topics().map((t) => readTopic(settings, t.name, { count: highOf(t.name), timeoutMs: 60_000 })))).flat();
    expect(messages).toHaveLength(onTopics);
    const ids = new Set(messages.map((m) => m.headers['record-id']));
    // Every filing plus one company@1 per ticker (MUR, MSFT, TSLA).
    expect(ids.size).toBe(accessions.length + 3);
    expect(onTopics - ids.size).toBeLessThanOrEqual(first.records_published - atStop.records_published);
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
