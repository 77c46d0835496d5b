// N-PORT end to end on real infrastructure: the fixture EDGAR server (real SEC files) -> ingest-sec
// (ticker map, then the N-PORT use case for ADX and the Goldman Sachs Bond Fund) -> Kafka ->
// projector -> Postgres -> /v1/companies/{symbol}/fund-exposure, through each app's composition root.
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
import { ingestSecConfigSchema } from '../apps/ingest-sec/src/ingest-sec.config';
import { IngestSecModule } from '../apps/ingest-sec/src/ingest-sec.module';
import { IngestSecService } from '../apps/ingest-sec/src/ingest-sec.service';
import { nportConfigSchema } from '../apps/ingest-sec/src/nport/nport.config';
import { NportIngestService, type NportIngestSummary } from '../apps/ingest-sec/src/nport/nport-ingest.service';
import { NportModule } from '../apps/ingest-sec/src/nport/nport.module';
import { projectorConfigSchema } from '../apps/projector/src/projector.config';
import { PROJECTED_TOPICS, startProjector, type RunningProjector } from '../apps/projector/src/projector.runner';

const UA = 'Filings Platform e2e ops@filings.example';
const ADX_FILE = 'nport/ADX-CIK0000002230-primary_doc.xml';
const ADX_PATH = '/Archives/edgar/data/2230/000000223023990001/primary_doc.xml';

let db: TestDatabase;
let pg: Client;
let fixtures: FixtureServer;
let namespace: string;
let nport: NportIngestSummary;
let projector: RunningProjector | undefined;
let api: NestFastifyApplication;
let key: string;

interface ExposureBody {
  data: Array<{
    fund_ticker: string | null;
    fund_name: string;
    weight: number;
    weight_pct: number;
    shares: number | null;
    market_value: { raw: number; normalized: number; unit: string; original_unit: string; conversion_factor: number };
    as_of_date: string;
    provenance: { source_url: string; accession: string; quote: string; content_hash: string; source_provider: string };
  }>;
  pagination: { next_cursor: string | null; has_more: boolean };
  company: { symbol: string };
  alpha: boolean;
  fund_count: number;
  gaps: Array<{ code: string; field?: string; detail: string }>;
}

async function get<T>(url: string): Promise<{ status: number; body: T }> {
  const r = await api.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
  return { status: r.statusCode, body: r.json<T>() };
}

const count = async (sql: string) => Number((await pg.query<{ n: string }>(sql)).rows[0]!.n);

beforeAll(async () => {
  db = await createTestDatabase('fundexp_e2e');
  pg = new Client({ connectionString: db.url });
  await pg.connect();
  const brokers = await kafkaBrokersForTests();
  namespace = `e2e${randomBytes(4).toString('hex')}`;
  fixtures = await startFixtureServer();
  const env = {
    EDGAR_USER_AGENT: UA,
    EDGAR_WWW_BASE_URL: fixtures.url,
    EDGAR_DATA_BASE_URL: fixtures.url,
    KAFKA_BROKERS: brokers.join(','),
    KAFKA_TOPIC_NAMESPACE: namespace,
    LOG_LEVEL: 'silent',
  };
  const logger = createLogger({ level: 'silent' });

  const companies = await NestFactory.createApplicationContext(
    IngestSecModule.forRoot({ config: loadConfig(ingestSecConfigSchema, { ...env, SEC_COVERAGE: 'all', SEC_SUBMISSIONS: 'MSFT' }), logger }),
    { logger: false },
  );
  let published: number;
  try {
    published = (await companies.get(IngestSecService).execute({ runId: 'run_e2e_companies' })).published;
  } finally {
    await companies.close();
  }

  const funds = await NestFactory.createApplicationContext(
    NportModule.forRoot({ config: loadConfig(nportConfigSchema, { ...env, NPORT_FILINGS: '2230:0000002230-23-990001,822977:0000822977-23-990001' }), logger }),
    { logger: false },
  );
  try {
    nport = await funds.get(NportIngestService).execute({ runId: 'run_e2e_nport' });
  } finally {
    await funds.close();
  }

  // The projector subscribes to every record topic; topics no ingestor of this test wrote to must exist too.
  await ensureTopics({ brokers, clientId: 'e2e-admin' }, PROJECTED_TOPICS.map((t) => namespacedTopic(t, namespace)));
  projector = await startProjector(
    projectorConfigSchema.parse({ DATABASE_URL: db.url, KAFKA_BROKERS: brokers.join(','), KAFKA_TOPIC_NAMESPACE: namespace, PROJECTOR_GROUP_ID: 'projector', LOG_LEVEL: 'warn' }),
  );
  await expectEventually(
    async () => {
      expect(await count('SELECT count(*) AS n FROM companies')).toBe(published);
      expect(await count('SELECT count(*) AS n FROM funds')).toBe(2);
      expect(await count('SELECT count(*) AS n FROM fund_holdings WHERE is_current')).toBe(95 + 1685);
    },
    { timeoutMs: 120_000, intervalMs: 500 },
  );

  api = await createApiApp(
    apiConfigSchema.parse({
      DATABASE_URL: db.url,
      API_KEY_PEPPER: randomBytes(24).toString('hex'),
      CURSOR_SECRET: randomBytes(24).toString('hex'),
      LOG_LEVEL: 'silent',
      // Citations re-read the sources where the ingestors read them.
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

describe('N-PORT -> Kafka -> projector -> /v1/companies/{symbol}/fund-exposure', () => {
  it('ingests both filings: ADX in one record, the GS Bond Fund in seven chunks', () => {
    expect(nport.filings).toEqual([
      expect.objectContaining({ accession: '0000002230-23-990001', status: 'published', fundKey: 'CIK0000002230', holdings: 95, records: 1 }),
      expect.objectContaining({ accession: '0000822977-23-990001', status: 'published', fundKey: 'S000013795', holdings: 1685, records: 7 }),
    ]);
    expect(fixtures.requests.every((r) => r.userAgent === UA)).toBe(true);
  });

  it("serves ADX's Microsoft holding: 517,700 shares, $176,297,558, 7.2998 %, with provenance traceable to the bytes", async () => {
    const { status, body } = await get<ExposureBody>('/v1/companies/MSFT:US/fund-exposure');
    expect(status).toBe(200);
    expect(body).toMatchObject({ alpha: true, fund_count: 1, company: { symbol: 'MSFT:US' }, pagination: { next_cursor: null, has_more: false } });
    expect(body.data).toHaveLength(1);
    const entry = body.data[0]!;
    expect(entry).toMatchObject({
      fund_ticker: 'ADX',
      fund_name: 'Adams Diversified Equity Fund, Inc.',
      weight: 0.072998,
      weight_pct: 7.2998,
      shares: 517700,
      market_value: { raw: 176297558, normalized: 176297558, unit: 'USD', original_unit: 'USD', conversion_factor: 1 },
      as_of_date: '2023-06-30',
    });
    const bytes = readFileSync(join(defaultFixturesDir(), ADX_FILE));
    expect(entry.provenance).toMatchObject({
      source_provider: 'sec',
      source_url: `${fixtures.url}${ADX_PATH}`,
      accession: '0000002230-23-990001',
      quote: '<name>Microsoft Corporation</name>',
      content_hash: `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
    });
    expect(bytes.toString('utf8')).toContain(entry.provenance.quote);
  });

  it("counts only equity toward Apple: ADX's Apple shares are in, the GS Bond Fund's APPLE INC bonds are not", async () => {
    const { body } = await get<ExposureBody>('/v1/companies/AAPL:US/fund-exposure?sort=value');
    expect(body.fund_count).toBe(1);
    expect(body.data.map((d) => [d.fund_name, d.weight_pct])).toEqual([['Adams Diversified Equity Fund, Inc.', 7.6661]]);
    // The bonds are there, matched to Apple, but not equity.
    expect(await count(`SELECT count(*) AS n FROM fund_holdings WHERE match_cik = '0000320193' AND fund_key = 'S000013795' AND asset_cat = 'DBT'`)).toBe(2);
  });
});

interface IdentifierSource {
  source: string;
  derivation: string;
  fund: { key: string; name: string | null; accession: string; holding_index: number; as_of_date: string } | null;
  cusip: string | null;
  provenance: { source_url: string; accession: string; quote: string; content_hash: string; source_provider: string };
}

describe('N-PORT -> company identifiers (ISIN, LEI) with their source', () => {
  it("serves MSFT:US's ISIN US5949181045, computed from the CUSIP ADX files, citing the fund filing and the holding", async () => {
    const { status, body } = await get<{ isin: string | null; lei: string | null; identifier_sources: { isin: IdentifierSource | null; lei: IdentifierSource | null }; gaps: Array<{ code: string; field?: string; detail: string }> }>(
      '/v1/companies/MSFT:US',
    );
    expect(status).toBe(200);
    expect(body.isin).toBe('US5949181045');
    const bytes = readFileSync(join(defaultFixturesDir(), ADX_FILE));
    const hash = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
    const msftIndex = Number((await pg.query<{ i: number }>(`SELECT holding_index AS i FROM fund_holdings WHERE accession = '0000002230-23-990001' AND cusip = '594918104'`)).rows[0]!.i);
    expect(body.identifier_sources.isin).toEqual({
      source: 'nport_holding',
      derivation: 'cusip',
      fund: { key: 'CIK0000002230', name: 'Adams Diversified Equity Fund, Inc.', accession: '0000002230-23-990001', holding_index: msftIndex, as_of_date: '2023-06-30' },
      cusip: '594918104',
      provenance: expect.objectContaining({
        source_provider: 'sec',
        source_url: `${fixtures.url}${ADX_PATH}`,
        accession: '0000002230-23-990001',
        content_hash: hash,
        quote: '<name>Microsoft Corporation</name>\n        <lei>INR2EJN1ERAN0W5ZP974</lei>\n        <title>Microsoft Corporation</title>\n        <cusip>594918104</cusip>',
      }) as unknown,
    });
    // Microsoft's submissions give no LEI ("lei": null): the LEI ADX files for it is served, with its source.
    expect(body.lei).toBe('INR2EJN1ERAN0W5ZP974');
    expect(body.identifier_sources.lei).toMatchObject({ source: 'nport_holding', derivation: 'filed', fund: { key: 'CIK0000002230' } });
    expect(body.gaps.filter((g) => g.field === 'isin' || g.field === 'lei')).toEqual([]);
  });

  it('filters the company list by ISIN (isins=), and the list item carries the ISIN', async () => {
    const { status, body } = await get<{ data: Array<{ symbol: string; isin: string | null }> }>('/v1/companies?isins=US5949181045&isins=us02079k3059');
    expect(status).toBe(200);
    expect(body.data.map((d) => [d.symbol, d.isin])).toEqual([
      ['GOOGL:US', 'US02079K3059'],
      ['MSFT:US', 'US5949181045'],
    ]);
    // Apple's only ISIN candidates would come from the GS Bond Fund's bonds (a name match, and not equity): ADX's share gives it.
    expect((await get<{ isin: string | null }>('/v1/companies/AAPL:US')).body.isin).toBe('US0378331005');
    // A listing no holding names has no ISIN, and says why.
    const none = await get<{ isin: string | null; gaps: Array<{ code: string; field?: string; detail: string }> }>('/v1/companies/MUR:US');
    expect(none.body.isin).toBeNull();
    expect(none.body.gaps).toEqual(expect.arrayContaining([{ code: 'identifier_not_found', field: 'isin', detail: expect.stringMatching(/^isin: no N-PORT holding/) }]));
  });

  it('POST /v1/citations/verify verifies the ISIN and LEI provenance against the re-fetched primary_doc.xml', async () => {
    const { body } = await get<{ identifier_sources: { isin: IdentifierSource; lei: IdentifierSource } }>('/v1/companies/MSFT:US');
    for (const source of [body.identifier_sources.isin, body.identifier_sources.lei]) {
      const r = await api.inject({ method: 'POST', url: '/v1/citations/verify', headers: { authorization: `Bearer ${key}` }, payload: { provenance: source.provenance } });
      expect(r.statusCode).toBe(200);
      expect(r.json()).toMatchObject({ verified: true, reason: 'verified', content_hash_matches: true, quote_found: true, quote_style: 'raw' });
    }
  });
});
