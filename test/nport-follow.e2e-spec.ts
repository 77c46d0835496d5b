// N-PORT follows EDGAR on real infrastructure: NPORT-P filing records on edgar.filings.v1 (as the
// live poller publishes them: the filing index page named, a fund registrant no list covers) ->
// `nport --follow` (startWorker; ADX's real primary_doc.xml from the fixture EDGAR server) ->
// Kafka -> projector -> Postgres fund_holdings, read through the exposure repository. Then an
// NPORT-P/A of the same report period replaces the report, and the original arriving again does not
// take its place back.
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { loadConfig } from '@app/config';
import { namespacedTopic, TOPICS, type FilingRecordV1, type TopicDefinition } from '@app/contracts';
import { consumerLag, ensureTopics, readTopic, RecordProducer, type KafkaSettings } from '@app/messaging';
import { createLogger } from '@app/observability';
import { createDataSource, FundExposureRepository, type FundExposureRow } from '@app/persistence';
import { createTestDatabase, expectEventually, kafkaBrokersForTests, startFixtureServer, uniqueGroupId, type FixtureServer, type TestDatabase } from '@app/testing';
import { filingRecord, followEnv } from '../apps/ingest-sec/src/document-worker.int-helpers';
import { nportConfigSchema } from '../apps/ingest-sec/src/nport/nport.config';
import { startNportFollow } from '../apps/ingest-sec/src/nport/nport.module';
import { projectorConfigSchema } from '../apps/projector/src/projector.config';
import { PROJECTED_TOPICS, startProjector, type RunningProjector } from '../apps/projector/src/projector.runner';

jest.setTimeout(180_000);

const ADX = { cik: '0000002230', company_name: 'ADAMS DIVERSIFIED EQUITY FUND, INC.' };
/** ADX's NPORT-P for 2023-06-30 (FIXTURE_ROUTES serves the real file under this accession). */
const ORIGINAL = '0000002230-23-990001';
/** Its amendment: the same real file, served by this test under a later accession. */
const AMENDMENT = '0000002230-23-990002';
/** Not served: the follower dead-letters its filing record. */
const MISSING = '0000002230-23-990009';
const MSFT_CIK = '0000789019';
const indexPage = (accession: string) => `https://www.sec.gov/Archives/edgar/data/2230/${accession.replace(/-/g, '')}/${accession}-index.htm`;
const nportRecord = (accession: string, form: 'NPORT-P' | 'NPORT-P/A') =>
  filingRecord({ ...ADX, accession, form, filed_date: '2023-08-25', report_period: '2023-06-30', primary_document_url: indexPage(accession) });

let db: TestDatabase;
let ds: DataSource;
let server: FixtureServer;
let settings: KafkaSettings;
let namespace: string;
let filings: TopicDefinition;
let projector: RunningProjector | undefined;
const projectorGroup = uniqueGroupId('nport-follow-projector');
const followerGroup = uniqueGroupId('nport-follow');

async function publish(records: FilingRecordV1[]): Promise<void> {
  const producer = new RecordProducer(settings);
  await producer.connect();
  try {
    await producer.publish(filings, records);
  } finally {
    await producer.disconnect();
  }
}

/** One `nport --follow` until its group has caught up with the filings topic; its counters. */
async function followOnce() {
  const config = loadConfig(nportConfigSchema, followEnv(server, settings, namespace, { NPORT_GROUP_ID: followerGroup }));
  const worker = await startNportFollow(config, { logger: createLogger({ level: 'silent' }), runId: 'run_int_nport' });
  try {
    await worker.follow({ once: true, checkMs: 250 });
    return { ...worker.runner.counters };
  } finally {
    await worker.stop();
  }
}

/** Waits until the projector has applied every fund-holdings record published so far. */
async function projected(): Promise<void> {
  const topic = namespacedTopic(TOPICS.fundHoldings, namespace);
  await expectEventually(async () => expect((await consumerLag(settings, projectorGroup, [topic])).every((p) => p.lag === 0)).toBe(true), { timeoutMs: 60_000, intervalMs: 250 });
}

const msftExposure = async (): Promise<FundExposureRow[]> => (await new FundExposureRepository(ds).list({ cik: MSFT_CIK, sort: 'weight', etfsOnly: false }, { direction: 'desc', limit: 10 })).rows;
const adxFilings = () => ds.query<Array<{ accession: string; n: number }>>(`SELECT accession, count(*)::int AS n FROM fund_holdings WHERE fund_key = 'CIK0000002230' GROUP BY accession ORDER BY accession`);
const adxCurrent = async () => (await ds.query<Array<{ accession: string }>>(`SELECT accession FROM funds WHERE fund_key = 'CIK0000002230'`))[0]?.accession;

beforeAll(async () => {
  db = await createTestDatabase('nport_follow');
  ds = createDataSource({ url: db.url });
  await ds.initialize();
  server = await startFixtureServer({ routes: [{ path: `/Archives/edgar/data/2230/${AMENDMENT.replace(/-/g, '')}/primary_doc.xml`, file: 'nport/ADX-CIK0000002230-primary_doc.xml' }] });
  settings = { brokers: await kafkaBrokersForTests(), clientId: 'nport-follow-e2e', logLevel: 'nothing' };
  namespace = `test-nport-${randomBytes(4).toString('hex')}`;
  filings = namespacedTopic(TOPICS.filings, namespace);
  await ensureTopics(settings, PROJECTED_TOPICS.map((t) => namespacedTopic(t, namespace)));
  projector = await startProjector(
    projectorConfigSchema.parse({ DATABASE_URL: db.url, KAFKA_BROKERS: settings.brokers.join(','), KAFKA_TOPIC_NAMESPACE: namespace, PROJECTOR_GROUP_ID: projectorGroup, LOG_LEVEL: 'warn' }),
  );
}, 600_000);

afterAll(async () => {
  await projector?.stop();
  await server?.close();
  await ds?.destroy();
  await db?.drop();
});

describe('nport --follow -> projector -> fund exposure', () => {
  it("reads a fund's NPORT-P from the filings topic, with no list configured, into exposure rows of the companies it holds", async () => {
    await publish([
      nportRecord(ORIGINAL, 'NPORT-P'),
      // Not an N-PORT report: nothing is fetched for it.
      filingRecord({ cik: MSFT_CIK, company_name: 'MICROSOFT CORP', accession: '0000950170-25-100235', form: '10-K', primary_document_url: indexPage('0000950170-25-100235') }),
      nportRecord(MISSING, 'NPORT-P'),
    ]);
    // The dead-lettered record is not counted as processed.
    expect(await followOnce()).toMatchObject({ processed: 2, dead_lettered: 1 });
    const dead = await readTopic(settings, filings.dlq, { count: 1, timeoutMs: 30_000 });
    expect(dead.map((m) => m.key)).toEqual([MISSING]);
    expect(dead[0]!.headers['dlq-reason']).toMatch(`permanent: N-PORT ${MISSING}: primary_doc.xml not found`);
    // Each N-PORT filing's primary_doc.xml (the missing one again when its batch is split), no index page, no 10-K document.
    expect([...new Set(server.requests.map((r) => r.path).filter((p) => p.startsWith('/Archives/')))].sort()).toEqual([
      '/Archives/edgar/data/2230/000000223023990001/primary_doc.xml',
      '/Archives/edgar/data/2230/000000223023990009/primary_doc.xml',
    ]);

    await projected();
    expect(await adxCurrent()).toBe(ORIGINAL);
    expect(await adxFilings()).toEqual([{ accession: ORIGINAL, n: 95 }]);
    const msft = await msftExposure();
    expect(msft.map((r) => [r.fundKey, r.accession, r.pctVal, r.balance, r.reportDate])).toEqual([['CIK0000002230', ORIGINAL, '7.2998', '517700', '2023-06-30']]);
    expect(msft[0]!.provenance).toMatchObject({ accession: ORIGINAL, quote: '<name>Microsoft Corporation</name>' });
  });

  it('replaces the report with its NPORT-P/A of the same period; the original arriving again does not take it back', async () => {
    await publish([nportRecord(AMENDMENT, 'NPORT-P/A')]);
    expect(await followOnce()).toMatchObject({ processed: 1, dead_lettered: 0 });
    await projected();
    expect(await adxCurrent()).toBe(AMENDMENT);
    // The original's rows are gone, not merely not current.
    expect(await adxFilings()).toEqual([{ accession: AMENDMENT, n: 95 }]);
    expect((await msftExposure()).map((r) => [r.accession, r.pctVal])).toEqual([[AMENDMENT, '7.2998']]);

    // A late (or replayed) original: read and published again, dropped by the projection.
    await publish([nportRecord(ORIGINAL, 'NPORT-P')]);
    expect(await followOnce()).toMatchObject({ processed: 1, dead_lettered: 0 });
    await projected();
    expect(await adxCurrent()).toBe(AMENDMENT);
    expect(await adxFilings()).toEqual([{ accession: AMENDMENT, n: 95 }]);
  });
});
