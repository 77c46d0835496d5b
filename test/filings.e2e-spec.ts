// Filings end to end on real infrastructure: the fixture EDGAR server (real SEC files) -> ingest-sec
// filings (backfill over submissions JSON, live --once over the daily form index) -> Kafka ->
// projector -> Postgres -> the api's /v1/filings routes.
import 'reflect-metadata';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { loadConfig } from '@app/config';
import { namespacedTopic } from '@app/contracts';
import { ensureTopics } from '@app/messaging';
import { createLogger } from '@app/observability';
import {
  createTestDatabase,
  defaultFixturesDir,
  expectEventually,
  kafkaBrokersForTests,
  startFixtureServer,
  type FixtureServer,
  type TestDatabase,
} from '@app/testing';
import { createApiApp } from '../apps/api/src/api.app';
import type { ApiContext } from '../apps/api/src/api.context';
import { apiConfigSchema } from '../apps/api/src/config/api.config';
import { FilingsBackfillService, type FilingsBackfillSummary } from '../apps/ingest-sec/src/filings/filings-backfill.service';
import { FilingsLiveService, type PollSummary } from '../apps/ingest-sec/src/filings/filings-live.service';
import { parseFilingsConfig } from '../apps/ingest-sec/src/filings/filings.config';
import { FilingsModule } from '../apps/ingest-sec/src/filings/filings.module';
import { ingestSecConfigSchema } from '../apps/ingest-sec/src/ingest-sec.config';
import { IngestSecModule } from '../apps/ingest-sec/src/ingest-sec.module';
import { IngestSecService } from '../apps/ingest-sec/src/ingest-sec.service';
import { projectorConfigSchema } from '../apps/projector/src/projector.config';
import { PROJECTED_TOPICS, startProjector, type RunningProjector } from '../apps/projector/src/projector.runner';

const UA = 'Filings Platform e2e ops@filings.example';
/** Rows of the filings read model after the backfill and the one poll (see the count below). */
const FILING_ROWS = 1548 + 31;
const sha256 = (b: Buffer) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

let db: TestDatabase;
let pg: Client;
let fixtures: FixtureServer;
let brokers: string[];
let namespace: string;
let backfill: FilingsBackfillSummary;
let poll: PollSummary;
let projector: RunningProjector | undefined;
let api: NestFastifyApplication;
let key: string;

async function get<T>(url: string): Promise<{ status: number; body: T }> {
  const r = await api.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
  return { status: r.statusCode, body: r.json<T>() };
}

async function filingRows(): Promise<number> {
  const { rows } = await pg.query<{ n: string }>('SELECT count(*) AS n FROM filings');
  return Number(rows[0]!.n);
}

beforeAll(async () => {
  db = await createTestDatabase('filings_e2e');
  pg = new Client({ connectionString: db.url });
  await pg.connect();
  brokers = await kafkaBrokersForTests();
  namespace = `e2e${randomBytes(4).toString('hex')}`;
  fixtures = await startFixtureServer();
  const env = {
    EDGAR_USER_AGENT: UA,
    EDGAR_WWW_BASE_URL: fixtures.url,
    EDGAR_DATA_BASE_URL: fixtures.url,
    KAFKA_BROKERS: brokers.join(','),
    KAFKA_TOPIC_NAMESPACE: namespace,
    SEC_COVERAGE: 'MSFT,TSLA,MUR',
    FILINGS_CURRENT_FORMS: '10-K',
    LOG_LEVEL: 'silent',
  };
  const silent = createLogger({ level: 'silent' });

  // Companies first, so /v1/companies/{symbol}/filings knows the symbols.
  const companies = await NestFactory.createApplicationContext(
    IngestSecModule.forRoot({ config: loadConfig(ingestSecConfigSchema, env), logger: silent }),
    { logger: false },
  );
  try {
    await companies.get(IngestSecService).execute({ runId: 'run_e2e_companies' });
  } finally {
    await companies.close();
  }

  const filings = await NestFactory.createApplicationContext(FilingsModule.forRoot({ config: parseFilingsConfig(env), logger: silent }), { logger: false });
  try {
    backfill = await filings.get(FilingsBackfillService).execute({ companies: ['MSFT', 'TSLA'], from: '2019-01-01', to: '2025-12-31', runId: 'run_e2e_backfill' });
    [poll] = (await filings.get(FilingsLiveService).run({ once: true, date: '2020-03-18' })) as [PollSummary];
  } finally {
    await filings.close();
  }

  // The projector subscribes to every projected topic; those this test does not produce must exist too.
  await ensureTopics({ brokers, clientId: 'filings-e2e' }, PROJECTED_TOPICS.map((t) => namespacedTopic(t, namespace)));
  projector = await startProjector(
    projectorConfigSchema.parse({ DATABASE_URL: db.url, KAFKA_BROKERS: brokers.join(','), KAFKA_TOPIC_NAMESPACE: namespace, PROJECTOR_GROUP_ID: 'projector', LOG_LEVEL: 'warn' }),
  );
  // 1,010 MSFT + 536 TSLA filings since 2019, plus MUR's two Form 4s of 2020-03-18 from the daily
  // index (MSFT's Form 4 of that day is already there from its submissions JSON) and that day's 31
  // N-PORT reports, which the poll keeps whoever files them (their holdings name covered companies).
  await expectEventually(async () => expect(await filingRows()).toBe(FILING_ROWS), { timeoutMs: 180_000, intervalMs: 500 });

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
  await pg.query(`INSERT INTO accounts (id, name, plan) VALUES ('acct_e2e', 'e2e', 'enterprise')`);
  key = (await context.keys.createKey({ accountId: 'acct_e2e', mode: 'live', label: 'e2e' })).key;
}, 600_000);

afterAll(async () => {
  await api?.close();
  await projector?.stop();
  await fixtures?.close();
  await pg?.end();
  await db?.drop();
});

describe('EDGAR filings -> Kafka -> projector -> /v1/filings', () => {
  it('backfilled MSFT and TSLA and polled the daily index once', () => {
    expect(backfill.companies.map((c) => [c.company, c.status, c.published])).toEqual([
      ['MSFT', 'ok', 1010],
      ['TSLA', 'ok', 536],
    ]);
    expect(poll).toMatchObject({ dailyIndex: 'ok', currentEvents: { '10-K': 'ok' }, published: 3 + 31 });
    expect(fixtures.requests.every((r) => r.userAgent === UA)).toBe(true);
  });

  it("serves MSFT's 10-K of 2025-07-30 with provenance traceable to the submissions JSON", async () => {
    const { status, body } = await get<Record<string, unknown>>('/v1/filings/0000950170-25-100235');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      accession: '0000950170-25-100235',
      cik: '0000789019',
      company_name: 'MICROSOFT CORP',
      form: '10-K',
      filed_date: '2025-07-30',
      accepted_at: '2025-07-30T20:11:40.000Z',
      report_period: '2025-06-30',
      primary_document_url: 'https://www.sec.gov/Archives/edgar/data/789019/000095017025100235/msft-20250630.htm',
      description: '10-K',
      size: 34889671,
      is_amendment: false,
      amends_accession: null,
    });
    const bytes = readFileSync(join(defaultFixturesDir(), 'submissions', 'CIK0000789019.json'));
    const provenance = body.provenance as Record<string, string>;
    expect(provenance).toMatchObject({
      source_provider: 'sec',
      source_url: `${fixtures.url}/submissions/CIK0000789019.json`,
      accession: '0000950170-25-100235',
      content_hash: sha256(bytes),
    });
    expect(bytes.toString('utf8')).toContain(provenance.quote);
  });

  it("lists MSFT's 10-Ks newest first under its symbol, with the company reference", async () => {
    const { status, body } = await get<{ data: { accession: string; filed_date: string }[]; company: Record<string, unknown> }>('/v1/companies/MSFT:US/filings?forms=10-K&limit=3');
    expect(status).toBe(200);
    expect(body.data.map((f) => [f.accession, f.filed_date])).toEqual([
      ['0000950170-25-100235', '2025-07-30'],
      ['0000950170-24-087843', '2024-07-30'],
      ['0000950170-23-035122', '2023-07-27'],
    ]);
    expect(body.company).toMatchObject({ symbol: 'MSFT:US', cik: '0000789019', name: 'MICROSOFT CORP' });
  });

  it('serves the live-mode filings of covered companies, quoted from the daily index', async () => {
    const { status, body } = await get<Record<string, unknown>>('/v1/filings/0001127602-20-011298');
    expect(status).toBe(200);
    expect(body).toMatchObject({ cik: '0000717423', company_name: 'MURPHY OIL CORP', form: '4', filed_date: '2020-03-18', accepted_at: null });
    const idx = readFileSync(join(defaultFixturesDir(), 'feeds', 'form.20200318.idx'));
    const provenance = body.provenance as Record<string, string>;
    expect(provenance.content_hash).toBe(sha256(idx));
    expect(idx.toString('latin1')).toContain(provenance.quote);
    // The richer submissions record of MSFT's Form 4 of that day was not overwritten by the index row.
    const msft = await get<{ accepted_at: string | null; provenance: { source_url: string } }>('/v1/filings/0001626431-20-000031');
    expect(msft.body.accepted_at).not.toBeNull();
    expect(msft.body.provenance.source_url).toMatch(/\/submissions\/CIK0000789019\.json$/);
  });

  it('walks all filings in both directions, every row once', async () => {
    for (const direction of ['desc', 'asc'] as const) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const url: string = `/v1/filings?limit=500&direction=${direction}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const { status, body } = await get<{ data: { accession: string }[]; pagination: { next_cursor: string | null } }>(url);
        expect(status).toBe(200);
        seen.push(...body.data.map((f) => f.accession));
        cursor = body.pagination.next_cursor;
      } while (cursor !== null);
      expect(seen).toHaveLength(FILING_ROWS);
      expect(new Set(seen).size).toBe(FILING_ROWS);
    }
  });
});
