// 8-Ks follow EDGAR on real infrastructure: 8-K filing records on edgar.filings.v1 (as the live
// poller publishes them from the daily index: items not known) -> `eightk --follow` (startWorker;
// the real complete submissions from the fixture EDGAR server) -> Kafka -> projector -> Postgres:
// the filing with its items, its exhibits as documents with pages, and the webhook events written
// with them. A replay of the same filing records makes no second event.
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { loadConfig } from '@app/config';
import { namespacedTopic, recordId, TOPICS, type FilingRecordV1, type IssuerDocumentRecordV1, type RecordEnvelope, type TopicDefinition } from '@app/contracts';
import { consumerLag, ensureTopics, readTopic, RecordProducer, type KafkaSettings } from '@app/messaging';
import { createLogger } from '@app/observability';
import { createDataSource, DocumentsRepository, FilingsRepository } from '@app/persistence';
import { createTestDatabase, expectEventually, kafkaBrokersForTests, startFixtureServer, uniqueGroupId, type FixtureServer, type TestDatabase } from '@app/testing';
import { filingRecord, followEnv } from '../apps/ingest-sec/src/document-worker.int-helpers';
import { eightkConfigSchema } from '../apps/ingest-sec/src/eightk/eightk.config';
import { startEightKFollow } from '../apps/ingest-sec/src/eightk/eightk.module';
import { projectorConfigSchema } from '../apps/projector/src/projector.config';
import { PROJECTED_TOPICS, startProjector, type RunningProjector } from '../apps/projector/src/projector.runner';

jest.setTimeout(180_000);

const ADBE = { cik: '0000796343', company_name: 'ADOBE INC.', accession: '0000796343-23-000044', filed_date: '2023-03-15' };
const MMM = { cik: '0000066740', company_name: '3M CO', accession: '0000066740-24-000023', filed_date: '2024-03-08' };
const NVDA = { cik: '0001045810', company_name: 'NVIDIA CORP', accession: '0001045810-26-000024', filed_date: '2026-03-06' };
/** Not served: the follower dead-letters its filing record. */
const MISSING = { cik: '0000796343', company_name: 'ADOBE INC.', accession: '0000796343-23-000099', filed_date: '2023-03-16' };
const indexPage = (cik: string, accession: string) => `https://www.sec.gov/Archives/edgar/data/${Number(cik)}/${accession.replace(/-/g, '')}/${accession}-index.htm`;
/** As the live poller publishes an 8-K of the daily index: the items are not known. */
const fromDailyIndex = (f: typeof ADBE): FilingRecordV1 =>
  filingRecord({ ...f, form: '8-K', primary_document_url: indexPage(f.cik, f.accession), items: null, source: 'daily_index' });

let db: TestDatabase;
let ds: DataSource;
let server: FixtureServer;
let settings: KafkaSettings;
let namespace: string;
let filings: TopicDefinition;
let issuerDocuments: TopicDefinition;
let projector: RunningProjector | undefined;
const projectorGroup = uniqueGroupId('eightk-follow-projector');
const followerGroup = uniqueGroupId('eightk-follow');

async function publish(records: RecordEnvelope[], topic: TopicDefinition = filings): Promise<void> {
  const producer = new RecordProducer(settings);
  await producer.connect();
  try {
    await producer.publish(topic, records);
  } finally {
    await producer.disconnect();
  }
}

/*
 * A press release as an issuer's IR page links it, the way ingest-ir publishes a link. The IR pages
 * of ABVC and 3M are not among the fixtures: the title and date are those the filed release prints.
 */
function irLink(cik: string, ticker: string, url: string, title: string, publishedOn: string): IssuerDocumentRecordV1 {
  const page = `https://ir.${ticker.toLowerCase()}.example/news`;
  const quote = `${publishedOn} ${title}`;
  const hash = `sha256:${'1'.repeat(64)}`;
  return {
    schema: 'ir-document@1',
    key: url,
    id: recordId(url, hash),
    observed_at: '2026-11-28T12:00:00.000Z',
    produced_by: 'ingest-ir',
    correlation_id: 'run_int_eightk',
    origin: 'live',
    provenance: { src_id: 'src_int_ir', source_provider: 'issuer_page', source_url: page, citation_url: url, accession: null, quote, content_hash: hash, extracted_at: '2026-11-28T12:00:00.000Z' },
    data: { cik, ticker, url, title, kind: 'press_release', published_on: publishedOn, is_pdf: false, event: null, listed_on: 'ir_page', citation: { source_url: page, content_hash: hash, quote } },
  };
}

/** One `eightk --follow` until its group has caught up with the filings topic; its counters. */
async function followOnce() {
  const config = loadConfig(eightkConfigSchema, followEnv(server, settings, namespace, { EIGHTK_GROUP_ID: followerGroup }));
  const worker = await startEightKFollow(config, { logger: createLogger({ level: 'silent' }), runId: 'run_int_eightk' });
  try {
    await worker.follow({ once: true, checkMs: 250 });
    return { ...worker.runner.counters };
  } finally {
    await worker.stop();
  }
}

/** Waits until the projector has applied every filing and document record published so far. */
async function projected(): Promise<void> {
  const topics = [TOPICS.filings, TOPICS.documentTexts, TOPICS.issuerDocuments].map((t) => namespacedTopic(t, namespace));
  await expectEventually(async () => expect((await consumerLag(settings, projectorGroup, topics)).every((p) => p.lag === 0)).toBe(true), { timeoutMs: 60_000, intervalMs: 250 });
}

const events = () => ds.query<Array<{ type: string; entity_key: string; data: Record<string, unknown> }>>(`SELECT type, entity_key, data FROM webhook_events WHERE NOT is_test ORDER BY seq`);

beforeAll(async () => {
  db = await createTestDatabase('eightk_follow');
  ds = createDataSource({ url: db.url });
  await ds.initialize();
  server = await startFixtureServer();
  settings = { brokers: await kafkaBrokersForTests(), clientId: 'eightk-follow-e2e', logLevel: 'nothing' };
  namespace = `test-eightk-${randomBytes(4).toString('hex')}`;
  filings = namespacedTopic(TOPICS.filings, namespace);
  await ensureTopics(settings, PROJECTED_TOPICS.map((t) => namespacedTopic(t, namespace)));
  issuerDocuments = namespacedTopic(TOPICS.issuerDocuments, namespace);
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

describe('eightk --follow -> projector -> filings with items, exhibit documents, webhook events', () => {
  it('reads each 8-K once: the items onto the filing, the press releases as documents with pages, one event each', async () => {
    // NVDA as the submissions JSON gives it: items known.
    const nvda = filingRecord({ ...NVDA, form: '8-K', primary_document_url: `https://www.sec.gov/Archives/edgar/data/1045810/000104581026000024/nvda-20260302.htm`, items: ['5.02', '9.01'] });
    await publish([fromDailyIndex(ADBE), fromDailyIndex(MMM), nvda, fromDailyIndex(MISSING)]);
    // The follower reads the four, and then the two filing records it published itself (which it skips).
    expect(await followOnce()).toMatchObject({ dead_lettered: 1 });
    const dead = await readTopic(settings, filings.dlq, { count: 1, timeoutMs: 30_000 });
    expect(dead.map((m) => m.key)).toEqual([MISSING.accession]);
    expect(dead[0]!.headers['dlq-reason']).toMatch(`permanent: 8-K ${MISSING.accession}: complete submission not found`);
    // One request per 8-K (the missing one again when its batch is split): no index page, no exhibit fetched alone.
    expect([...new Set(server.requests.map((r) => r.path).filter((p) => p.startsWith('/Archives/')))].sort()).toEqual([
      '/Archives/edgar/data/1045810/000104581026000024/0001045810-26-000024.txt',
      '/Archives/edgar/data/66740/000006674024000023/0000066740-24-000023.txt',
      '/Archives/edgar/data/796343/000079634323000044/0000796343-23-000044.txt',
      '/Archives/edgar/data/796343/000079634323000099/0000796343-23-000099.txt',
    ]);

    await projected();
    const repo = new FilingsRepository(ds);
    // The items the documents state (3M's header lists "Other Events" only; its document 8.01 and 9.01).
    expect(await repo.findByAccession(ADBE.accession)).toMatchObject({ items: ['2.02', '9.01'], source: 'submission_text' });
    expect(await repo.findByAccession(MMM.accession)).toMatchObject({ items: ['8.01', '9.01'], source: 'submission_text' });
    expect((await repo.findByAccession(ADBE.accession))!.acceptedAt!.toISOString()).toBe('2023-03-15T20:06:36.000Z');
    expect(await repo.findByAccession(NVDA.accession)).toMatchObject({ items: ['5.02', '9.01'], source: 'submissions' });
    expect((await repo.list({ items: ['2.02'] }, { direction: 'desc', limit: 10 })).rows.map((f) => f.accession)).toEqual([ADBE.accession]);

    const documents = (await new DocumentsRepository(ds).list({}, { direction: 'desc', limit: 10 })).rows;
    // NVDA's only exhibit is an agreement (EX-10.1): not a document.
    expect(documents.map((d) => [d.accession, d.docGroup, d.format, d.filing?.exhibit_type])).toEqual([
      [MMM.accession, 'press_release', 'html', 'EX-99.1'],
      [ADBE.accession, 'press_release', 'html', 'EX-99.1'],
    ]);
    const adbe = documents.find((d) => d.accession === ADBE.accession)!;
    expect(adbe).toMatchObject({
      url: 'https://www.sec.gov/Archives/edgar/data/796343/000079634323000044/adbeex991q123.htm',
      subject: 'earnings',
      publishedAtSource: 'filing',
    });
    expect(adbe.title).toMatch(/Adobe Reports Record Revenue in Q1 Fiscal 2023/);
    expect(adbe.pageCount).toBeGreaterThan(0);
    expect(adbe.eventId).not.toBeNull();

    const written = await events();
    expect(written.filter((e) => e.type === 'ir_document.created').map((e) => e.entity_key).sort()).toEqual(documents.map((d) => d.url).sort());
    // filing.created waited for the items, then carried them.
    const filingEvents = written.filter((e) => e.type === 'filing.created');
    expect(filingEvents.map((e) => [e.entity_key, e.data.items]).sort()).toEqual([
      [MMM.accession, ['8.01', '9.01']],
      [ADBE.accession, ['2.02', '9.01']],
      [NVDA.accession, ['5.02', '9.01']],
    ].sort());
    expect(written.find((e) => e.type === 'ir_document.created' && e.entity_key === adbe.url)!.data).toMatchObject({ doc_type: 'press_release', doc_group: 'earnings', accession: ADBE.accession, items: ['2.02', '9.01'] });
  });

  it('makes no second event when the same 8-Ks come again', async () => {
    const before = await events();
    await publish([fromDailyIndex(ADBE), fromDailyIndex(MMM)]);
    await followOnce();
    await projected();
    expect(await events()).toEqual(before);
  });

  it('makes one document of a release linked on the IR site and filed as an exhibit, whichever comes first', async () => {
    const abvcRelease = 'https://ir.abvc.example/news/abvc-biopharma-announces-2024-financial-results';
    const mmmRelease = 'https://ir.mmm.example/news/3m-board-approves-spin-off-of-solventum';
    const before = await events();
    // ABVC: the IR link first, then the 8-K.
    await publish([irLink('0001173313', 'ABVC', abvcRelease, 'ABVC BioPharma Announces 2024 Financial Results', '2025-04-15')], issuerDocuments);
    await projected();
    await publish([fromDailyIndex({ cik: '0001173313', company_name: 'ABVC BIOPHARMA, INC.', accession: '0001213900-25-032135', filed_date: '2025-04-15' })]);
    await followOnce();
    // 3M: its exhibit is held since the first test; the IR link comes now.
    await publish([irLink('0000066740', 'MMM', mmmRelease, '3M Board of Directors Approves Spin-off of Solventum', '2024-03-08')], issuerDocuments);
    await projected();

    const documents = (await new DocumentsRepository(ds).list({}, { direction: 'desc', limit: 10 })).rows;
    const abvc = documents.filter((d) => d.cik === '0001173313');
    expect(abvc).toHaveLength(1);
    expect(abvc[0]).toMatchObject({
      url: abvcRelease,
      linkUrl: abvcRelease,
      filingUrl: 'https://www.sec.gov/Archives/edgar/data/1173313/000121390025032135/ea023837201ex99-1_abvcbio.htm',
      accession: '0001213900-25-032135',
      title: 'ABVC BioPharma Announces 2024 Financial Results',
      format: 'html',
      publishedAtSource: 'filing',
    });
    // The IR page's link had no text (not a PDF): the exhibit's pages are the document's.
    expect(abvc[0]!.pageCount).toBeGreaterThan(0);
    const mmm = documents.filter((d) => d.cik === '0000066740');
    expect(mmm).toHaveLength(1);
    expect(mmm[0]).toMatchObject({
      url: 'https://www.sec.gov/Archives/edgar/data/66740/000006674024000023/pressrelease3-8x24.htm',
      linkUrl: mmmRelease,
      title: '3M Board of Directors Approves Spin-off of Solventum',
      publishedAtSource: 'filing',
    });
    // One announcement per document: the IR link's for ABVC, none for 3M's link (its exhibit was announced).
    const added = (await events()).slice(before.length);
    expect(added.filter((e) => e.type === 'ir_document.created').map((e) => e.entity_key)).toEqual([abvcRelease]);
  });
});
