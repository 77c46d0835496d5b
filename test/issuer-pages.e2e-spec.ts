// Issuer IR pages and decks end to end on real infrastructure: a local server serving FRPH's saved
// IR pages and PDFs at their site paths -> ingest-sec (ticker map, for the FRPH:US company) ->
// ingest-ir -> ingest-decks -> Kafka -> projector -> Postgres -> /v1/documents and the executives
// endpoint, through each app's composition root.
import 'reflect-metadata';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { loadConfig } from '@app/config';
import { DOCUMENT_PAGE_SEPARATOR, namespacedTopic, TOPICS } from '@app/contracts';
import { pageText } from '@app/issuer-pages';
import { ensureTopics, readTopic } from '@app/messaging';
import { createLogger } from '@app/observability';
import { createTestDatabase, defaultFixturesDir, expectEventually, kafkaBrokersForTests, startFixtureServer, type FixtureServer, type TestDatabase } from '@app/testing';
import type { DocumentBody, DocumentDetailBody, DocumentListBody, DocumentPagesBody, DocumentTextBody } from '@app/resources';
import { createApiApp } from '../apps/api/src/api.app';
import type { ApiContext } from '../apps/api/src/api.context';
import { apiConfigSchema } from '../apps/api/src/config/api.config';
import { ingestDecksConfigSchema } from '../apps/ingest-decks/src/ingest-decks.config';
import { drainIrDocuments } from '../apps/ingest-decks/src/ingest-decks.runner';
import { loadIngestIrConfig } from '../apps/ingest-ir/src/ingest-ir.config';
import { IngestIrModule } from '../apps/ingest-ir/src/ingest-ir.module';
import { IngestIrService } from '../apps/ingest-ir/src/ingest-ir.service';
import { ingestSecConfigSchema } from '../apps/ingest-sec/src/ingest-sec.config';
import { IngestSecModule } from '../apps/ingest-sec/src/ingest-sec.module';
import { IngestSecService } from '../apps/ingest-sec/src/ingest-sec.service';
import { projectorConfigSchema } from '../apps/projector/src/projector.config';
import { PROJECTED_TOPICS, startProjector, type RunningProjector } from '../apps/projector/src/projector.runner';

const UA = 'Filings Platform e2e ops@filings.example';
const DECKS = {
  meeting: { path: '/assets/Annual_Meeting_-_2015_FINAL2.pdf', file: 'decks/FRPH-Annual_Meeting_-_2015_FINAL2.pdf', pages: 36 },
  january2015: { path: '/assets/presentations/1_CURRENT_12_JAN_2015_FRP_Holdings_Inc_Presentation_Pre-Spin-Off.pdf', file: 'decks/FRPH-1_CURRENT_12_JAN_2015_FRP_Holdings_Inc_Presentation_Pre-Spin-Off.pdf', pages: 36 },
  annualReport: { path: '/assets/FRP_2019_Annual_Report.pdf', file: 'decks/FRPH-FRP_2019_Annual_Report.pdf', pages: 48 },
} as const;
const IR_PAGES: Record<string, string> = {
  '/investor-relations.html': 'ir-pages/FRPH-investor-relations.html',
  '/contactus.html': 'ir-pages/FRPH-contactus.html',
  '/executive-team.html': 'ir-pages/FRPH-executive-team.html',
  '/frppresent.html': 'ir-pages/FRPH-frppresent.html',
};

interface RosterBody {
  company: { symbol: string };
  data: Array<{ name: string; role: string; category: string; affiliation: string; rank: number; is_current: boolean; email: string | null; phone: string | null; provenance: { source_provider: string; source_url: string; quote: string; content_hash: string } }>;
}

let db: TestDatabase;
let pg: Client;
let fixtures: FixtureServer;
let namespace: string;
let brokers: string[];
let projector: RunningProjector | undefined;
let api: NestFastifyApplication;
let key: string;
let documentsSeen: number;
let decksSummary: { published: number; dead_lettered: number };

const fixtureBytes = (file: string) => readFileSync(join(defaultFixturesDir(), file));
const sha256 = (bytes: Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

async function get<T>(url: string): Promise<{ status: number; body: T }> {
  const r = await api.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
  return { status: r.statusCode, body: r.json<T>() };
}

async function documentByPath(path: string): Promise<DocumentBody> {
  const list = await get<DocumentListBody>('/v1/documents?symbols=FRPH:US&limit=100');
  const doc = list.body.data.find((d) => new URL(d.url).pathname === path);
  if (!doc) throw new Error(`no document for ${path}`);
  return doc;
}

beforeAll(async () => {
  db = await createTestDatabase('issuer_pages_e2e');
  pg = new Client({ connectionString: db.url });
  await pg.connect();
  brokers = await kafkaBrokersForTests();
  namespace = `e2e${randomBytes(4).toString('hex')}`;
  fixtures = await startFixtureServer();
  const logger = createLogger({ level: 'silent' });
  const kafkaEnv = { KAFKA_BROKERS: brokers.join(','), KAFKA_TOPIC_NAMESPACE: namespace, LOG_LEVEL: 'silent' };

  const companies = await NestFactory.createApplicationContext(
    IngestSecModule.forRoot({
      config: loadConfig(ingestSecConfigSchema, { ...kafkaEnv, EDGAR_USER_AGENT: UA, EDGAR_WWW_BASE_URL: fixtures.url, EDGAR_DATA_BASE_URL: fixtures.url, SEC_COVERAGE: 'FRPH', SEC_SUBMISSIONS: 'none' }),
      logger,
    }),
    { logger: false },
  );
  try {
    await companies.get(IngestSecService).execute({ runId: 'run_e2e_companies' });
  } finally {
    await companies.close();
  }

  const site = {
    cik: '844059',
    ticker: 'FRPH',
    name: 'FRP Holdings, Inc.',
    landing_url: `${fixtures.url}/investor-relations.html`,
    pages: { contact: `${fixtures.url}/contactus.html`, management: `${fixtures.url}/executive-team.html`, presentations: `${fixtures.url}/frppresent.html` },
    documents: [
      { url: `${fixtures.url}${DECKS.january2015.path}`, title: 'FRP Holdings Inc Presentation Pre-Spin-Off, January 12, 2015', kind: 'presentation' },
      { url: `${fixtures.url}${DECKS.annualReport.path}`, title: 'FRP Holdings 2019 Annual Report', kind: 'annual_report' },
    ],
  };
  const irConfig = loadIngestIrConfig({ ...kafkaEnv, IR_USER_AGENT: UA, IR_SITES: JSON.stringify([site]), IR_MAX_RPS_PER_HOST: '10', IR_ALLOW_PRIVATE_HOSTS: 'true' }, () => '');
  const ir = await NestFactory.createApplicationContext(IngestIrModule.forRoot({ config: irConfig, logger }), { logger: false });
  try {
    const summary = await ir.get(IngestIrService).execute({ runId: 'run_e2e_ir' });
    expect(summary.sites).toEqual([expect.objectContaining({ cik: '0000844059', status: 'published' })]);
    documentsSeen = (summary.sites[0] as { documents: number }).documents;
  } finally {
    await ir.close();
  }

  // DECKS_ALLOW_PRIVATE_HOSTS: the fixture server listens on 127.0.0.1.
  const decksConfig = loadConfig(ingestDecksConfigSchema, { ...kafkaEnv, DECKS_USER_AGENT: UA, DECKS_FETCH_ATTEMPTS: '1', DECKS_ALLOW_PRIVATE_HOSTS: 'true' });
  decksSummary = await drainIrDocuments({ config: decksConfig, logger, checkMs: 250 });

  await ensureTopics({ brokers, clientId: 'e2e-admin' }, PROJECTED_TOPICS.map((t) => namespacedTopic(t, namespace)));
  projector = await startProjector(
    projectorConfigSchema.parse({ DATABASE_URL: db.url, KAFKA_BROKERS: brokers.join(','), KAFKA_TOPIC_NAMESPACE: namespace, PROJECTOR_GROUP_ID: 'projector', LOG_LEVEL: 'warn' }),
  );
  await expectEventually(
    async () => {
      const { rows } = await pg.query<{ documents: string; with_text: string; pages: string }>(
        `SELECT (SELECT count(*) FROM documents) AS documents, (SELECT count(*) FROM documents WHERE page_count IS NOT NULL) AS with_text, (SELECT count(*) FROM document_pages) AS pages`,
      );
      expect(Number(rows[0]!.documents)).toBe(documentsSeen);
      expect(Number(rows[0]!.with_text)).toBe(3);
      expect(Number(rows[0]!.pages)).toBe(36 + 36 + 48);
      const roster = await pg.query<{ n: string }>(`SELECT count(*) AS n FROM roster_entries`);
      expect(Number(roster.rows[0]!.n)).toBeGreaterThan(0);
    },
    { timeoutMs: 180_000, intervalMs: 500 },
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

describe('IR pages + PDFs -> Kafka -> projector -> /v1/documents and the executives endpoint', () => {
  it('extracted the three PDFs the site serves and dead-lettered the linked PDFs it does not', async () => {
    expect(decksSummary.published).toBeGreaterThanOrEqual(3);
    expect(decksSummary.dead_lettered).toBeGreaterThan(0);
    const dlq = await readTopic({ brokers, clientId: 'e2e-dlq', logLevel: 'nothing' }, namespacedTopic(TOPICS.issuerDocuments, namespace).dlq, { count: decksSummary.dead_lettered, timeoutMs: 30_000 });
    expect(dlq).toHaveLength(decksSummary.dead_lettered);
    expect(dlq.every((m) => /404/.test(String(m.headers?.['dlq-reason'] ?? '')))).toBe(true);
    expect(fixtures.requests.every((r) => r.userAgent === UA)).toBe(true);
  });

  it('serves the IR contact and the executive team of FRPH with quotes that stand on the cited page', async () => {
    const ir = await get<RosterBody>('/v1/companies/FRPH:US/executives?category=ir');
    expect(ir.status).toBe(200);
    expect(ir.body.company.symbol).toBe('FRPH:US');
    expect(ir.body.data).toEqual([
      expect.objectContaining({ name: 'John Milton', category: 'ir', affiliation: 'FRP Holdings, Inc.', phone: '(877) 704-1776', is_current: true, rank: 1 }),
    ]);

    const executives = await get<RosterBody>('/v1/companies/FRPH:US/executives?category=executives');
    expect(executives.body.data.map((e) => [e.rank, e.name, e.role])).toEqual([
      [1, 'Thompson S. Baker', 'Chief Executive Officer'],
      [2, 'John D. Baker II', 'Executive Chairman'],
      [3, 'David H. deVilliers Jr.', 'President'],
      [4, 'John D. Milton Jr.', 'Executive Vice President, Treasurer, Chief Financial Officer and Secretary'],
      [5, 'John D. Klopfenstein', 'Controller and Chief Accounting Officer'],
    ]);
    expect((await get<RosterBody>('/v1/companies/FRPH:US/executives?category=analysts')).body.data).toEqual([]);

    for (const entry of [...ir.body.data, ...executives.body.data]) {
      const file = IR_PAGES[new URL(entry.provenance.source_url).pathname]!;
      const bytes = fixtureBytes(file);
      expect(entry.provenance.source_provider).toBe('issuer_page');
      expect(entry.provenance.content_hash).toBe(sha256(bytes));
      expect(pageText(bytes.toString('utf8'))).toContain(entry.provenance.quote);
    }
  });

  it('fills the company description from the issuer page and cites it', async () => {
    const company = await get<{ description: string; description_provenance: { source_provider: string; quote: string; source_url: string } }>('/v1/companies/FRPH:US');
    expect(company.status).toBe(200);
    expect(company.body.description).toMatch(/^FRP Holdings, Inc\., is a publicly traded company that is listed on the Nasdaq Stock Market/);
    expect(company.body.description_provenance.source_provider).toBe('issuer_page');
    expect(new URL(company.body.description_provenance.source_url).pathname).toBe('/executive-team.html');
  });

  it('lists every document found, dated ones first, newest first, filters by doc_types, and classifies the PDFs', async () => {
    const list = await get<DocumentListBody>('/v1/documents?symbols=FRPH:US&limit=100');
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(documentsSeen);
    // Dated documents first, then those dated only by their first sighting; each newest first.
    const sortKeys = list.body.data.map((d) => `${d.published_at_source === 'first_seen' ? 0 : 1} ${d.published_at}`);
    expect([...sortKeys].sort().reverse()).toEqual(sortKeys);

    const decks = await get<DocumentListBody>('/v1/documents?symbols=FRPH:US&doc_types=slide_deck&limit=100');
    const withText = decks.body.data.filter((d) => d.pages !== null);
    expect(withText.map((d) => new URL(d.url).pathname).sort()).toEqual([DECKS.meeting.path, DECKS.january2015.path].sort());
    const report = await documentByPath(DECKS.annualReport.path);
    expect(report).toMatchObject({ doc_type: 'report', report_type: 'annual_report', doc_group: 'earnings', language: 'en', pages: 48, ticker: 'FRPH' });

    const paged = await get<DocumentListBody>('/v1/documents?symbols=FRPH:US&limit=5');
    expect(paged.body.data).toHaveLength(5);
    expect(paged.body.pagination.has_more).toBe(true);
    const next = await get<DocumentListBody>(`/v1/documents?symbols=FRPH:US&limit=5&cursor=${encodeURIComponent(paged.body.pagination.next_cursor!)}`);
    expect(next.body.data[0]!.id).not.toBe(paged.body.data[4]!.id);
  });

  it.each(Object.entries(DECKS))('serves %s with its page count, the PDF hash and pages that slice the document text exactly', async (_name, deck) => {
    const listed = await documentByPath(deck.path);
    const detail = await get<DocumentDetailBody>(`/v1/documents/${listed.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.page_count).toBe(deck.pages);
    expect(detail.body.provenance.content_hash).toBe(sha256(fixtureBytes(deck.file)));
    expect(new URL(detail.body.provenance.citation_url).pathname).toBe(deck.path);

    const text = await get<DocumentTextBody>(`/v1/documents/${listed.id}/text`);
    expect(text.status).toBe(200);
    expect(text.body.page_separator).toBe(DOCUMENT_PAGE_SEPARATOR);
    const pages: DocumentPagesBody['data'] = [];
    let cursor: string | null = null;
    do {
      const r: { status: number; body: DocumentPagesBody } = await get<DocumentPagesBody>(`/v1/documents/${listed.id}/pages?limit=10${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(r.status).toBe(200);
      expect(r.body.document_id).toBe(listed.id);
      pages.push(...r.body.data);
      cursor = r.body.pagination.next_cursor;
    } while (cursor);
    expect(pages.map((p) => p.page_index)).toEqual([...Array(deck.pages).keys()]);
    for (const page of pages) {
      expect(text.body.text.slice(page.char_start, page.char_end)).toBe(page.text);
      // A page without a text layer (a photo page of the annual report) has no caption to derive.
      expect(page.vision_caption.length > 0).toBe(page.text.trim().length > 0);
      if (page.quote !== null) expect(page.text.startsWith(page.quote)).toBe(true);
    }
    expect(text.body.text.length).toBe(pages.at(-1)!.char_end);
  });

  it('serves one page by index with the exact text of the slide', async () => {
    const meeting = await documentByPath(DECKS.meeting.path);
    const page = await get<DocumentPagesBody>(`/v1/documents/${meeting.id}/pages?page=0`);
    expect(page.status).toBe(200);
    expect(page.body.data).toEqual([
      expect.objectContaining({ page_index: 0, char_start: 0, char_end: 86, text: 'Annual Shareholder Meeting\nFRP Holdings, Inc.\nA Real Estate Company\nFebruary 5, 2015\n1' }),
    ]);
    const beyond = await get<{ status: number; detail: string }>(`/v1/documents/${meeting.id}/pages?page=36`);
    expect(beyond.status).toBe(404);
  });

  it('answers 404 problems for unknown documents and 422 for bad identifiers', async () => {
    const unknown = await get<{ status: number; type: string }>('/v1/documents/999999');
    expect(unknown.status).toBe(404);
    expect((await get('/v1/documents/abc')).status).toBe(422);
    expect((await get('/v1/documents?doc_types=napkin')).status).toBe(422);
  });
});
