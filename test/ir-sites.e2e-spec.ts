// IR sites found, not configured, end to end on real infrastructure: the fixture EDGAR and IR server
// -> ingest-sec (companies from the real MSFT, TSLA and MUR submissions, whose website fields are
// empty) -> Kafka -> ingest-ir --follow (those companies, plus FRPH from the operator registry) ->
// ir.sites.v1 and the IR records -> projector -> Postgres -> GET /v1/coverage/{symbol}.
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { namespacedTopic } from '@app/contracts';
import { loadConfig } from '@app/config';
import { ensureTopics, type RunningWorker } from '@app/messaging';
import { createLogger } from '@app/observability';
import type { CoverageBody } from '@app/resources';
import { createTestDatabase, expectEventually, kafkaBrokersForTests, startFixtureServer, uniqueGroupId, type FixtureServer, type TestDatabase } from '@app/testing';
import { createApiApp } from '../apps/api/src/api.app';
import type { ApiContext } from '../apps/api/src/api.context';
import { apiConfigSchema } from '../apps/api/src/config/api.config';
import { loadIngestIrConfig } from '../apps/ingest-ir/src/ingest-ir.config';
import { startIrFollow } from '../apps/ingest-ir/src/ingest-ir.module';
import { ingestSecConfigSchema } from '../apps/ingest-sec/src/ingest-sec.config';
import { IngestSecModule } from '../apps/ingest-sec/src/ingest-sec.module';
import { IngestSecService } from '../apps/ingest-sec/src/ingest-sec.service';
import { projectorConfigSchema } from '../apps/projector/src/projector.config';
import { PROJECTED_TOPICS, startProjector, type RunningProjector } from '../apps/projector/src/projector.runner';

const UA = 'Filings Platform e2e ops@filings.example';

let db: TestDatabase;
let pg: Client;
let fixtures: FixtureServer;
let projector: RunningProjector | undefined;
let follower: RunningWorker | undefined;
let api: NestFastifyApplication;
let key: string;

const coverage = async (symbol: string): Promise<CoverageBody> => {
  const r = await api.inject({ method: 'GET', url: `/v1/coverage/${symbol}`, headers: { authorization: `Bearer ${key}` } });
  expect([symbol, r.statusCode]).toEqual([symbol, 200]);
  return r.json<CoverageBody>();
};

beforeAll(async () => {
  db = await createTestDatabase('ir_sites_e2e');
  pg = new Client({ connectionString: db.url });
  await pg.connect();
  const brokers = await kafkaBrokersForTests();
  const namespace = `e2e${randomBytes(4).toString('hex')}`;
  fixtures = await startFixtureServer();
  const env = { EDGAR_USER_AGENT: UA, EDGAR_WWW_BASE_URL: fixtures.url, EDGAR_DATA_BASE_URL: fixtures.url, KAFKA_BROKERS: brokers.join(','), KAFKA_TOPIC_NAMESPACE: namespace, LOG_LEVEL: 'silent' };
  await ensureTopics({ brokers, clientId: 'ir-sites-e2e' }, PROJECTED_TOPICS.map((t) => namespacedTopic(t, namespace)));
  const companiesApp = await NestFactory.createApplicationContext(
    IngestSecModule.forRoot({ config: loadConfig(ingestSecConfigSchema, { ...env, SEC_COVERAGE: 'MSFT,TSLA,MUR', SEC_SUBMISSIONS: 'MSFT,TSLA,MUR' }), logger: createLogger({ level: 'silent' }) }),
    { logger: false },
  );
  try {
    await companiesApp.get(IngestSecService).execute({ runId: 'run_e2e_companies' });
  } finally {
    await companiesApp.close();
  }

  // FRPH from the operator registry (the landing page alone): the registry adds sites no company record names.
  const registry = [{ cik: '844059', ticker: 'FRPH', name: 'FRP Holdings, Inc.', landing_url: `${fixtures.url}/investor-relations.html` }];
  follower = await startIrFollow(
    loadIngestIrConfig(
      { ...env, IR_USER_AGENT: UA, IR_SITES: JSON.stringify(registry), IR_MAX_RPS_PER_HOST: '10', IR_ALLOW_PRIVATE_HOSTS: 'true', IR_GROUP_ID: uniqueGroupId('ir-e2e') },
      () => '',
    ),
    { logger: createLogger({ level: 'silent' }), runId: 'run_e2e_ir' },
  );
  projector = await startProjector(
    projectorConfigSchema.parse({ DATABASE_URL: db.url, KAFKA_BROKERS: brokers.join(','), KAFKA_TOPIC_NAMESPACE: namespace, PROJECTOR_GROUP_ID: 'projector', LOG_LEVEL: 'warn' }),
  );
  await expectEventually(
    async () => {
      const { rows } = await pg.query<{ sites: string; documents: string }>('SELECT (SELECT count(*) FROM ir_sites) AS sites, (SELECT count(*) FROM documents) AS documents');
      expect(rows[0]).toEqual({ sites: '4', documents: '16' });
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
  await follower?.stop();
  await projector?.stop();
  await fixtures?.close();
  await pg?.end();
  await db?.drop();
});

describe('companies -> ingest-ir --follow -> projector -> coverage', () => {
  it('every company and the registry site has its outcome in ir_sites', async () => {
    const { rows } = await pg.query<{ cik: string; status: string; source: string | null; landing_url: string | null }>('SELECT cik, status, source, landing_url FROM ir_sites ORDER BY cik');
    expect(rows).toEqual([
      { cik: '0000717423', status: 'no_website', source: null, landing_url: null },
      { cik: '0000789019', status: 'no_website', source: null, landing_url: null },
      { cik: '0000844059', status: 'found', source: 'operator', landing_url: `${fixtures.url}/investor-relations.html` },
      { cik: '0001318605', status: 'no_website', source: null, landing_url: null },
    ]);
  });

  it('coverage says why MSFT, TSLA and MUR hold no IR documents: SEC lists no website for them', async () => {
    for (const symbol of ['MSFT:US', 'TSLA:US', 'MUR:US']) {
      const b = await coverage(symbol);
      expect(b.ir_site).toMatchObject({ status: 'no_website', source: null, landing_url: null, detail: 'SEC lists neither investorWebsite nor website, and the IR registry has no entry' });
      expect(b.datasets.documents.gaps.map((g) => g.code)).toEqual(['ir_site_not_configured']);
      expect(b.datasets.documents.gaps[0]!.detail).toMatch(/outcome is no_website/);
    }
  });
});
