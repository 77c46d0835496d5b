import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '@app/config';
import {
  contentHash,
  namespacedTopic,
  recordId,
  sourceId,
  TOPICS,
  type DocumentKind,
  type DocumentTextRecordV1,
  type IssuerDocumentRecordV1,
} from '@app/contracts';
import { buildDocumentText, extractPdf } from '@app/decks';
import { ensureTopics, readTopic, RecordProducer, type KafkaSettings } from '@app/messaging';
import { createLogger } from '@app/observability';
import { defaultFixturesDir, kafkaBrokersForTests, startFixtureServer, type FixtureServer } from '@app/testing';
import { ingestDecksConfigSchema } from './ingest-decks.config';
import { drainIrDocuments } from './ingest-decks.runner';

const UA = 'Filings Platform Tests ops@filings.example';
const CIK = '0000844059';
const PRESENTATION_FILE = 'decks/FRPH-1_CURRENT_12_JAN_2015_FRP_Holdings_Inc_Presentation_Pre-Spin-Off.pdf';
const PRESENTATION = '/assets/presentations/1_CURRENT_12_JAN_2015_FRP_Holdings_Inc_Presentation_Pre-Spin-Off.pdf';
const MEETING = '/assets/Annual_Meeting_-_2015_FINAL2.pdf';
const BROKEN = '/assets/FRP_Investor_Presentation.pdf';
const MISSING = '/assets/2016_Annual_Meeting_-_FRPH_FINAL.PDF';

describe('ingest-decks: ir.documents.v1 -> PDFs from the fixture IR server -> ir.document-texts.v1 (real broker)', () => {
  let server: FixtureServer;
  let brokers: string[];
  beforeAll(async () => {
    server = await startFixtureServer({
      routes: [
        { path: PRESENTATION, file: PRESENTATION_FILE },
        { path: MEETING, file: 'decks/FRPH-Annual_Meeting_-_2015_FINAL2.pdf' },
        // A site answering an HTML page with a PDF content type: the PDF cannot be parsed.
        { path: BROKEN, file: 'ir-pages/FRPH-frppresent.html', contentType: 'application/pdf' },
      ],
    });
    brokers = await kafkaBrokersForTests();
  }, 600_000);
  afterAll(async () => {
    await server.close();
  });

  function irDocument(path: string, title: string, kind: DocumentKind, isPdf: boolean): IssuerDocumentRecordV1 {
    const url = `${server.url}${path}`;
    const page = `${server.url}/frppresent.html`;
    const pageHash = contentHash(`fixture page listing ${title}`);
    const at = '2026-11-20T09:00:00.000Z';
    return {
      schema: 'ir-document@1',
      key: url,
      id: recordId(url, pageHash),
      observed_at: at,
      produced_by: 'ingest-ir',
      correlation_id: 'run_int_ir',
      origin: 'live',
      provenance: { src_id: sourceId(page, pageHash), source_provider: 'issuer_page', source_url: page, accession: null, quote: title, content_hash: pageHash, extracted_at: at },
      data: { cik: CIK, ticker: 'FRPH', url, title, kind, published_on: null, is_pdf: isPdf, event: null, listed_on: 'ir_page', citation: { source_url: page, content_hash: pageHash, quote: title } },
    };
  }

  it('publishes every page of the good PDFs with exact offsets, dead-letters the broken and missing ones, and goes on', async () => {
    const namespace = `it-decks-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
    const source = namespacedTopic(TOPICS.issuerDocuments, namespace);
    const target = namespacedTopic(TOPICS.documentTexts, namespace);
    const settings: KafkaSettings = { brokers, clientId: 'ingest-decks-int', logLevel: 'nothing' };

    // The ir-document records ingest-ir would publish for the FRPH presentations page.
    const producer = new RecordProducer(settings);
    await ensureTopics(settings, [source]);
    await producer.connect();
    try {
      await producer.publish(source, [
        irDocument(BROKEN, 'FRP Holdings Inc. Investor Presentation September 2017', 'presentation', true),
        irDocument(PRESENTATION, 'FRP Holdings Inc. Investor Presentation January 2015', 'presentation', true),
        irDocument(MISSING, 'FRP Holdings Inc. Investor Presentation February 2017', 'presentation', true),
        irDocument('/frpnews.html', 'Press releases', 'press_release', false),
        irDocument(MEETING, 'Annual Meeting - 2015 Annual Shareholder Meeting', 'presentation', true),
      ]);
    } finally {
      await producer.disconnect();
    }

    const config = loadConfig(ingestDecksConfigSchema, {
      DECKS_USER_AGENT: UA,
      DECKS_FETCH_ATTEMPTS: '1',
      // The fixture server listens on 127.0.0.1.
      DECKS_ALLOW_PRIVATE_HOSTS: 'true',
      KAFKA_BROKERS: brokers.join(','),
      KAFKA_TOPIC_NAMESPACE: namespace,
      LOG_LEVEL: 'silent',
    });
    expect(config.CONSUMER_BATCH_MAX_RECORDS).toBe(1);
    const summary = await drainIrDocuments({ config, logger: createLogger({ level: 'silent' }), checkMs: 250 });
    // One PDF a batch (the default): five records, five batches, no split re-runs a download.
    expect(summary).toMatchObject({ published: 2, unchanged: 0, not_pdf: 1, rejected: 2, processed: 3, dead_lettered: 2, batches: 5 });

    // Offsets were committed after the effects: a second run of the group finds nothing to do.
    expect(await drainIrDocuments({ config, logger: createLogger({ level: 'silent' }), checkMs: 250 })).toMatchObject({ published: 0, rejected: 0, processed: 0, dead_lettered: 0, batches: 0 });

    const texts = (await readTopic(settings, target.name, { count: 2, timeoutMs: 30_000 })).map((m) => JSON.parse(m.value ?? '') as DocumentTextRecordV1);
    expect(texts.map((r) => r.data.title).sort()).toEqual(['Annual Meeting - 2015 Annual Shareholder Meeting', 'FRP Holdings Inc. Investor Presentation January 2015']);
    for (const record of texts) {
      expect(record).toMatchObject({ schema: 'document-text@1', key: record.data.url, produced_by: 'ingest-decks', provenance: { source_provider: 'issuer_page', source_url: record.data.url, citation_url: record.data.url } });
      expect(record.data).toMatchObject({ cik: CIK, ticker: 'FRPH', doc_type: 'slide_deck', doc_group: 'slide_deck', language: 'en', page_count: 36, part: { index: 0, count: 1 } });
      const text = record.data.pages.map((p) => p.text).join(record.data.page_separator);
      expect(text).toHaveLength(record.data.text_length);
      for (const page of record.data.pages) expect(text.slice(page.char_start, page.char_end)).toBe(page.text);
    }
    // The published pages are the library's extraction of the very file served.
    const presentation = texts.find((r) => r.key.endsWith(PRESENTATION))!;
    const bytes = new Uint8Array(readFileSync(join(defaultFixturesDir(), PRESENTATION_FILE)));
    const expected = await extractPdf(bytes);
    const expectedText = buildDocumentText(expected.pages.map((p) => p.text));
    expect(presentation.provenance.content_hash).toBe(contentHash(bytes));
    expect(presentation.data.pages.map((p) => [p.text, p.char_start, p.char_end])).toEqual(expected.pages.map((p, i) => [p.text, expectedText.offsets[i]!.char_start, expectedText.offsets[i]!.char_end]));
    expect(presentation.data.pages[0]!.text.split('\n')[0]).toBe('FRP Holdings, Inc. (fka Patriot Transportation Holding, Inc.)');

    const dead = await readTopic(settings, source.dlq, { count: 2, timeoutMs: 30_000 });
    const reasons = new Map(dead.map((m) => [m.key, m.headers['dlq-reason']]));
    expect(reasons.get(`${server.url}${BROKEN}`)).toMatch(/^permanent: not_pdf: GET .*: the body \(application\/pdf\) does not start with %PDF-$/);
    expect(reasons.get(`${server.url}${MISSING}`)).toMatch(/^permanent: not_found: GET .* HTTP 404$/);
    expect(dead.every((m) => m.headers['dlq-source-topic'] === source.name)).toBe(true);

    const pdfRequests = server.requests.filter((r) => r.path.startsWith('/assets/'));
    expect(pdfRequests).toHaveLength(4);
    expect(pdfRequests.every((r) => r.userAgent === UA)).toBe(true);
  }, 120_000);

  it('dead-letters a PDF link on a non-public address (127.0.0.1) with the reason when DECKS_ALLOW_PRIVATE_HOSTS is off, without requesting it', async () => {
    const namespace = `it-decks-ssrf-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
    const source = namespacedTopic(TOPICS.issuerDocuments, namespace);
    const settings: KafkaSettings = { brokers, clientId: 'ingest-decks-int', logLevel: 'nothing' };
    const producer = new RecordProducer(settings);
    await ensureTopics(settings, [source]);
    await producer.connect();
    try {
      await producer.publish(source, [irDocument(PRESENTATION, 'FRP Holdings Inc. Investor Presentation January 2015', 'presentation', true)]);
    } finally {
      await producer.disconnect();
    }
    const config = loadConfig(ingestDecksConfigSchema, { DECKS_USER_AGENT: UA, KAFKA_BROKERS: brokers.join(','), KAFKA_TOPIC_NAMESPACE: namespace, LOG_LEVEL: 'silent' });
    expect(config.DECKS_ALLOW_PRIVATE_HOSTS).toBe(false);
    const requestsBefore = server.requests.length;
    const summary = await drainIrDocuments({ config, logger: createLogger({ level: 'silent' }), checkMs: 250 });
    expect(summary).toMatchObject({ published: 0, rejected: 1, processed: 0, dead_lettered: 1 });
    const [dead] = await readTopic(settings, source.dlq, { count: 1, timeoutMs: 30_000 });
    expect(dead?.key).toBe(`${server.url}${PRESENTATION}`);
    expect(dead?.headers['dlq-reason']).toMatch(/^permanent: non_public_address: GET http:\/\/127\.0\.0\.1:\d+\/.*resolves to 127\.0\.0\.1, a loopback, private/);
    expect(server.requests.length).toBe(requestsBefore);
  }, 120_000);
});
