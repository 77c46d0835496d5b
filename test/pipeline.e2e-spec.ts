// The first slice end to end on real infrastructure: the fixture EDGAR server (real SEC files) ->
// ingest-sec -> Kafka -> projector -> Postgres -> the api's /v1/companies, through each app's own
// composition root.
// @infra-path: the first slice once end to end on whatever provides the infrastructure (the containers' addresses, docker-compose.yml's Kafka and Postgres).
import 'reflect-metadata';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { loadConfig } from '@app/config';
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
import { ingestSecConfigSchema } from '../apps/ingest-sec/src/ingest-sec.config';
import { IngestSecModule } from '../apps/ingest-sec/src/ingest-sec.module';
import { IngestSecService, type IngestSecSummary } from '../apps/ingest-sec/src/ingest-sec.service';
import { projectorConfigSchema } from '../apps/projector/src/projector.config';
import { startProjector, type RunningProjector } from '../apps/projector/src/projector.runner';

const UA = 'Filings Platform e2e ops@filings.example';

let db: TestDatabase;
let pg: Client;
let fixtures: FixtureServer;
let brokers: string[];
let namespace: string;
let summary: IngestSecSummary;
let projector: RunningProjector | undefined;
let api: NestFastifyApplication;
let key: string;

function projectorConfig(groupId: string) {
  return projectorConfigSchema.parse({
    DATABASE_URL: db.url,
    KAFKA_BROKERS: brokers.join(','),
    KAFKA_TOPIC_NAMESPACE: namespace,
    PROJECTOR_GROUP_ID: groupId,
    LOG_LEVEL: 'warn',
  });
}

async function get<T>(url: string): Promise<{ status: number; body: T; headers: Record<string, unknown> }> {
  const r = await api.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
  return { status: r.statusCode, body: r.json<T>(), headers: r.headers };
}

async function rowCount(): Promise<number> {
  const { rows } = await pg.query<{ n: string }>('SELECT count(*) AS n FROM companies');
  return Number(rows[0]!.n);
}

beforeAll(async () => {
  db = await createTestDatabase('pipeline');
  pg = new Client({ connectionString: db.url });
  await pg.connect();
  brokers = await kafkaBrokersForTests();
  namespace = `e2e${randomBytes(4).toString('hex')}`;
  fixtures = await startFixtureServer();

  const ingestConfig = loadConfig(ingestSecConfigSchema, {
    EDGAR_USER_AGENT: UA,
    EDGAR_WWW_BASE_URL: fixtures.url,
    EDGAR_DATA_BASE_URL: fixtures.url,
    KAFKA_BROKERS: brokers.join(','),
    KAFKA_TOPIC_NAMESPACE: namespace,
    SEC_COVERAGE: 'all',
    SEC_SUBMISSIONS: 'MSFT,TSLA,MUR',
    LOG_LEVEL: 'silent',
  });
  const ingest = await NestFactory.createApplicationContext(
    IngestSecModule.forRoot({ config: ingestConfig, logger: createLogger({ level: 'silent' }) }),
    { logger: false },
  );
  try {
    summary = await ingest.get(IngestSecService).execute({ runId: 'run_e2e' });
  } finally {
    await ingest.close();
  }

  projector = await startProjector(projectorConfig('projector'));
  await expectEventually(async () => expect(await rowCount()).toBe(summary.published), { timeoutMs: 120_000, intervalMs: 500 });

  api = await createApiApp(
    apiConfigSchema.parse({
      DATABASE_URL: db.url,
      API_KEY_PEPPER: randomBytes(24).toString('hex'),
      CURSOR_SECRET: randomBytes(24).toString('hex'),
      // The walks below send tens of thousands of requests: lift the enterprise burst for them.
      PLAN_ENTERPRISE_BURST_PER_SECOND: 1_000_000,
      PLAN_ENTERPRISE_DAILY_QUOTA: 10_000_000,
      LOG_LEVEL: 'silent',
    }),
    { logger: createLogger({ level: 'silent' }) },
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

describe('SEC ticker map -> Kafka -> projector -> /v1/companies', () => {
  it('ingests every listing of the fixture ticker map, with detail for the companies whose submissions exist', () => {
    expect(summary).toMatchObject({ published: 9441, withDetail: 3, errors: 0 });
    expect(fixtures.requests.every((r) => r.userAgent === UA)).toBe(true);
  });

  it("serves Microsoft's detail with provenance traceable to the fetched bytes", async () => {
    const { status, body } = await get<Record<string, unknown>>('/v1/companies/MSFT:US');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      symbol: 'MSFT:US',
      ticker: 'MSFT',
      market: 'US',
      name: 'MICROSOFT CORP',
      cik: '0000789019',
      issuer_id: 789019,
      isin: null,
      figi: null,
      listing_exchange: 'Nasdaq',
      country: 'US',
      status: 'active',
      is_etf: false,
      is_fund: false,
      sector: null,
      industry: null,
      employee_count: null,
    });
    const bytes = readFileSync(join(defaultFixturesDir(), 'submissions', 'CIK0000789019.json'));
    const provenance = body.provenance as Record<string, unknown>;
    expect(provenance).toMatchObject({
      source_provider: 'sec',
      source_url: `${fixtures.url}/submissions/CIK0000789019.json`,
      content_hash: `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
      accession: null,
    });
    expect(bytes.toString('utf8')).toContain(provenance.quote as string);
    expect(body.gaps).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'not_in_source', field: 'website' }), expect.objectContaining({ code: 'not_stored', field: 'sector' })]));
  });

  it('answers the detail of a listing whose submissions were not fetched, naming what is missing', async () => {
    const { status, body } = await get<Record<string, unknown>>('/v1/companies/AAPL:US');
    expect(status).toBe(200);
    expect(body).toMatchObject({ symbol: 'AAPL:US', name: 'Apple Inc.', cik: '0000320193', website: null, country: null });
    expect(body.gaps).toEqual(expect.arrayContaining([{ code: 'sec_submissions_pending', detail: expect.stringMatching(/^detail: SEC submissions not fetched/) }]));
  });

  it('walks the whole ticker map with limits 1, 25 and 500 in both directions: every row exactly once, in order', async () => {
    const { rows } = await pg.query<{ symbol: string }>(`SELECT symbol FROM companies WHERE status = 'active'`);
    const all = rows.map((r) => r.symbol).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    expect(all.length).toBe(9441);
    for (const limit of [1, 25, 500]) {
      for (const direction of ['asc', 'desc'] as const) {
        const seen: string[] = [];
        let cursor: string | null = null;
        let pages = 0;
        do {
          const url: string = `/v1/companies?limit=${limit}&direction=${direction}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
          const { status, body } = await get<{ data: { symbol: string }[]; pagination: { next_cursor: string | null; has_more: boolean } }>(url);
          expect(status).toBe(200);
          expect(body.data.length).toBeLessThanOrEqual(limit);
          seen.push(...body.data.map((c) => c.symbol));
          expect(body.pagination.has_more).toBe(body.pagination.next_cursor !== null);
          cursor = body.pagination.next_cursor;
          pages += 1;
        } while (cursor !== null);
        expect(seen).toEqual(direction === 'asc' ? all : [...all].reverse());
        expect(pages).toBe(Math.ceil(all.length / limit));
      }
    }
  });

  it('re-running the projector over the same records changes nothing', async () => {
    await projector!.stop();
    const before = await pg.query<{ max: Date }>('SELECT max(updated_at) AS max FROM companies');
    projector = await startProjector(projectorConfig('projector-replay'));
    const replay = projector;
    await expectEventually(() => expect(replay.counters().processed).toBe(summary.published), { timeoutMs: 120_000, intervalMs: 500 });
    expect(replay.service.counts).toMatchObject({ inserted: 0, updated: 0, unchanged: summary.published });
    const after = await pg.query<{ max: Date }>('SELECT max(updated_at) AS max FROM companies');
    expect(after.rows[0]!.max.getTime()).toBe(before.rows[0]!.max.getTime());
    expect(await rowCount()).toBe(summary.published);
  });
});
