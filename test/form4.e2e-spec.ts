// Form 4 end to end on real infrastructure: the fixture EDGAR server (real ownership documents at
// their Archive paths) -> ingest-sec (ticker map) -> ingest-form4 -> Kafka -> projector -> Postgres
// -> /v1/companies/{symbol}/insiders and /executives, through each app's composition root.
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
import { createTestDatabase, defaultFixturesDir, expectEventually, FIXTURE_ROUTES, kafkaBrokersForTests, startFixtureServer, type FixtureServer, type TestDatabase } from '@app/testing';
import type { InsiderListBody } from '@app/resources';
import { createApiApp } from '../apps/api/src/api.app';
import type { ApiContext } from '../apps/api/src/api.context';
import { apiConfigSchema } from '../apps/api/src/config/api.config';
import { ingestForm4ConfigSchema, parseForm4FilingRef, type Form4FilingRef } from '../apps/ingest-form4/src/ingest-form4.config';
import { Form4IngestService, type Form4IngestSummary } from '../apps/ingest-form4/src/form4-ingest.service';
import { IngestForm4Module } from '../apps/ingest-form4/src/ingest-form4.module';
import { ingestSecConfigSchema } from '../apps/ingest-sec/src/ingest-sec.config';
import { IngestSecModule } from '../apps/ingest-sec/src/ingest-sec.module';
import { IngestSecService } from '../apps/ingest-sec/src/ingest-sec.service';
import { projectorConfigSchema } from '../apps/projector/src/projector.config';
import { PROJECTED_TOPICS, startProjector, type RunningProjector } from '../apps/projector/src/projector.runner';

const UA = 'Filings Platform e2e ops@filings.example';
/** Every fixture filing, named as an operator would: <issuer cik>:<accession>[:<primary document>]. */
const FILINGS: Form4FilingRef[] = [
  '1318605:0000899243-21-044060:xslF345X03/doc4.xml',
  '789019:0001062993-24-016587:xslF345X05/form4.xml',
  '1321655:0001321655-24-000181:wk-form4_1727395357.xml',
  '1512673:0001062993-23-020702:form4.xml',
  '1572616:0000950170-24-012830:ownership.xml',
  '1883685:0001104659-25-025206',
  '1835856:0001493152-25-009612',
  '1640147:0001640147-22-990001:form4.snow.xml',
  '933972:0000933972-25-990001:374WaterForm4.xml',
].map((token) => parseForm4FilingRef(token)!);
const TSLA_FILE = 'form4/TSLA-0000899243-21-044060-doc4.xml';

let db: TestDatabase;
let pg: Client;
let fixtures: FixtureServer;
let projector: RunningProjector | undefined;
let api: NestFastifyApplication;
let key: string;
let firstRun: Form4IngestSummary;
let secondRun: Form4IngestSummary;
let ingestForm4: () => Promise<Form4IngestSummary>;

async function get<T>(url: string): Promise<{ status: number; body: T }> {
  const r = await api.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
  return { status: r.statusCode, body: r.json<T>() };
}

/** Every insider row of a symbol, following the cursor. */
async function allInsiders(symbol: string, query = ''): Promise<InsiderListBody['data']> {
  const rows: InsiderListBody['data'] = [];
  let cursor: string | null = null;
  do {
    const r: { status: number; body: InsiderListBody } = await get<InsiderListBody>(`/v1/companies/${symbol}/insiders?limit=10${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(r.status).toBe(200);
    rows.push(...r.body.data);
    cursor = r.body.pagination.next_cursor;
  } while (cursor);
  return rows;
}

/** A digest of every projected row, to show that ingesting the same filings again changes nothing. */
async function readModelDigest(): Promise<string> {
  const { rows } = await pg.query<{ digest: string }>(
    `SELECT md5(coalesce((SELECT string_agg(t::text, '|' ORDER BY accession, row_table, sequence) FROM insider_transactions t), '') ||
                coalesce((SELECT string_agg(r::text, '|' ORDER BY cik, category, source_provider, person_key) FROM roster_entries r), '')) AS digest`,
  );
  return rows[0]!.digest;
}

beforeAll(async () => {
  db = await createTestDatabase('form4_e2e');
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
  const logger = createLogger({ level: 'silent' });

  const companies = await NestFactory.createApplicationContext(
    IngestSecModule.forRoot({ config: loadConfig(ingestSecConfigSchema, { ...env, SEC_COVERAGE: 'TSLA,MSFT,PLTR,SQ', SEC_SUBMISSIONS: 'none' }), logger }),
    { logger: false },
  );
  try {
    await companies.get(IngestSecService).execute({ runId: 'run_e2e_companies' });
  } finally {
    await companies.close();
  }

  ingestForm4 = async () => {
    const app = await NestFactory.createApplicationContext(
      IngestForm4Module.forRoot({ config: loadConfig(ingestForm4ConfigSchema, { ...env, FORM4_SUBMISSIONS: 'none' }), logger }),
      { logger: false },
    );
    try {
      return await app.get(Form4IngestService).execute({ filings: FILINGS, runId: `run_e2e_form4_${randomBytes(3).toString('hex')}` });
    } finally {
      await app.close();
    }
  };
  firstRun = await ingestForm4();

  await ensureTopics({ brokers, clientId: 'e2e-admin' }, PROJECTED_TOPICS.map((t) => namespacedTopic(t, namespace)));
  projector = await startProjector(
    projectorConfigSchema.parse({ DATABASE_URL: db.url, KAFKA_BROKERS: brokers.join(','), KAFKA_TOPIC_NAMESPACE: namespace, PROJECTOR_GROUP_ID: 'projector', LOG_LEVEL: 'warn' }),
  );
  await expectEventually(
    async () => {
      const { rows } = await pg.query<{ n: string }>('SELECT count(*) AS n FROM form4_filings');
      expect(Number(rows[0]!.n)).toBe(FILINGS.length);
    },
    { timeoutMs: 120_000, intervalMs: 500 },
  );

  api = await createApiApp(
    apiConfigSchema.parse({ DATABASE_URL: db.url, API_KEY_PEPPER: randomBytes(24).toString('hex'), CURSOR_SECRET: randomBytes(24).toString('hex'), LOG_LEVEL: 'silent' }),
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

describe('Form 4 -> Kafka -> projector -> /insiders and /executives', () => {
  it('ingested every fixture filing from its EDGAR path with the declared User-Agent', () => {
    expect(firstRun.counts).toMatchObject({ filings: FILINGS.length, published: FILINGS.length, failed: 0, not_found: 0 });
    expect(fixtures.requests.every((r) => r.userAgent === UA)).toBe(true);
  });

  it("serves TSLA's 30 non-derivative transactions as 30 rows, each with its code, shares, price and 10b5-1 footnote", async () => {
    const rows = await allInsiders('TSLA:US', '&derivative=false&kind=transaction&direction=asc');
    expect(rows).toHaveLength(30);
    expect(rows.map((r) => r.code).sort().join('')).toBe(`M${'S'.repeat(29)}`);
    expect(new Set(rows.map((r) => r.sequence)).size).toBe(30);
    const sold = rows.filter((r) => r.code === 'S').reduce((sum, r) => sum + r.shares!, 0);
    expect(sold).toBe(257_279);
    for (const row of rows) {
      expect(row).toMatchObject({ accession: '0000899243-21-044060', table: 'non_derivative', is_10b5_1: true, is_10b5_1_reason: 'footnote' });
      expect(row.owners.map((o) => o.name)).toEqual(['Musk Elon']);
    }
    const sales = rows.filter((r) => r.code === 'S');
    expect(sales.every((r) => r.classification === 'open_market_sale' && r.is_open_market && r.price_per_share !== null)).toBe(true);
  });

  it('quotes every row verbatim from the file whose sha256 is content_hash', async () => {
    const bytes = readFileSync(join(defaultFixturesDir(), TSLA_FILE));
    const rows = await allInsiders('TSLA:US');
    expect(rows.length).toBeGreaterThanOrEqual(30);
    for (const row of rows) {
      expect(row.provenance.content_hash).toBe(`sha256:${createHash('sha256').update(bytes).digest('hex')}`);
      expect(bytes.toString('utf8')).toContain(row.provenance.quote);
      expect(row.provenance.accession).toBe('0000899243-21-044060');
      expect(new URL(row.provenance.source_url!).pathname).toBe(FIXTURE_ROUTES.find((r) => r.file === TSLA_FILE)!.path);
    }
  });

  it('attributes a filing to its issuer, not to the reporting owner', async () => {
    const pltr = await allInsiders('PLTR:US');
    expect(pltr.length).toBeGreaterThan(0);
    expect(pltr.every((r) => r.accession === '0001321655-24-000181')).toBe(true);
    expect(pltr.flatMap((r) => r.owners.map((o) => o.cik))).toContain('0001211060');
    expect(pltr.filter((r) => r.kind === 'transaction').every((r) => r.is_10b5_1 && r.is_10b5_1_reason === 'flag')).toBe(true);
  });

  it('builds the executive roster from officer titles; an old filing is not current', async () => {
    const current = await get<{ data: Array<{ name: string }> }>('/v1/companies/TSLA:US/executives');
    expect(current.status).toBe(200);
    expect(current.body.data.map((e) => e.name)).not.toContain('Musk Elon');
    const all = await get<{ data: Array<{ name: string; role: string; is_current: boolean; provenance: { source_provider: string; accession: string } }> }>(
      '/v1/companies/TSLA:US/executives?current_only=false',
    );
    expect(all.body.data).toContainEqual(
      expect.objectContaining({ name: 'Musk Elon', is_current: false, provenance: expect.objectContaining({ source_provider: 'sec', accession: '0000899243-21-044060' }) }),
    );
  });

  it('changes nothing when the same filings are ingested again', async () => {
    const before = await readModelDigest();
    const handled = projector!.counters().processed;
    secondRun = await ingestForm4();
    expect(secondRun.counts).toMatchObject({ published: FILINGS.length, failed: 0 });
    // Same records: wait until the projector has handled all of them again, then compare every projected row.
    await expectEventually(async () => expect(projector!.counters().processed).toBeGreaterThanOrEqual(handled + FILINGS.length), { timeoutMs: 60_000, intervalMs: 250 });
    expect(await readModelDigest()).toBe(before);
  });

  it('answers 404 for an unknown symbol and 422 for bad filters', async () => {
    expect((await get('/v1/companies/NOPE:US/insiders')).status).toBe(404);
    expect((await get('/v1/companies/TSLA:US/insiders?from=2021-13-01')).status).toBe(422);
    expect((await get('/v1/companies/TSLA:US/insiders?codes=SS')).status).toBe(422);
  });
});
