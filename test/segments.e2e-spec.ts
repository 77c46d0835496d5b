// Segments end to end on real infrastructure: the fixture EDGAR server (real inline-XBRL 10-Qs at
// their Archive paths) -> ingest-sec (companies, then segments) -> Kafka -> projector -> Postgres ->
// the api's /v1/companies/{symbol}/segments, through each app's own composition root.
import 'reflect-metadata';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { namespacedTopic } from '@app/contracts';
import { loadConfig } from '@app/config';
import { extractSegments, normalizeWhitespace, parseIxbrl, textContent } from '@app/edgar';
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
import { ingestSecConfigSchema } from '../apps/ingest-sec/src/ingest-sec.config';
import { IngestSecModule } from '../apps/ingest-sec/src/ingest-sec.module';
import { IngestSecService } from '../apps/ingest-sec/src/ingest-sec.service';
import { segmentsConfigSchema } from '../apps/ingest-sec/src/segments/segments.config';
import { SegmentsModule } from '../apps/ingest-sec/src/segments/segments.module';
import { SegmentsService, type SegmentsSummary } from '../apps/ingest-sec/src/segments/segments.service';
import { projectorConfigSchema } from '../apps/projector/src/projector.config';
import { PROJECTED_TOPICS, startProjector, type RunningProjector } from '../apps/projector/src/projector.runner';

const UA = 'Filings Platform e2e ops@filings.example';
const AAPL_PATH = '/Archives/edgar/data/320193/000032019325000057/aapl-20250329.htm';

let db: TestDatabase;
let pg: Client;
let fixtures: FixtureServer;
let namespace: string;
let segments: SegmentsSummary;
let projector: RunningProjector | undefined;
let api: NestFastifyApplication;
let key: string;

interface SegmentsBody {
  data: Array<{
    metric_key: string;
    issuer_label: string;
    dimension: string;
    member: string;
    period: { calendar: string; fiscal: string | null; end_date: string; kind: string; start_date: string | null };
    value: { raw: number; normalized: number; unit: string; original_unit: string; conversion_factor: number };
    tier: string;
    provenance: { source_provider: string; source_url: string; accession: string; quote: string; content_hash: string };
  }>;
  pagination: { next_cursor: string | null; has_more: boolean };
  company: { symbol: string; cik: string; name: string };
  gaps: Array<{ code: string; field?: string; detail: string }>;
}

async function count(table: string): Promise<number> {
  const { rows } = await pg.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`);
  return Number(rows[0]!.n);
}

beforeAll(async () => {
  db = await createTestDatabase('segments_e2e');
  pg = new Client({ connectionString: db.url });
  await pg.connect();
  const brokers = await kafkaBrokersForTests();
  namespace = `e2e${randomBytes(4).toString('hex')}`;
  fixtures = await startFixtureServer();
  const edgarEnv = {
    EDGAR_USER_AGENT: UA,
    EDGAR_WWW_BASE_URL: fixtures.url,
    EDGAR_DATA_BASE_URL: fixtures.url,
    KAFKA_BROKERS: brokers.join(','),
    KAFKA_TOPIC_NAMESPACE: namespace,
    LOG_LEVEL: 'silent',
  };

  // The companies first (the api resolves a symbol to its CIK through them), without submissions.
  const companiesApp = await NestFactory.createApplicationContext(
    IngestSecModule.forRoot({
      config: loadConfig(ingestSecConfigSchema, { ...edgarEnv, SEC_COVERAGE: 'AAPL,TSLA,NVDA', SEC_SUBMISSIONS: 'none' }),
      logger: createLogger({ level: 'silent' }),
    }),
    { logger: false },
  );
  let companies;
  try {
    companies = await companiesApp.get(IngestSecService).execute({ runId: 'run_e2e_companies' });
  } finally {
    await companiesApp.close();
  }

  const segmentsApp = await NestFactory.createApplicationContext(
    SegmentsModule.forRoot({ config: loadConfig(segmentsConfigSchema, edgarEnv), logger: createLogger({ level: 'silent' }) }),
    { logger: false },
  );
  try {
    segments = await segmentsApp.get(SegmentsService).execute({
      runId: 'run_e2e_segments',
      filings: [
        { cik: '0000320193', accession: '0000320193-25-000057', form: '10-Q', filedDate: null, document: AAPL_PATH },
        { cik: '0001318605', accession: '0001628280-25-035806', form: '10-Q', filedDate: null, document: '/Archives/edgar/data/1318605/000162828025035806/tsla-20250630.htm' },
        // As a filings record names it: an absolute sec.gov URL, fetched through the configured base URL.
        { cik: '0001045810', accession: '0001045810-25-000209', form: '10-Q', filedDate: null, document: 'https://www.sec.gov/Archives/edgar/data/1045810/000104581025000209/nvda-20250727.htm' },
      ],
    });
  } finally {
    await segmentsApp.close();
  }

  // The projector subscribes to every record topic; those no producer of this test wrote to must exist too.
  await ensureTopics({ brokers, clientId: 'segments-e2e' }, PROJECTED_TOPICS.map((t) => namespacedTopic(t, namespace)));
  projector = await startProjector(
    projectorConfigSchema.parse({ DATABASE_URL: db.url, KAFKA_BROKERS: brokers.join(','), KAFKA_TOPIC_NAMESPACE: namespace, PROJECTOR_GROUP_ID: 'projector', LOG_LEVEL: 'warn' }),
  );
  await expectEventually(
    async () => {
      expect(await count('companies')).toBe(companies.published);
      expect(await count('segment_observations')).toBe(segments.published);
    },
    { timeoutMs: 120_000, intervalMs: 500 },
  );

  api = await createApiApp(
    apiConfigSchema.parse({
      DATABASE_URL: db.url,
      API_KEY_PEPPER: randomBytes(24).toString('hex'),
      CURSOR_SECRET: randomBytes(24).toString('hex'),
      LOG_LEVEL: 'silent',
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

async function segmentsOf(symbol: string, query = ''): Promise<SegmentsBody> {
  const r = await api.inject({ method: 'GET', url: `/v1/companies/${symbol}/segments?limit=500${query}`, headers: { authorization: `Bearer ${key}` } });
  expect(r.statusCode).toBe(200);
  return r.json<SegmentsBody>();
}

describe('inline-XBRL 10-Qs -> Kafka -> projector -> /v1/companies/{symbol}/segments', () => {
  it('publishes every segment fact of the three 10-Qs, fetched with the declared User-Agent', () => {
    expect(segments).toMatchObject({ filings: 3, notFound: 0, unreadable: 0 });
    const facts = ['AAPL-aapl-20250329.htm', 'TSLA-tsla-10-q-2025-07-24.html', 'NVDA-nvda-10-q-2025-08-27.html']
      .map((f) => extractSegments(readFileSync(join(defaultFixturesDir(), 'xbrl', f))).facts.length);
    expect(segments.published).toBe(facts.reduce((a, b) => a + b, 0));
    expect(fixtures.requests.filter((r) => r.path.startsWith('/Archives/')).every((r) => r.userAgent === UA && r.status === 200)).toBe(true);
  });

  it("serves Apple's segment net sales for the quarter ended 2025-03-29, in millions", async () => {
    const body = await segmentsOf('AAPL:US', '&unit=million');
    expect(body.company).toMatchObject({ symbol: 'AAPL:US', cik: '0000320193', name: 'Apple Inc.' });
    const quarter = body.data.filter((d) => d.metric_key === 'segment_revenue.segment' && d.period.end_date === '2025-03-29' && d.period.kind === 'quarter');
    expect(Object.fromEntries(quarter.map((d) => [d.member, d.value.normalized]))).toEqual({
      Americas: 40_315,
      Europe: 24_454,
      'Greater China': 16_002,
      Japan: 7_298,
      'Rest of Asia Pacific': 7_290,
    });
    for (const d of quarter) {
      expect(d).toMatchObject({
        dimension: 'segment',
        tier: 'verified',
        issuer_label: 'Net sales',
        period: { calendar: '2025-Q1', fiscal: 'FY2025-Q2', start_date: '2024-12-29' },
        value: { unit: 'USD', original_unit: 'USD millions', conversion_factor: 1e-6 },
      });
      expect(d.value.raw).toBe(d.value.normalized * 1e6);
    }
    expect(body.gaps).toEqual(expect.arrayContaining([{ code: 'no_annual_segments', detail: expect.stringMatching(/^no 10-K segment facts yet/) }]));
  });

  it('carries provenance whose quote occurs verbatim in the document whose sha256 is content_hash', async () => {
    const bytes = readFileSync(join(defaultFixturesDir(), 'xbrl', 'AAPL-aapl-20250329.htm'));
    const text = normalizeWhitespace(textContent(parseIxbrl(bytes).dom));
    const body = await segmentsOf('AAPL:US');
    expect(body.data.length).toBe(64);
    for (const d of body.data) {
      expect(d.provenance).toMatchObject({
        source_provider: 'sec',
        source_url: `${fixtures.url}${AAPL_PATH}`,
        accession: '0000320193-25-000057',
        content_hash: `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
      });
      expect(text.includes(d.provenance.quote)).toBe(true);
    }
    const americas = body.data.find((d) => d.member === 'Americas' && d.period.kind === 'quarter' && d.period.end_date === '2025-03-29' && d.metric_key === 'segment_revenue.segment')!;
    expect(americas.provenance.quote).toBe('Americas:Net sales$40,315 $37,273 $92,963 $87,703');
  });

  it("serves Tesla's and NVIDIA's segment revenues of their quarters", async () => {
    const tsla = await segmentsOf('TSLA:US', '&unit=million');
    const t = tsla.data.filter((d) => d.metric_key === 'segment_revenue.segment' && d.period.end_date === '2025-06-30' && d.period.kind === 'quarter');
    expect(Object.fromEntries(t.map((d) => [d.member, d.value.normalized]))).toEqual({ 'Automotive segment': 19_707, 'Energy generation and storage segment': 2_789 });
    const nvda = await segmentsOf('NVDA:US', '&unit=million');
    const n = nvda.data.filter((d) => d.metric_key === 'segment_revenue.segment' && d.period.end_date === '2025-07-27' && d.period.kind === 'quarter');
    expect(Object.fromEntries(n.map((d) => [d.member, d.value.normalized]))).toEqual({ 'Compute & Networking': 41_331, Graphics: 5_412 });
    // Both are operating segments (the kind travels from the extractor to the API), and they add up to NVIDIA's tagged total, 46,743.
    expect(n.map((d) => (d as unknown as { member_kind: string }).member_kind)).toEqual(['segment', 'segment']);
    expect(n.reduce((a, d) => a + d.value.normalized, 0)).toBe(46_743);
  });
});
