// 10-K sections and descriptions end to end on real infrastructure: the fixture EDGAR server (the
// sample's Tesla submissions and its 10-K for 2024 at its Archive path) -> ingest-sec (companies,
// then sections as `sections.main --filing` runs them) -> Kafka -> projector -> Postgres -> the
// api's company detail, /v1/companies/{symbol}/sections/{item} and /v1/citations/verify.
import 'reflect-metadata';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { namespacedTopic, type Provenance } from '@app/contracts';
import { loadConfig } from '@app/config';
import { tenkText } from '@app/edgar';
import { ensureTopics } from '@app/messaging';
import { createLogger } from '@app/observability';
import { createTestDatabase, defaultFixturesDir, expectEventually, kafkaBrokersForTests, startFixtureServer, type FixtureServer, type TestDatabase } from '@app/testing';
import { createApiApp } from '../apps/api/src/api.app';
import type { ApiContext } from '../apps/api/src/api.context';
import { apiConfigSchema } from '../apps/api/src/config/api.config';
import { ingestSecConfigSchema } from '../apps/ingest-sec/src/ingest-sec.config';
import { IngestSecModule } from '../apps/ingest-sec/src/ingest-sec.module';
import { IngestSecService } from '../apps/ingest-sec/src/ingest-sec.service';
import { sectionsConfigSchema } from '../apps/ingest-sec/src/sections/sections.config';
import { SectionsModule } from '../apps/ingest-sec/src/sections/sections.module';
import { SectionsService, type SectionsSummary } from '../apps/ingest-sec/src/sections/sections.service';
import { projectorConfigSchema } from '../apps/projector/src/projector.config';
import { PROJECTED_TOPICS, startProjector, type RunningProjector } from '../apps/projector/src/projector.runner';
import { FIXTURE_INGEST } from './support/fixture-platform';

const UA = 'Filings Platform e2e ops@filings.example';
const TSLA_10K = '/Archives/edgar/data/1318605/000162828025003063/tsla-20241231.htm';
const BYTES = readFileSync(join(defaultFixturesDir(), 'tenk', 'TSLA-tsla-10-k-2025-01-30.html'));
const FIRST_SENTENCE =
  'We design, develop, manufacture, sell and lease high-performance fully electric vehicles and energy generation and storage systems, and offer services related to our products.';

let db: TestDatabase;
let pg: Client;
let fixtures: FixtureServer;
let sections: SectionsSummary;
let projector: RunningProjector | undefined;
let api: NestFastifyApplication;
let key: string;

interface CompanyBody {
  symbol: string;
  description: string | null;
  description_provenance: Provenance | null;
  gaps: Array<{ code: string; field?: string; detail: string }>;
}
interface SectionBody {
  item: string;
  status: string;
  reason: string | null;
  heading: string | null;
  char_start: number | null;
  char_end: number | null;
  length: number | null;
  text: string | null;
  filing: { accession: string; period_ended: string | null; document_url: string; text_length: number };
  extractor_version: string;
  provenance: Provenance;
}

const get = async <T>(url: string): Promise<{ status: number; body: T }> => {
  const r = await api.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
  return { status: r.statusCode, body: r.json<T>() };
};

beforeAll(async () => {
  db = await createTestDatabase('tenk_e2e');
  pg = new Client({ connectionString: db.url });
  await pg.connect();
  const brokers = await kafkaBrokersForTests();
  const namespace = `e2e${randomBytes(4).toString('hex')}`;
  fixtures = await startFixtureServer();
  const env = {
    EDGAR_USER_AGENT: UA,
    EDGAR_WWW_BASE_URL: fixtures.url,
    EDGAR_DATA_BASE_URL: fixtures.url,
    KAFKA_BROKERS: brokers.join(','),
    KAFKA_TOPIC_NAMESPACE: namespace,
    LOG_LEVEL: 'silent',
  };
  const nest = (module: Parameters<typeof NestFactory.createApplicationContext>[0]) => NestFactory.createApplicationContext(module, { logger: false });
  // The sample's companies with their submissions (MSFT has no 10-K in the sample: its sections stay unread).
  const companiesApp = await nest(IngestSecModule.forRoot({ config: loadConfig(ingestSecConfigSchema, { ...env, SEC_COVERAGE: 'MSFT,TSLA', SEC_SUBMISSIONS: 'MSFT,TSLA' }), logger: createLogger({ level: 'silent' }) }));
  try {
    await companiesApp.get(IngestSecService).execute({ runId: 'run_e2e_companies' });
  } finally {
    await companiesApp.close();
  }
  const sectionsApp = await nest(SectionsModule.forRoot({ config: loadConfig(sectionsConfigSchema, env), logger: createLogger({ level: 'silent' }) }));
  try {
    sections = await sectionsApp.get(SectionsService).execute({ runId: 'run_e2e_sections', filings: FIXTURE_INGEST.tenK });
  } finally {
    await sectionsApp.close();
  }

  await ensureTopics({ brokers, clientId: 'tenk-e2e' }, PROJECTED_TOPICS.map((t) => namespacedTopic(t, namespace)));
  projector = await startProjector(
    projectorConfigSchema.parse({ DATABASE_URL: db.url, KAFKA_BROKERS: brokers.join(','), KAFKA_TOPIC_NAMESPACE: namespace, PROJECTOR_GROUP_ID: 'projector', LOG_LEVEL: 'warn' }),
  );
  await expectEventually(
    async () => {
      const { rows } = await pg.query<{ sections: string; descriptions: string; companies: string }>(
        `SELECT (SELECT count(*) FROM tenk_sections) AS sections, (SELECT count(*) FROM tenk_descriptions) AS descriptions,
           (SELECT count(*) FROM companies WHERE symbol IN ('MSFT:US', 'TSLA:US')) AS companies`,
      );
      expect(rows[0]).toEqual({ sections: '3', descriptions: '1', companies: '2' });
    },
    { timeoutMs: 120_000, intervalMs: 500 },
  );

  api = await createApiApp(
    apiConfigSchema.parse({
      DATABASE_URL: db.url,
      API_KEY_PEPPER: randomBytes(24).toString('hex'),
      CURSOR_SECRET: randomBytes(24).toString('hex'),
      LOG_LEVEL: 'silent',
      // Citation verification re-reads the 10-K where the ingestor read it: the fixture server.
      EDGAR_USER_AGENT: UA,
      EDGAR_WWW_BASE_URL: fixtures.url,
      EDGAR_DATA_BASE_URL: fixtures.url,
    }),
    { logger: createLogger({ level: 'silent' }) },
  );
  await pg.query(`INSERT INTO accounts (id, name, plan) VALUES ('acct_e2e', 'e2e', 'enterprise')`);
  key = (await api.get<ApiContext>('API_CONTEXT').keys.createKey({ accountId: 'acct_e2e', mode: 'live', label: 'e2e' })).key;
}, 600_000);

afterAll(async () => {
  await api?.close();
  await projector?.stop();
  await fixtures?.close();
  await pg?.end();
  await db?.drop();
});

describe("Tesla's 10-K -> Kafka -> projector -> the api", () => {
  it('reads the 10-K once with the declared User-Agent and publishes its three items', () => {
    expect(sections).toMatchObject({ filings: 1, published: 3, notFound: 0, described: 1 });
    expect(fixtures.requests.filter((r) => r.path === TSLA_10K).map((r) => [r.userAgent, r.status])).toEqual([[UA, 200]]);
  });

  it("TSLA:US serves Item 1's opening as its description, with the 10-K's provenance", async () => {
    const { status, body } = await get<CompanyBody>('/v1/companies/TSLA:US');
    expect(status).toBe(200);
    expect(body.description!.startsWith(`${FIRST_SENTENCE} We generally sell our products directly to customers`)).toBe(true);
    expect(body.description_provenance).toMatchObject({
      source_provider: 'sec',
      accession: '0001628280-25-003063',
      source_url: `${fixtures.url}${TSLA_10K}`,
      quote: body.description,
      content_hash: `sha256:${createHash('sha256').update(BYTES).digest('hex')}`,
    });
    expect(body.gaps.some((g) => g.field === 'description')).toBe(false);
  });

  it('POST /v1/citations/verify verifies the description provenance', async () => {
    const company = (await get<CompanyBody>('/v1/companies/TSLA:US')).body;
    const r = await api.inject({ method: 'POST', url: '/v1/citations/verify', headers: { authorization: `Bearer ${key}` }, payload: { provenance: company.description_provenance } });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ verified: true, reason: 'verified', content_hash_matches: true, quote_found: true });
  });

  it('serves each section with its status, offsets into the document text and its text', async () => {
    const text = tenkText(BYTES).text;
    const expected = {
      '1': { heading: 'ITEM 1. BUSINESS', char_start: 8281, char_end: 57889 },
      '1a': { heading: 'ITEM 1A. RISK FACTORS', char_start: 57890, char_end: 137614 },
      '7': { heading: 'ITEM 7. MANAGEMENT’S DISCUSSION AND ANALYSIS OF FINANCIAL CONDITION AND RESULTS OF OPERATIONS', char_start: 148205, char_end: 196856 },
    };
    for (const [item, want] of Object.entries(expected)) {
      const { status, body } = await get<SectionBody>(`/v1/companies/tsla:us/sections/${item}`);
      expect(status).toBe(200);
      expect(body).toMatchObject({ item: item.toUpperCase(), status: 'extracted', reason: null, ...want, length: want.char_end - want.char_start, extractor_version: 'tenk-sections@1' });
      expect(body.filing).toMatchObject({ accession: '0001628280-25-003063', period_ended: '2024-12-31', text_length: text.length });
      expect(body.text).toBe(text.slice(want.char_start, want.char_end));
      expect(body.provenance).toMatchObject({ source_provider: 'sec', accession: '0001628280-25-003063' });
    }
  });

  it('a company whose 10-K was not read answers 404 section-not-extracted, never not_present; a bad item 422', async () => {
    const msft = await get<{ type: string; detail: string }>('/v1/companies/MSFT:US/sections/1');
    expect(msft.status).toBe(404);
    expect(msft.body.type).toMatch(/\/errors\/section-not-extracted$/);
    expect((await get('/v1/companies/TSLA:US/sections/8')).status).toBe(422);
  });
});
