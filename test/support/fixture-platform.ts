// The whole platform on the fixture files, for end-to-end tests of the API surface: the fixture
// EDGAR/IR server, a test database, a Kafka namespace and the projector; every ingestor run through
// its own composition root, as scripts/run.sh runs them (ticker map + submissions, filings backfill
// and one live poll of the daily index and of the feed, segments, 10-K sections, N-PORT, 13F,
// Form 4, the FRPH IR site and its PDFs); then the api (the Nest app) listening on an ephemeral
// port, with an enterprise key. Unlike run.sh, the named Form 4 and 13F filings, the IR site's first
// crawl and the transcript are read as live discovery (origin live), so every event type is made.
/* eslint-disable no-restricted-imports -- tests may import apps (CONVENTIONS 5); this helper is one folder deeper than test/*.ts, so its paths start with ../../ */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { INestApplicationContext } from '@nestjs/common';
import { Client } from 'pg';
import { loadConfig } from '@app/config';
import { namespacedTopic } from '@app/contracts';
import { consumerLag, ensureTopics } from '@app/messaging';
import { createLogger } from '@app/observability';
import type { Plan } from '@app/persistence';
import { createTestDatabase, expectEventually, kafkaBrokersForTests, startFixtureServer, type FixtureServer, type TestDatabase } from '@app/testing';
import { createApiApp } from '../../apps/api/src/api.app';
import type { ApiContext } from '../../apps/api/src/api.context';
import { apiConfigSchema } from '../../apps/api/src/config/api.config';
import { ingestDecksConfigSchema } from '../../apps/ingest-decks/src/ingest-decks.config';
import { drainIrDocuments } from '../../apps/ingest-decks/src/ingest-decks.runner';
import { IngestDecksModule } from '../../apps/ingest-decks/src/ingest-decks.module';
import { IngestDecksService } from '../../apps/ingest-decks/src/ingest-decks.service';
import { Form4IngestService } from '../../apps/ingest-form4/src/form4-ingest.service';
import { ingestForm4ConfigSchema, parseForm4FilingRef } from '../../apps/ingest-form4/src/ingest-form4.config';
import { IngestForm4Module } from '../../apps/ingest-form4/src/ingest-form4.module';
import { loadIngestIrConfig } from '../../apps/ingest-ir/src/ingest-ir.config';
import { IngestIrModule } from '../../apps/ingest-ir/src/ingest-ir.module';
import { IngestIrService } from '../../apps/ingest-ir/src/ingest-ir.service';
import { FilingsBackfillService } from '../../apps/ingest-sec/src/filings/filings-backfill.service';
import { FilingsLiveService } from '../../apps/ingest-sec/src/filings/filings-live.service';
import { parseFilingsConfig } from '../../apps/ingest-sec/src/filings/filings.config';
import { FilingsModule } from '../../apps/ingest-sec/src/filings/filings.module';
import { ingestSecConfigSchema } from '../../apps/ingest-sec/src/ingest-sec.config';
import { IngestSecModule } from '../../apps/ingest-sec/src/ingest-sec.module';
import { IngestSecService } from '../../apps/ingest-sec/src/ingest-sec.service';
import { nportConfigSchema } from '../../apps/ingest-sec/src/nport/nport.config';
import { NportIngestService } from '../../apps/ingest-sec/src/nport/nport-ingest.service';
import { NportModule } from '../../apps/ingest-sec/src/nport/nport.module';
import { thirteenfConfigSchema } from '../../apps/ingest-sec/src/thirteenf/thirteenf.config';
import { ThirteenFListService } from '../../apps/ingest-sec/src/thirteenf/thirteenf-list.service';
import { ThirteenFModule } from '../../apps/ingest-sec/src/thirteenf/thirteenf.module';
import { ThirteenFService } from '../../apps/ingest-sec/src/thirteenf/thirteenf.service';
import { factsConfigSchema, parseFactsArgs, type FactsCommand } from '../../apps/ingest-sec/src/facts/facts.config';
import { FactsModule } from '../../apps/ingest-sec/src/facts/facts.module';
import { CompanyFactsService } from '../../apps/ingest-sec/src/facts/facts.service';
import { segmentsConfigSchema } from '../../apps/ingest-sec/src/segments/segments.config';
import { SegmentsModule } from '../../apps/ingest-sec/src/segments/segments.module';
import { SegmentsService } from '../../apps/ingest-sec/src/segments/segments.service';
import { sectionsConfigSchema } from '../../apps/ingest-sec/src/sections/sections.config';
import { SectionsModule } from '../../apps/ingest-sec/src/sections/sections.module';
import { SectionsService } from '../../apps/ingest-sec/src/sections/sections.service';
import { projectorConfigSchema } from '../../apps/projector/src/projector.config';
import { PROJECTED_TOPICS, startProjector } from '../../apps/projector/src/projector.runner';

export const FIXTURE_USER_AGENT = 'Filings Platform e2e ops@filings.example';

/** The fixture filings scripts/run.sh ingests, as each ingestor names them. */
export const FIXTURE_INGEST = {
  submissions: 'MSFT,TSLA,MUR',
  filingsBackfill: ['MSFT', 'TSLA', 'MUR'],
  dailyIndexDate: '2020-03-18',
  /** `ingest-sec facts` arguments: company facts of GOOGL, SNOW, AAPL and LPA (IFRS, by CIK). */
  facts: ['--symbols', 'GOOGL:US,SNOW:US,AAPL:US', '--cik', '1997711'],
  /** 10-Qs read for segments (as run.sh's --filing: no filing day, so no xbrl-facts@1 records). */
  segments: [
    { cik: '0000320193', accession: '0000320193-25-000057', form: '10-Q', filedDate: null, document: '/Archives/edgar/data/320193/000032019325000057/aapl-20250329.htm' },
    { cik: '0001318605', accession: '0001628280-25-035806', form: '10-Q', filedDate: null, document: '/Archives/edgar/data/1318605/000162828025035806/tsla-20250630.htm' },
    { cik: '0001045810', accession: '0001045810-25-000209', form: '10-Q', filedDate: null, document: '/Archives/edgar/data/1045810/000104581025000209/nvda-20250727.htm' },
  ],
  /** 10-Ks read for Items 1, 1A, 7 and the description (as run.sh's --filing: dates from the cover page). */
  tenK: [
    { cik: '0001318605', accession: '0001628280-25-003063', form: null, filedDate: null, reportPeriod: null, document: '/Archives/edgar/data/1318605/000162828025003063/tsla-20241231.htm' },
  ],
  nport: '2230:0000002230-23-990001,822977:0000822977-23-990001',
  /** 13F-HR filings (ACTIAM 2020Q4, LTS One 2023Q3, Acorn Creek 2024Q4) and the quarter of SEC's 13(f) list. */
  thirteenF: [
    { cik: '0001619124', accession: '0001619124-21-000002', known: null },
    { cik: '0001894188', accession: '0001894188-23-000007', known: null },
    { cik: '0001994827', accession: '0001951757-25-000093', known: null },
  ],
  thirteenFListQuarter: '2020Q3',
  /** The one PDF given to ingest-decks directly (--url, as run.sh): Citigroup's Q4 2024 call transcript. */
  transcript: { path: '/transcripts/C-citi-4Q2024-earnings-call-transcript.pdf', cik: '0000831001', ticker: 'C' },
  form4: [
    '1318605:0000899243-21-044060:xslF345X03/doc4.xml',
    '789019:0001062993-24-016587:xslF345X05/form4.xml',
    '1321655:0001321655-24-000181:wk-form4_1727395357.xml',
    '1512673:0001062993-23-020702:form4.xml',
    '1572616:0000950170-24-012830:ownership.xml',
    '1883685:0001104659-25-025206',
    '1835856:0001493152-25-009612',
    '1640147:0001640147-22-990001:form4.snow.xml',
    '933972:0000933972-25-990001:374WaterForm4.xml',
  ],
} as const;

export interface FixturePlatformOptions {
  /** Test database name prefix. */
  prefix?: string;
  /** Extra api environment (plan limits, PUBLIC_BASE_URL, DOCS_URL, ...). */
  apiEnv?: Record<string, string>;
}

export interface FixturePlatform {
  /** The api (Nest app), listening on 127.0.0.1. */
  api: NestFastifyApplication;
  /** `http://127.0.0.1:<port>` of the api. */
  url: string;
  context: ApiContext;
  /** A live key of an enterprise account. */
  key: string;
  fixtures: FixtureServer;
  db: TestDatabase;
  pg: Client;
  /** The Kafka topic namespace every ingestor published under. */
  namespace: string;
  /** A live (or test) key of a new account on `plan`. */
  newKey(plan: Plan, mode?: 'live' | 'test'): Promise<string>;
  close(): Promise<void>;
}

async function runIn<T>(context: Promise<INestApplicationContext>, fn: (app: INestApplicationContext) => Promise<T>): Promise<T> {
  const app = await context;
  try {
    return await fn(app);
  } finally {
    await app.close();
  }
}

/**
 * Starts everything, ingests every fixture and waits until the projector has committed every
 * record. Takes a few minutes; call `close()` in afterAll (a failed start closes what it opened).
 */
export async function startFixturePlatform(options: FixturePlatformOptions = {}): Promise<FixturePlatform> {
  const closers: (() => Promise<unknown>)[] = [];
  const closeAll = async () => {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    closers.length = 0;
  };
  try {
    const db = await createTestDatabase(options.prefix ?? 'platform');
    closers.push(() => db.drop());
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    closers.push(() => pg.end());
    const fixtures = await startFixtureServer();
    closers.push(() => fixtures.close());
    const brokers = await kafkaBrokersForTests();
    const namespace = `e2e${randomBytes(4).toString('hex')}`;
    const logger = createLogger({ level: 'silent' });
    const env = {
      EDGAR_USER_AGENT: FIXTURE_USER_AGENT,
      EDGAR_WWW_BASE_URL: fixtures.url,
      EDGAR_DATA_BASE_URL: fixtures.url,
      KAFKA_BROKERS: brokers.join(','),
      KAFKA_TOPIC_NAMESPACE: namespace,
      LOG_LEVEL: 'silent',
    };

    // The projector first: it projects while the ingestors publish.
    const topics = PROJECTED_TOPICS.map((t) => namespacedTopic(t, namespace));
    await ensureTopics({ brokers, clientId: 'platform-admin' }, topics);
    const projectorConfig = projectorConfigSchema.parse({ DATABASE_URL: db.url, KAFKA_BROKERS: brokers.join(','), KAFKA_TOPIC_NAMESPACE: namespace, PROJECTOR_GROUP_ID: `projector-${namespace}`, LOG_LEVEL: 'warn' });
    const projector = await startProjector(projectorConfig);
    closers.push(() => projector.stop());

    const nest = (module: Parameters<typeof NestFactory.createApplicationContext>[0]) => NestFactory.createApplicationContext(module, { logger: false });
    await runIn(nest(IngestSecModule.forRoot({ config: loadConfig(ingestSecConfigSchema, { ...env, SEC_COVERAGE: 'all', SEC_SUBMISSIONS: FIXTURE_INGEST.submissions }), logger })), (app) =>
      app.get(IngestSecService).execute({ runId: 'run_platform_companies' }),
    );
    await runIn(nest(FilingsModule.forRoot({ config: parseFilingsConfig({ ...env, SEC_COVERAGE: 'all' }), logger })), async (app) => {
      await app.get(FilingsBackfillService).execute({ companies: FIXTURE_INGEST.filingsBackfill, from: '1993-01-01', to: new Date().toISOString().slice(0, 10), runId: 'run_platform_backfill' });
      const live = app.get(FilingsLiveService);
      await live.run({ once: true, date: FIXTURE_INGEST.dailyIndexDate });
      // EDGAR's latest-filings feed (recorded): live filings with acceptance times, as scripts/run.sh reads it.
      await live.pollFeed();
    });
    await runIn(nest(SegmentsModule.forRoot({ config: loadConfig(segmentsConfigSchema, env), logger })), (app) =>
      app.get(SegmentsService).execute({ filings: FIXTURE_INGEST.segments, runId: 'run_platform_segments' }),
    );
    // Company facts, with the arguments scripts/run.sh gives `ingest-sec facts`.
    await runIn(nest(FactsModule.forRoot({ config: loadConfig(factsConfigSchema, env), logger })), (app) =>
      app.get(CompanyFactsService).execute({ ...(parseFactsArgs(FIXTURE_INGEST.facts) as FactsCommand), runId: 'run_platform_facts' }),
    );
    await runIn(nest(SectionsModule.forRoot({ config: loadConfig(sectionsConfigSchema, env), logger })), (app) =>
      app.get(SectionsService).execute({ filings: FIXTURE_INGEST.tenK, runId: 'run_platform_sections' }),
    );
    await runIn(nest(NportModule.forRoot({ config: loadConfig(nportConfigSchema, { ...env, SEC_COVERAGE: 'all', NPORT_FILINGS: FIXTURE_INGEST.nport }), logger })), (app) =>
      app.get(NportIngestService).execute({ runId: 'run_platform_nport' }),
    );
    await runIn(nest(ThirteenFModule.forRoot({ config: loadConfig(thirteenfConfigSchema, env), logger })), async (app) => {
      await app.get(ThirteenFService).execute({ filings: FIXTURE_INGEST.thirteenF, origin: 'live', runId: 'run_platform_13f' });
      await app.get(ThirteenFListService).execute({ quarter: FIXTURE_INGEST.thirteenFListQuarter, runId: 'run_platform_13f_list' });
    });
    await runIn(nest(IngestForm4Module.forRoot({ config: loadConfig(ingestForm4ConfigSchema, { ...env, FORM4_SUBMISSIONS: 'none' }), logger })), (app) =>
      app.get(Form4IngestService).execute({ filings: FIXTURE_INGEST.form4.map((f) => parseForm4FilingRef(f)!), origin: 'live', runId: 'run_platform_form4' }),
    );
    // FRPH's saved IR site, plus two PDFs its saved pages do not link (as scripts/run.sh registers them).
    const site = {
      cik: '844059',
      ticker: 'FRPH',
      name: 'FRP Holdings, Inc.',
      landing_url: `${fixtures.url}/investor-relations.html`,
      pages: { contact: `${fixtures.url}/contactus.html`, management: `${fixtures.url}/executive-team.html`, presentations: `${fixtures.url}/frppresent.html` },
      documents: [
        { url: `${fixtures.url}/assets/presentations/1_CURRENT_12_JAN_2015_FRP_Holdings_Inc_Presentation_Pre-Spin-Off.pdf`, title: 'FRP Holdings Inc Presentation Pre-Spin-Off, January 12, 2015', kind: 'presentation' },
        { url: `${fixtures.url}/assets/FRP_2019_Annual_Report.pdf`, title: 'FRP Holdings 2019 Annual Report', kind: 'annual_report' },
      ],
    };
    // *_ALLOW_PRIVATE_HOSTS: the fixture server listens on 127.0.0.1.
    const irConfig = loadIngestIrConfig({ ...env, IR_USER_AGENT: FIXTURE_USER_AGENT, IR_SITES: JSON.stringify([site]), IR_MAX_RPS_PER_HOST: '10', IR_ALLOW_PRIVATE_HOSTS: 'true' }, () => '');
    await runIn(nest(IngestIrModule.forRoot({ config: irConfig, logger })), (app) => app.get(IngestIrService).execute({ firstCrawl: 'live', runId: 'run_platform_ir' }));
    const decksConfig = loadConfig(ingestDecksConfigSchema, { ...env, DECKS_USER_AGENT: FIXTURE_USER_AGENT, DECKS_FETCH_ATTEMPTS: '1', DECKS_ALLOW_PRIVATE_HOSTS: 'true' });
    await drainIrDocuments({ config: decksConfig, logger, checkMs: 250 });
    // A call transcript through the one-PDF path (ingest-decks --url), as scripts/run.sh does.
    await runIn(nest(IngestDecksModule.forRoot({ config: decksConfig, logger })), (app) =>
      app.get(IngestDecksService).execute({
        link: { url: `${fixtures.url}${FIXTURE_INGEST.transcript.path}`, cik: FIXTURE_INGEST.transcript.cik, ticker: FIXTURE_INGEST.transcript.ticker, title: null, kind: null },
        origin: 'live',
        runId: 'run_platform_transcript',
      }),
    );

    // Caught up: the projector's group has committed every record of every topic (it commits after the effect).
    await expectEventually(
      async () => {
        const lag = await consumerLag({ brokers, clientId: 'platform-lag', logLevel: 'nothing' }, projectorConfig.PROJECTOR_GROUP_ID, topics);
        expect(lag.reduce((n, p) => n + p.lag, 0)).toBe(0);
      },
      { timeoutMs: 300_000, intervalMs: 500 },
    );

    const api = await createApiApp(
      apiConfigSchema.parse({
        DATABASE_URL: db.url,
        API_KEY_PEPPER: randomBytes(24).toString('hex'),
        CURSOR_SECRET: randomBytes(24).toString('hex'),
        LOG_LEVEL: 'silent',
        // Citation verification re-reads sources where the ingestors read them: the fixture server.
        EDGAR_USER_AGENT: FIXTURE_USER_AGENT,
        EDGAR_WWW_BASE_URL: fixtures.url,
        EDGAR_DATA_BASE_URL: fixtures.url,
        IR_USER_AGENT: FIXTURE_USER_AGENT,
        IR_ALLOW_PRIVATE_HOSTS: 'true',
        ...options.apiEnv,
      }),
      { logger },
    );
    closers.push(() => api.close());
    await api.listen(0, '127.0.0.1');
    const context = api.get<ApiContext>('API_CONTEXT');
    const newKey = async (plan: Plan, mode: 'live' | 'test' = 'live') => {
      const id = `acct_${plan}_${randomBytes(4).toString('hex')}`;
      await pg.query(`INSERT INTO accounts (id, name, plan) VALUES ($1, $1, $2)`, [id, plan]);
      return (await context.keys.createKey({ accountId: id, mode, label: 'e2e' })).key;
    };
    const key = await newKey('enterprise');
    return { api, url: await api.getUrl(), context, key, fixtures, db, pg, namespace, newKey, close: closeAll };
  } catch (err) {
    await closeAll();
    throw err;
  }
}
