// Citation verification end to end on real data: the fixture server (real SEC and issuer files at
// their real paths) -> every ingestor's own use case (companies, filings from submissions, the
// daily index and the current-events listing, inline-XBRL segments, N-PORT, Form 4, IR pages,
// decks) -> the projector's own service -> Postgres -> every provenance the API serves, walked
// through its list endpoints -> POST /v1/citations/verify, which re-fetches each source from the
// same fixture server the way the ingestors did (the same EDGAR_* / IR_* settings).
import type { FastifyInstance } from 'fastify';
import { alterOneCharacter } from '@app/citations';
import { edgarConfig, loadConfig } from '@app/config';
import { TOPICS, validateRecord, type IssuerDocumentData, type Provenance, type RecordEnvelope, type TopicDefinition } from '@app/contracts';
import { edgarClientOf } from '@app/edgar';
import type { RecordPublisher } from '@app/messaging';
import { createLogger } from '@app/observability';
import { projectRecords } from '@app/persistence';
import { createTestDatabase, startFixtureServer, type FixtureServer, type TestDatabase } from '@app/testing';
import type { ApiContext } from '../apps/api/src/api.context';
import { buildApiServer } from '../apps/api/src/api.server';
import { apiConfigSchema } from '../apps/api/src/config/api.config';
import { ingestDecksConfigSchema } from '../apps/ingest-decks/src/ingest-decks.config';
import { DeckRejectedError, IngestDecksService } from '../apps/ingest-decks/src/ingest-decks.service';
import { isPdfLink } from '../apps/ingest-decks/src/ir-documents.consumer';
import { Form4IngestService } from '../apps/ingest-form4/src/form4-ingest.service';
import { ingestForm4ConfigSchema, parseForm4FilingRef } from '../apps/ingest-form4/src/ingest-form4.config';
import { loadIngestIrConfig } from '../apps/ingest-ir/src/ingest-ir.config';
import { IngestIrService } from '../apps/ingest-ir/src/ingest-ir.service';
import { FilingsBackfillService } from '../apps/ingest-sec/src/filings/filings-backfill.service';
import { FilingsLiveService } from '../apps/ingest-sec/src/filings/filings-live.service';
import { parseFilingsConfig } from '../apps/ingest-sec/src/filings/filings.config';
import { ingestSecConfigSchema } from '../apps/ingest-sec/src/ingest-sec.config';
import { IngestSecService } from '../apps/ingest-sec/src/ingest-sec.service';
import { nportConfigSchema } from '../apps/ingest-sec/src/nport/nport.config';
import { NportIngestService } from '../apps/ingest-sec/src/nport/nport-ingest.service';
import { SegmentsService } from '../apps/ingest-sec/src/segments/segments.service';
import { SectionsService } from '../apps/ingest-sec/src/sections/sections.service';

const INGEST_UA = 'Filings Platform e2e ops@filings.example';
/** The api's own User-Agent, so the fixture server's log tells its fetches from the ingestors'. */
const API_UA = 'Filings Platform citations-check ops@filings.example';
const logger = createLogger({ level: 'silent' });

/** Companies covered: the fixtures' issuers found in the ticker map, and two issuers of the current-events listing. */
const COVERAGE = 'MSFT,TSLA,MUR,AAPL,NVDA,FRPH,PLTR,SQ,DKNG,SNOW,SCWO,GUTS,BETR,HOFT,LAKE';
const FORM4 = [
  '1318605:0000899243-21-044060:xslF345X03/doc4.xml',
  '789019:0001062993-24-016587:xslF345X05/form4.xml',
  '1321655:0001321655-24-000181:wk-form4_1727395357.xml',
  '1512673:0001062993-23-020702:form4.xml',
  '1572616:0000950170-24-012830:ownership.xml',
  '1883685:0001104659-25-025206',
  '1835856:0001493152-25-009612',
  '1640147:0001640147-22-990001:form4.snow.xml',
  '933972:0000933972-25-990001:374WaterForm4.xml',
].map((t) => parseForm4FilingRef(t)!);

class MemoryPublisher implements RecordPublisher {
  readonly records: RecordEnvelope[] = [];
  async publish(topic: TopicDefinition, records: readonly RecordEnvelope[]): Promise<void> {
    for (const r of records) {
      const v = validateRecord(topic, r);
      if (!v.ok) throw new Error(v.error);
      this.records.push(r);
    }
  }
}

interface Served {
  /** Which endpoint served it (the first one seen). */
  where: string;
  provenance: Provenance;
}

interface Verdict {
  verified: boolean;
  content_hash_matches: boolean;
  quote_found: boolean | null;
  reason: string;
  checked_url: string;
  fetched_at: string | null;
  detail: string;
  quote_style: string | null;
  page_index: number | null;
}

let db: TestDatabase;
let fixtures: FixtureServer;
let api: { server: FastifyInstance; context: ApiContext };
let key: string;
const served = new Map<string, Served>();
/** Served provenances that name no source or no hash: nothing to verify (reported, none expected). */
const unverifiable: Served[] = [];
/** Served provenances that quote nothing, with the text of what they cite (PDF pages without text). */
const unquoted: Array<Served & { text: string }> = [];

async function get<T>(url: string): Promise<T> {
  const r = await api.server.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
  if (r.statusCode !== 200) throw new Error(`GET ${url}: ${r.statusCode} ${r.body}`);
  return r.json<T>();
}

async function verify(provenance: unknown): Promise<{ status: number; body: Verdict }> {
  const r = await api.server.inject({ method: 'POST', url: '/v1/citations/verify', headers: { authorization: `Bearer ${key}` }, payload: { provenance } });
  return { status: r.statusCode, body: r.json<Verdict>() };
}

/** Every item of a keyset-paginated list. */
async function walk<T>(base: string): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | null = null;
  do {
    const sep = base.includes('?') ? '&' : '?';
    const page: { data: T[]; pagination: { next_cursor: string | null } } = await get(`${base}${sep}limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    out.push(...page.data);
    cursor = page.pagination.next_cursor;
  } while (cursor !== null);
  return out;
}

function collect(where: string, provenance: Provenance | null | undefined, text?: string): void {
  if (!provenance) return;
  const key = JSON.stringify(provenance);
  if (served.has(key)) return;
  const item = { where, provenance };
  served.set(key, item);
  if (provenance.content_hash === null || provenance.source_url === null) unverifiable.push(item);
  if (provenance.quote === null) unquoted.push({ ...item, text: text ?? '(not a page)' });
}

/** Walks every endpoint that serves provenance objects, for every company and document. */
async function collectServedProvenance(): Promise<void> {
  const companies = await walk<{ symbol: string }>('/v1/companies');
  for (const { symbol } of companies) {
    const detail = await get<{
      provenance: Provenance;
      description_provenance: Provenance | null;
      identifier_sources: { isin: { source: string; provenance: Provenance } | null; lei: { source: string; provenance: Provenance } | null };
    }>(`/v1/companies/${symbol}`);
    collect('company', detail.provenance);
    collect('company description', detail.description_provenance);
    for (const [what, source] of Object.entries(detail.identifier_sources)) {
      if (source?.source === 'nport_holding') collect(`company ${what}`, source.provenance);
    }
    for (const s of await walk<{ provenance: Provenance }>(`/v1/companies/${symbol}/segments`)) collect('segment', s.provenance);
    for (const item of ['1', '1A', '7']) {
      // 404 section-not-extracted for a company whose 10-K was not read.
      const r = await api.server.inject({ method: 'GET', url: `/v1/companies/${symbol}/sections/${item}`, headers: { authorization: `Bearer ${key}` } });
      if (r.statusCode === 200) collect('10-K section', r.json<{ provenance: Provenance }>().provenance);
      else expect(r.json<{ type: string }>().type).toMatch(/section-not-extracted$/);
    }
    for (const f of await walk<{ provenance: Provenance }>(`/v1/companies/${symbol}/fund-exposure`)) collect('fund exposure', f.provenance);
    for (const category of ['executives', 'ir', 'analysts']) {
      const roster = await get<{ data: Array<{ provenance: Provenance }> }>(`/v1/companies/${symbol}/executives?category=${category}&current_only=false&limit=500`);
      for (const r of roster.data) collect(`roster ${category} (${r.provenance.source_provider})`, r.provenance);
    }
    for (const t of await walk<{ provenance: Provenance }>(`/v1/companies/${symbol}/insiders`)) collect('insider transaction', t.provenance);
    for (const f of await walk<{ provenance: Provenance }>(`/v1/companies/${symbol}/filings`)) collect('filing', f.provenance);
  }
  for (const f of await walk<{ provenance: Provenance }>('/v1/filings')) collect('filing', f.provenance);
  for (const d of await walk<{ id: number; provenance: Provenance }>('/v1/documents')) {
    collect(d.provenance.source_url === d.provenance.citation_url ? 'document (PDF text)' : 'document (IR page link)', d.provenance);
    collect('document detail', (await get<{ provenance: Provenance }>(`/v1/documents/${d.id}`)).provenance);
    for (const p of await walk<{ text: string; provenance: Provenance }>(`/v1/documents/${d.id}/pages`)) collect('document page', p.provenance, p.text);
  }
}

beforeAll(async () => {
  fixtures = await startFixtureServer();
  db = await createTestDatabase('citations_e2e');
  const edgarEnv = { EDGAR_USER_AGENT: INGEST_UA, EDGAR_WWW_BASE_URL: fixtures.url, EDGAR_DATA_BASE_URL: fixtures.url, LOG_LEVEL: 'silent' };
  const edgar = edgarClientOf(loadConfig(edgarConfig, edgarEnv));
  const publisher = new MemoryPublisher();

  // Each ingestor's use case as its app runs it, publishing into memory instead of Kafka.
  await new IngestSecService(loadConfig(ingestSecConfigSchema, { ...edgarEnv, SEC_COVERAGE: COVERAGE, SEC_SUBMISSIONS: 'MSFT,TSLA,MUR' }), edgar, publisher, TOPICS.companies, logger).execute();
  await new FilingsBackfillService(edgar, publisher, TOPICS.filings, logger).execute({ companies: ['MSFT', 'TSLA', 'MUR'], from: '2022-01-01', to: '2022-12-31' });
  const live = parseFilingsConfig({ ...edgarEnv, KAFKA_BROKERS: '127.0.0.1:1', SEC_COVERAGE: 'MSFT,MUR,HOFT,LAKE', FILINGS_CURRENT_FORMS: '10-K' });
  await new FilingsLiveService(live, edgar, publisher, TOPICS.filings, logger).poll({ date: '2020-03-18' });
  // filedDate null: no xbrl-facts@1 records until the projector has their projection.
  await new SegmentsService(edgar, publisher, TOPICS.segments, TOPICS.xbrlFacts, logger).execute({
    filings: [
      { cik: '0000320193', accession: '0000320193-25-000057', form: '10-Q', filedDate: null, document: '/Archives/edgar/data/320193/000032019325000057/aapl-20250329.htm' },
      { cik: '0001318605', accession: '0001628280-25-035806', form: '10-Q', filedDate: null, document: '/Archives/edgar/data/1318605/000162828025035806/tsla-20250630.htm' },
      { cik: '0001045810', accession: '0001045810-25-000209', form: '10-Q', filedDate: null, document: '/Archives/edgar/data/1045810/000104581025000209/nvda-20250727.htm' },
    ],
  });
  await new SectionsService(edgar, publisher, TOPICS.tenkSections, logger).execute({
    filings: [{ cik: '0001318605', accession: '0001628280-25-003063', form: null, filedDate: null, reportPeriod: null, document: '/Archives/edgar/data/1318605/000162828025003063/tsla-20241231.htm' }],
  });
  await new NportIngestService(loadConfig(nportConfigSchema, edgarEnv), edgar, publisher, TOPICS.fundHoldings, logger).execute({
    filings: [{ cik: '0000002230', accession: '0000002230-23-990001' }],
  });
  await new Form4IngestService(loadConfig(ingestForm4ConfigSchema, { ...edgarEnv, FORM4_SUBMISSIONS: 'none' }), edgar, publisher, TOPICS.form4, logger).execute({ filings: FORM4 });
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
  const ir = loadIngestIrConfig({ IR_USER_AGENT: INGEST_UA, IR_SITES: JSON.stringify([site]), IR_MAX_RPS_PER_HOST: '10', IR_ALLOW_PRIVATE_HOSTS: 'true', LOG_LEVEL: 'silent' }, () => '');
  await new IngestIrService(ir, publisher, { roster: TOPICS.issuerRoster, documents: TOPICS.issuerDocuments, descriptions: TOPICS.companyDescriptions, sites: TOPICS.irSites }, logger).execute();
  const decks = new IngestDecksService(
    loadConfig(ingestDecksConfigSchema, { DECKS_USER_AGENT: INGEST_UA, DECKS_FETCH_ATTEMPTS: '1', DECKS_ALLOW_PRIVATE_HOSTS: 'true', LOG_LEVEL: 'silent' }),
    publisher,
    TOPICS.documentTexts,
    logger,
  );
  for (const r of publisher.records.filter((x) => x.schema === 'ir-document@1') as Array<RecordEnvelope<IssuerDocumentData>>) {
    const d = r.data;
    if (!isPdfLink(d)) continue;
    try {
      await decks.execute({ link: { url: d.url, cik: d.cik, ticker: d.ticker, title: d.title, kind: d.kind }, origin: 'live' });
    } catch (error) {
      // PDFs the saved pages link but the fixtures do not hold (404): the document keeps its link provenance.
      if (!(error instanceof DeckRejectedError)) throw error;
    }
  }

  const config = apiConfigSchema.parse({
    DATABASE_URL: db.url,
    API_KEY_PEPPER: 'pepper-'.repeat(6),
    CURSOR_SECRET: 'cursor-'.repeat(6),
    LOG_LEVEL: 'silent',
    PLAN_ENTERPRISE_BURST_PER_SECOND: '1000000',
    PLAN_ENTERPRISE_DAILY_QUOTA: '100000000',
    // Where the ingestors were pointed: the api re-reads the sources there.
    EDGAR_USER_AGENT: API_UA,
    EDGAR_WWW_BASE_URL: fixtures.url,
    EDGAR_DATA_BASE_URL: fixtures.url,
    IR_ALLOW_PRIVATE_HOSTS: 'true',
    IR_MAX_RPS_PER_HOST: '10',
  });
  api = await buildApiServer(config, { logger });
  for (const record of publisher.records) await projectRecords(api.context.dataSource, [record]);
  await api.context.dataSource.query(`INSERT INTO accounts (id, name, plan) VALUES ('acct_c', 'c', 'enterprise')`);
  key = (await api.context.keys.createKey({ accountId: 'acct_c', mode: 'live', label: 'citations' })).key;

  await collectServedProvenance();
}, 600_000);

afterAll(async () => {
  await api?.server.close();
  await fixtures?.close();
  await db?.drop();
});

const apiRequests = () => fixtures.requests.filter((r) => r.userAgent === API_UA);

describe('the provenance the API serves for the fixture data', () => {
  it('covers every kind of source and quote; every one names a source and a hash, and quotes something unless it cites a page without text', () => {
    const where = new Set([...served.values()].map((s) => s.where));
    expect([...where].sort()).toEqual(
      [
        'company',
        'company description',
        'company isin',
        'company lei',
        'document (IR page link)',
        'document (PDF text)',
        'document page',
        'filing',
        'fund exposure',
        'insider transaction',
        'roster executives (issuer_page)',
        'roster executives (sec)',
        'roster ir (issuer_page)',
        'segment',
        '10-K section',
      ].sort(),
    );
    // Filings from each of their three sources: submissions JSON, the daily index, the current-events listing.
    const filingSources = new Set([...served.values()].filter((s) => s.where === 'filing').map((s) => new URL(s.provenance.source_url!).pathname.split('/').slice(0, 4).join('/')));
    expect([...filingSources].sort()).toEqual(['/Archives/edgar/daily-index', '/cgi-bin/current', '/submissions/CIK0000717423.json', '/submissions/CIK0000789019.json', '/submissions/CIK0001318605.json']);
    const hosts = new Set([...served.values()].map((s) => new URL(s.provenance.source_url ?? 'http://none.invalid').origin));
    expect([...hosts]).toEqual([fixtures.url]);
    expect(unverifiable.map((u) => `${u.where}: ${JSON.stringify(u.provenance)}`)).toEqual([]);
    expect(unquoted.map((u) => [u.where, u.text])).toEqual(unquoted.map(() => ['document page', '']));
    expect(served.size).toBeGreaterThan(500);
  });
});

describe('POST /v1/citations/verify on every served provenance', () => {
  it('verifies every one: the source re-fetched hashes to content_hash and holds the quote', async () => {
    const failed: string[] = [];
    const styles = new Map<string, number>();
    for (const { where, provenance } of served.values()) {
      const { status, body } = await verify(provenance);
      if (status !== 200 || !body.verified || body.reason !== 'verified' || !body.content_hash_matches || body.quote_found !== (provenance.quote === null ? null : true)) {
        failed.push(`${where} ${provenance.source_url} ${JSON.stringify(provenance.quote).slice(0, 120)}: ${status} ${JSON.stringify(body)}`);
      }
      const style = `${where}: ${body.quote_style}`;
      if (provenance.quote !== null) styles.set(style, (styles.get(style) ?? 0) + 1);
    }
    expect(failed).toEqual([]);
    // Every kind of source is found the way its extractor quoted it.
    expect([...styles.keys()].sort()).toEqual(
      [
        'company: raw',
        'company description: page_text',
        'company isin: raw',
        'company lei: raw',
        'document (IR page link): page_text',
        'document (PDF text): pdf_text',
        'document page: pdf_text',
        'filing: raw',
        'fund exposure: raw',
        'insider transaction: raw',
        'roster executives (issuer_page): page_text',
        'roster executives (sec): raw',
        'roster ir (issuer_page): page_text',
        'segment: ixbrl_text',
        // Tesla's 10-K: its description and Item 1A heading stand in the bytes as written; the Item 7
        // heading's apostrophe is an entity there, so it is found in the XHTML's text.
        'company description: raw',
        '10-K section: raw',
        '10-K section: ixbrl_text',
      ].sort(),
    );
  });

  it('fetched each source once for all its citations (the cache), from the fixture server, with the declared User-Agent', () => {
    const byPath = new Map<string, number>();
    for (const r of apiRequests()) byPath.set(r.path, (byPath.get(r.path) ?? 0) + 1);
    const sources = new Set([...served.values()].map((s) => new URL(s.provenance.source_url!).pathname));
    expect(apiRequests().every((r) => r.status === 200 || r.path === '/robots.txt')).toBe(true);
    expect([...byPath.keys()].filter((p) => p !== '/robots.txt').sort()).toEqual([...sources].sort());
    expect([...byPath.entries()].filter(([, n]) => n > 1)).toEqual([]);
  });

  it('does not verify a quote with one character changed: quote_not_found, the source unchanged', async () => {
    const failed: string[] = [];
    for (const { where, provenance } of served.values()) {
      if (provenance.quote === null) continue;
      const altered = alterOneCharacter(provenance.quote);
      const { status, body } = await verify({ ...provenance, quote: altered });
      if (status !== 200 || body.verified || body.reason !== 'quote_not_found' || !body.content_hash_matches || body.quote_found) {
        failed.push(`${where} ${JSON.stringify(altered).slice(0, 120)}: ${status} ${JSON.stringify(body)}`);
      }
    }
    expect(failed).toEqual([]);
  });

  it('does not verify against another content_hash: content_changed at once, the quote not looked for (quote_found null)', async () => {
    expect(unquoted.length).toBeLessThan(served.size / 100);
    const failed: string[] = [];
    for (const { where, provenance } of served.values()) {
      const hash = provenance.content_hash!;
      const other = `${hash.slice(0, -1)}${hash.endsWith('0') ? '1' : '0'}`;
      const { status, body } = await verify({ ...provenance, content_hash: other });
      if (status !== 200 || body.verified || body.reason !== 'content_changed' || body.content_hash_matches || body.quote_found !== null || body.quote_style !== null) {
        failed.push(`${where}: ${status} ${JSON.stringify(body)}`);
      }
    }
    expect(failed).toEqual([]);
  });
});

describe('POST /v1/citations/verify: what it fetches', () => {
  it('reads sec.gov URLs through the configured EDGAR base, as the ingestors do', async () => {
    const segment = [...served.values()].find((s) => s.where === 'segment')!.provenance;
    const submissions = [...served.values()].find((s) => s.provenance.source_url!.includes('/submissions/'))!.provenance;
    for (const [p, host] of [
      [segment, 'https://www.sec.gov'],
      [submissions, 'https://data.sec.gov'],
    ] as const) {
      const url = `${host}${new URL(p.source_url!).pathname}`;
      const { status, body } = await verify({ ...p, source_url: url, source_provider: undefined });
      expect(status).toBe(200);
      expect(body).toMatchObject({ verified: true, checked_url: p.source_url });
    }
  });

  it('is not an open proxy: a host that is neither EDGAR nor a read issuer site is refused without a request', async () => {
    const p = [...served.values()][0]!.provenance;
    const before = fixtures.requests.length;
    const other = `http://127.0.0.1:${Number(new URL(fixtures.url).port) === 1 ? 2 : 1}/x`;
    for (const [source_url, source_provider] of [
      ['https://example.com/company_tickers.json', undefined],
      // EDGAR, but no resource the platform cites (a bulk archive; a made-up query that would defeat the cache).
      [`${fixtures.url}/Archives/edgar/daily-index/bulkdata/submissions.zip?n=${Date.now()}`, undefined],
      [`${fixtures.url}/files/company_tickers.json?n=1`, 'sec'],
      ['http://169.254.169.254/latest/meta-data/', 'issuer_page'],
      [other, 'issuer_page'],
      ['https://www.frpholdings.com/investor-relations.html', 'sec'],
      ['file:///etc/passwd', undefined],
    ] as const) {
      const { status, body } = await verify({ ...p, source_url, source_provider });
      expect(status).toBe(200);
      expect(body).toMatchObject({ verified: false, reason: 'unsupported_source', fetched_at: null });
    }
    expect(fixtures.requests.length).toBe(before);
  });

  it('says source_unavailable when the source is gone', async () => {
    const p = [...served.values()].find((s) => s.provenance.source_provider === 'sec')!.provenance;
    const { body } = await verify({ ...p, source_url: `${fixtures.url}/Archives/edgar/data/1/000000000125000001/gone.htm` });
    expect(body).toMatchObject({ verified: false, reason: 'source_unavailable', content_hash_matches: false, quote_found: false });
    expect(body.detail).toContain('404');
  });

  it('answers 422 for a malformed body, 401 without a key', async () => {
    const p = [...served.values()][0]!.provenance;
    const cases: Array<[unknown, string[]]> = [
      [undefined, ['body']],
      [{}, ['body', 'provenance']],
      [{ provenance: { ...p, quote: undefined } }, ['body', 'provenance', 'quote']],
      [{ provenance: { ...p, source_url: null } }, ['body', 'provenance', 'source_url']],
      [{ provenance: { ...p, content_hash: null } }, ['body', 'provenance', 'content_hash']],
      [{ provenance: { ...p, quote: '' } }, ['body', 'provenance', 'quote']],
      [{ provenance: { ...p, content_hash: 'md5:abc' } }, ['body', 'provenance', 'content_hash']],
      [{ provenance: { ...p, source_url: 'not a url' } }, ['body', 'provenance', 'source_url']],
      [{ provenance: { ...p, source_provider: 'rumour' } }, ['body', 'provenance', 'source_provider']],
    ];
    for (const [payload, loc] of cases) {
      const r = await api.server.inject({ method: 'POST', url: '/v1/citations/verify', headers: { authorization: `Bearer ${key}` }, ...(payload === undefined ? {} : { payload: payload as object }) });
      expect(r.statusCode).toBe(422);
      expect(r.json<{ detail: Array<{ loc: unknown[] }> }>().detail.map((d) => d.loc)).toContainEqual(loc);
    }
    const unauthenticated = await api.server.inject({ method: 'POST', url: '/v1/citations/verify', payload: { provenance: p } });
    expect(unauthenticated.statusCode).toBe(401);
  });

  it('the verdict names the hash of what it read', async () => {
    const p = [...served.values()].find((s) => s.where === 'document page')!.provenance;
    const r = await api.server.inject({ method: 'POST', url: '/v1/citations/verify', headers: { authorization: `Bearer ${key}` }, payload: { provenance: p } });
    const body = r.json<Verdict & { live_content_hash: string }>();
    expect(body.live_content_hash).toBe(p.content_hash);
    expect(body.page_index).toBe(Number(/#page=(\d+)/.exec(p.citation_url!)![1]) - 1);
  });
});
