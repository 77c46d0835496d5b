// @infra-path: the only spec of its repository's SQL (libs/persistence): docker-compose.yml's postgres:17 in containers, the machine's (15 on CI) locally.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type {
  CompanyData,
  CompanyDescriptionData,
  DocumentTextData,
  FilingData,
  Form4Data,
  FundHoldingsData,
  IrSiteData,
  IssuerDocumentData,
  IssuerRosterData,
  RecordEnvelope,
  SegmentData,
} from '@app/contracts';
import { createLogger } from '@app/observability';
import {
  projectRecords,
  secRosterCurrentSince,
} from '@app/persistence';
import { createTestDatabase, type TestDatabase } from '@app/testing';
import { type CoverageBody, coverageSchema, GAP_CODES } from '@app/resources';
import type { ApiContext } from '../api.context';
import { buildApiServer } from '../api.server';
import { apiConfigSchema } from '../config/api.config';

// Real records (made by the ingestors' mappers from the fixture files: libs/contracts/src/examples and
// libs/persistence/src/projections/examples) projected into a fresh database by the projector's own
// projections, then read through the real api on Fastify.
const DOCS = 'https://docs.test.example';
const CONTRACT_EXAMPLES = resolve(__dirname, '../../../../libs/contracts/src/examples');
const PROJECTION_EXAMPLES = resolve(__dirname, '../../../../libs/persistence/src/projections/examples');
const json = <T>(path: string) => JSON.parse(readFileSync(path, 'utf8')) as T;
const example = <T>(file: string) => json<RecordEnvelope<T>>(join(CONTRACT_EXAMPLES, file));

const msftCompany = example<CompanyData>('company@1.msft.json');
const msft10K = example<FilingData>('filing@1.msft-10-k.json');
const adx = example<FundHoldingsData>('fund-holdings@1.adx.json');
const aaplAmericas = example<SegmentData>('segment@1.aapl-americas-q2-fy2025.json');
const aaplIphoneYtd = example<SegmentData>('segment@1.aapl-iphone-ytd-fy2025.json');
const form4 = json<Record<'tsla' | 'msft' | 'dkng' | 'dkngAmendment' | 'dkngHoldingsAmendment', RecordEnvelope<Form4Data>>>(join(PROJECTION_EXAMPLES, 'form4.records.json'));
const issuerPages = json<{
  rosterExecutives: RecordEnvelope<IssuerRosterData>;
  rosterIr: RecordEnvelope<IssuerRosterData>;
  description: RecordEnvelope<CompanyDescriptionData>;
  documentSeptember2017: RecordEnvelope<IssuerDocumentData>;
  documentAnnualMeeting2015: RecordEnvelope<IssuerDocumentData>;
  documentQ4Release2016: RecordEnvelope<IssuerDocumentData>;
  documentTextAnnualMeeting2015: RecordEnvelope<DocumentTextData>[];
}>(join(PROJECTION_EXAMPLES, 'issuer-pages.records.json'));

let db: TestDatabase;
let api: { server: FastifyInstance; context: ApiContext };
let key: string;

const get = (url: string, k: string | null = key) => api.server.inject({ method: 'GET', url, headers: k ? { authorization: `Bearer ${k}` } : {} });

async function coverage(symbol: string): Promise<CoverageBody> {
  const r = await get(`/v1/coverage/${symbol}`);
  expect([symbol, r.statusCode]).toEqual([symbol, 200]);
  const body = r.json<CoverageBody>();
  // Every field is documented: the schema keeps the body whole (it strips what it does not declare).
  expect(coverageSchema.parse(body)).toEqual(body);
  for (const g of [...body.gaps, ...Object.values(body.datasets).flatMap((d) => d.gaps)]) expect(GAP_CODES).toContain(g.code);
  return body;
}

const codes = (gaps: Array<{ code: string }>) => gaps.map((g) => g.code);

interface Page { data: unknown[]; pagination: { next_cursor: string | null; has_more: boolean } }

/** Every item of a list endpoint, page by page (limit 7: several pages where there is enough data). */
async function walk(base: string): Promise<unknown[]> {
  const items: unknown[] = [];
  let cursor: string | null = null;
  do {
    const sep = base.includes('?') ? '&' : '?';
    const r = await get(`${base}${sep}limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect([base, r.statusCode]).toEqual([base, 200]);
    const page = r.json<Page>();
    items.push(...page.data);
    cursor = page.pagination.next_cursor;
  } while (cursor !== null);
  return items;
}

/** The counts each dataset's own endpoint reports for a symbol. */
async function listCounts(symbol: string) {
  const roster = async (category: string, currentOnly: boolean) =>
    (await get(`/v1/companies/${symbol}/executives?category=${category}&current_only=${currentOnly}&limit=500`)).json<{ data: unknown[] }>().data.length;
  const exposure = (await get(`/v1/companies/${symbol}/fund-exposure?limit=500`)).json<{ fund_count: number; data: unknown[] }>();
  const etfs = (await get(`/v1/companies/${symbol}/fund-exposure?limit=500&etfs_only=true`)).json<{ fund_count: number }>();
  return {
    filings: (await walk(`/v1/companies/${symbol}/filings`)).length,
    form4: (await walk(`/v1/companies/${symbol}/insiders`)).length,
    form4WithSuperseded: (await walk(`/v1/companies/${symbol}/insiders?include_superseded=true`)).length,
    segments: (await walk(`/v1/companies/${symbol}/segments`)).length,
    funds: exposure.fund_count,
    etfs: etfs.fund_count,
    holdings: exposure.data.length,
    documents: (await walk(`/v1/documents?symbols=${symbol}`)).length,
    transcripts: (await walk(`/v1/transcripts?symbols=${symbol}`)).length,
    executives: await roster('executives', true),
    executivesTotal: await roster('executives', false),
    ir: await roster('ir', true),
    irTotal: await roster('ir', false),
    analysts: await roster('analysts', true),
  };
}

function countsOf(b: CoverageBody) {
  const d = b.datasets;
  return {
    filings: d.filings.count,
    form4: d.form4.count,
    form4WithSuperseded: d.form4.count + d.form4.superseded,
    segments: d.segments.count,
    funds: d.fund_exposure.count,
    etfs: d.fund_exposure.etfs,
    holdings: d.fund_exposure.holdings,
    documents: d.documents.count,
    transcripts: d.transcripts.count,
    executives: d.rosters.executives.count,
    executivesTotal: d.rosters.executives.total,
    ir: d.rosters.ir.count,
    irTotal: d.rosters.ir.total,
    analysts: d.rosters.analysts.count,
  };
}

beforeAll(async () => {
  db = await createTestDatabase('api_coverage');
  api = await buildApiServer(
    apiConfigSchema.parse({
      DATABASE_URL: db.url,
      API_KEY_PEPPER: 'pepper-'.repeat(6),
      CURSOR_SECRET: 'cursor-'.repeat(6),
      DOCS_URL: DOCS,
      LOG_LEVEL: 'silent',
      PLAN_ENTERPRISE_BURST_PER_SECOND: '1000000',
      PLAN_ENTERPRISE_DAILY_QUOTA: '100000000',
    }),
    { logger: createLogger({ level: 'silent' }) },
  );
  const ds = api.context.dataSource;
  await projectRecords(ds, [msftCompany]);
  // Reference rows of the other listings (as the other api int-specs insert them), with the ticker map's names and CIKs.
  await ds.query(
    `INSERT INTO companies (symbol, ticker, market, cik, name, issuer_id, provenance, record_id, data_hash, observed_at)
     VALUES ('TSLA:US', 'TSLA', 'US', '0001318605', 'Tesla, Inc.', 1318605, $1::jsonb, 'rec_tsla', 'h', now()),
            ('AAPL:US', 'AAPL', 'US', '0000320193', 'Apple Inc.', 320193, $1::jsonb, 'rec_aapl', 'h', now()),
            ('DKNG:US', 'DKNG', 'US', '0001883685', 'DraftKings Inc.', 1883685, $1::jsonb, 'rec_dkng', 'h', now()),
            ('FRPH:US', 'FRPH', 'US', '0000844059', 'FRP HOLDINGS, INC.', 844059, $1::jsonb, 'rec_frph', 'h', now()),
            ('MUR:US', 'MUR', 'US', '0000717423', 'MURPHY OIL CORP', 717423, $1::jsonb, 'rec_mur', 'h', now())`,
    [JSON.stringify(msftCompany.provenance)],
  );
  expect(await projectRecords(ds, [msft10K])).toMatchObject({ inserted: [expect.any(String)] });
  for (const name of ['tsla', 'msft', 'dkng', 'dkngAmendment', 'dkngHoldingsAmendment'] as const) await projectRecords(ds, [form4[name]]);
  expect(await projectRecords(ds, [adx])).toMatchObject({ inserted: [expect.any(String)] });
  for (const s of [aaplAmericas, aaplIphoneYtd]) await projectRecords(ds, [s]);
  await projectRecords(ds, [issuerPages.rosterExecutives]);
  await projectRecords(ds, [issuerPages.rosterIr]);
  await projectRecords(ds, [issuerPages.description]);
  for (const part of issuerPages.documentTextAnnualMeeting2015) await projectRecords(ds, [part]);
  for (const d of [issuerPages.documentAnnualMeeting2015, issuerPages.documentSeptember2017, issuerPages.documentQ4Release2016]) await projectRecords(ds, [d]);
  await ds.query(`INSERT INTO accounts (id, name, plan) VALUES ('acct_e', 'e', 'enterprise')`);
  key = (await api.context.keys.createKey({ accountId: 'acct_e', mode: 'live', label: 't' })).key;
}, 120_000);

afterAll(async () => {
  await api?.server.close();
  await api?.context.close();
  await db?.drop();
});

describe('GET /v1/coverage/{symbol}', () => {
  it('MSFT: its 10-K, its Form 4, its ADX holding, as the records state them', async () => {
    const b = await coverage('msft:us');
    expect(b).toMatchObject({ symbol: 'MSFT:US', cik: '0000789019', name: 'MICROSOFT CORP', gaps: [] });
    expect(Date.parse(b.generated_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(b.datasets.filings).toEqual({
      count: 1,
      amendments: 0,
      first_date: '2025-07-30',
      latest_date: '2025-07-30',
      latest_report_period: '2025-06-30',
      forms: [{ form: '10-K', count: 1 }],
      last_ingested_at: msft10K.observed_at,
      gaps: [],
    });
    // Form 4 of Reid Hoffman (director), period 2024-09-12, filed 2024-09-13: one holding, one RSU grant.
    expect(b.datasets.form4).toEqual({
      count: 2,
      superseded: 0,
      filings: 1,
      first_date: '2024-09-12',
      latest_date: '2024-09-12',
      latest_filed_date: '2024-09-13',
      last_ingested_at: form4.msft.observed_at,
      gaps: [],
    });
    // ADX (a closed-end fund, not an ETF) holds 517,700 shares in its report for 2023-06-30.
    expect(b.datasets.fund_exposure).toEqual({
      count: 1,
      etfs: 0,
      holdings: 1,
      first_date: '2023-06-30',
      latest_date: '2023-06-30',
      last_ingested_at: adx.provenance.extracted_at,
      gaps: [],
    });
    expect(b.datasets.segments.count).toBe(0);
    expect(codes(b.datasets.segments.gaps)).toEqual(['no_segments_reported']);
    expect(b.datasets.documents).toMatchObject({ count: 0, last_ingested_at: null, first_date: null });
    expect(codes(b.datasets.documents.gaps)).toEqual(['ir_site_not_configured']);
    expect(b.datasets.documents.gaps[0]!.detail).toBe("No IR roster or documents held: the issuer's IR site has not been found or crawled yet (see ir_site).");
    // The director is an SEC roster entry, current while his Form 4 is less than 18 months old.
    const hoffmanCurrent = '2024-09-13' >= secRosterCurrentSince(new Date());
    expect(b.datasets.rosters).toMatchObject({
      count: hoffmanCurrent ? 1 : 0,
      executives: { count: hoffmanCurrent ? 1 : 0, total: 1, by_source: { issuer_page: 0, sec: hoffmanCurrent ? 1 : 0 } },
      ir: { count: 0, total: 0 },
      analysts: { count: 0, total: 0 },
      last_ingested_at: form4.msft.observed_at,
    });
    expect(codes(b.datasets.rosters.gaps)).toEqual(hoffmanCurrent ? ['ir_site_not_configured'] : ['ir_site_not_configured', 'no_current_executives']);
  });

  it('TSLA: a Form 4 ingested without its listing (no filing date), no filings held, an old SEC roster entry', async () => {
    const b = await coverage('TSLA:US');
    expect(b.datasets.form4).toEqual({
      count: 31,
      superseded: 0,
      filings: 1,
      first_date: '2021-11-08',
      latest_date: '2021-11-08',
      latest_filed_date: null,
      last_ingested_at: '2025-08-02T12:00:00.500Z',
      gaps: [
        {
          code: 'form4_filed_date_unknown',
          detail: '1 of 1 filing held was ingested without its EDGAR listing, so its filing date is unknown; latest_filed_date covers only the filings whose date is known.',
        },
      ],
    });
    expect(b.datasets.filings).toMatchObject({ count: 0, forms: [], first_date: null, last_ingested_at: null });
    expect(codes(b.datasets.filings.gaps)).toEqual(['no_filings']);
    expect(b.datasets.fund_exposure).toMatchObject({ count: 1, holdings: 1, latest_date: '2023-06-30' });
    // Elon Musk's Form 4 is of 2021: held, no longer current.
    expect(b.datasets.rosters.executives).toEqual({ count: 0, total: 1, by_source: { issuer_page: 0, sec: 0 } });
    const noExec = b.datasets.rosters.gaps.find((g) => g.code === 'no_current_executives')!;
    expect(noExec.detail).toMatch(/1 person held is no longer current\.$/);
    expect(b.gaps).toEqual([]);
  });

  it('DKNG: rows a later 4/A restates are counted apart, as the insider list leaves them out', async () => {
    const b = await coverage('DKNG:US');
    expect(b.datasets.form4).toMatchObject({
      count: 4,
      superseded: 3,
      filings: 3,
      first_date: '2025-03-14',
      latest_date: '2025-03-17',
      latest_filed_date: '2025-03-24',
      last_ingested_at: form4.dkngHoldingsAmendment.observed_at,
      gaps: [],
    });
  });

  it('AAPL: two segment facts of one 10-Q, the quarter before the year to date; no annual figures yet', async () => {
    const b = await coverage('AAPL:US');
    expect(b.datasets.segments).toEqual({
      count: 2,
      derived_q4: 0,
      filings: 1,
      first_date: '2025-03-29',
      latest_date: '2025-03-29',
      latest_period: { end_date: '2025-03-29', kind: 'quarter', calendar: '2025-Q1', fiscal: 'FY2025-Q2' },
      last_ingested_at: aaplAmericas.observed_at,
      gaps: [
        {
          code: 'no_annual_segments',
          detail: 'Only quarterly reports (10-Q) are held: annual figures and derived fourth quarters (tier derived_q4) are unavailable.',
        },
      ],
    });
  });

  it("FRPH: its IR site's documents and rosters; no N-PORT holder, no filings, no Form 4, no segments", async () => {
    const b = await coverage('FRPH:US');
    // Three linked documents; the 2015 Annual Meeting deck (dated by its PDF, 2015-02-19) has its 36 pages of text.
    expect(b.datasets.documents).toEqual({
      count: 3,
      with_text: 1,
      pages: 36,
      doc_types: [
        { doc_type: 'slide_deck', count: 2 },
        { doc_type: 'press_release', count: 1 },
      ],
      first_date: '2015-02-19',
      latest_date: '2017-09-28',
      last_ingested_at: '2026-01-15T10:05:00.000Z',
      gaps: [
        {
          code: 'document_text_pending',
          detail: '2 of the 3 documents are known by their links only: the text has not been extracted yet (pages null, no pages to read).',
        },
      ],
    });
    expect(b.datasets.rosters).toEqual({
      count: 7,
      executives: { count: 5, total: 5, by_source: { issuer_page: 5, sec: 0 } },
      ir: { count: 2, total: 2, by_source: { issuer_page: 2, sec: 0 } },
      analysts: { count: 0, total: 0, by_source: { issuer_page: 0, sec: 0 } },
      last_ingested_at: issuerPages.rosterExecutives.observed_at,
      gaps: [{ code: 'no_analysts', detail: "The issuer's IR pages, as crawled, list no analyst covering the company." }],
    });
    expect(b.datasets.fund_exposure).toEqual({
      count: 0,
      etfs: 0,
      holdings: 0,
      first_date: null,
      latest_date: null,
      last_ingested_at: null,
      gaps: [{ code: 'no_nport_holders', detail: "No N-PORT filer held by this service reports a current holding of this issuer's common equity." }],
    });
    expect(codes(b.datasets.filings.gaps)).toEqual(['no_filings']);
    expect(codes(b.datasets.form4.gaps)).toEqual(['no_form4_filings']);
    expect(codes(b.datasets.segments.gaps)).toEqual(['no_segments_reported']);
    expect(b.gaps).toEqual([]);
  });

  it('MUR: listed, nothing held: not_covered, and every dataset says why it is empty', async () => {
    const b = await coverage('MUR:US');
    expect(b.gaps).toEqual([{ code: 'not_covered', detail: 'This listing is in the reference data, but no dataset holds anything for its issuer yet.' }]);
    expect(Object.fromEntries(Object.entries(b.datasets).map(([name, d]) => [name, [d.count, d.last_ingested_at, codes(d.gaps)]]))).toEqual({
      filings: [0, null, ['no_filings']],
      form4: [0, null, ['no_form4_filings']],
      segments: [0, null, ['no_segments_reported']],
      fund_exposure: [0, null, ['no_nport_holders']],
      documents: [0, null, ['ir_site_not_configured']],
      transcripts: [0, null, ['no_transcripts']],
      rosters: [0, null, ['ir_site_not_configured', 'no_current_executives']],
    });
    expect(b.ir_site).toBeNull();
  });

  it('MSFT once the IR crawler has found no website (its ir-site@1): ir_site and the gap say so', async () => {
    const irSite = example<IrSiteData>('ir-site@1.msft-no-website.json');
    expect(await projectRecords(api.context.dataSource, [irSite])).toMatchObject({ inserted: ['0000789019'] });
    expect(await projectRecords(api.context.dataSource, [irSite])).toMatchObject({ inserted: [], updated: [] });
    const b = await coverage('MSFT:US');
    expect(b.ir_site).toEqual({ status: 'no_website', source: null, landing_url: null, detail: irSite.data.detail, checked_at: irSite.data.checked_at });
    expect(b.datasets.documents.gaps).toEqual([
      { code: 'ir_site_not_configured', detail: `No IR roster or documents held: the IR site crawler's outcome is no_website: ${irSite.data.detail} (see ir_site).` },
    ]);
  });

  it.each(['MSFT:US', 'TSLA:US', 'AAPL:US', 'DKNG:US', 'FRPH:US', 'MUR:US'])('%s: every count is what the dataset\'s own endpoint serves', async (symbol) => {
    expect(countsOf(await coverage(symbol))).toEqual(await listCounts(symbol));
  });

  it('an unknown symbol is the 404 of GET /v1/companies/{symbol}; a malformed one 422; no key 401', async () => {
    const r = await get('/v1/coverage/NOPE:US');
    const company = await get('/v1/companies/NOPE:US');
    expect(r.statusCode).toBe(404);
    expect(r.headers['content-type']).toMatch(/^application\/problem\+json/);
    const { request_id: _a, instance, ...problem } = r.json<Record<string, unknown>>();
    const { request_id: _b, instance: _c, ...companyProblem } = company.json<Record<string, unknown>>();
    expect(problem).toEqual(companyProblem);
    expect(problem).toMatchObject({ type: `${DOCS}/errors/unknown-symbol`, status: 404 });
    expect(instance).toBe('/v1/coverage/NOPE:US');
    const bad = await get('/v1/coverage/MSFT');
    expect(bad.statusCode).toBe(422);
    expect(bad.json<{ detail: Array<{ type: string; loc: unknown[] }> }>().detail.map((d) => [d.type, d.loc])).toEqual([['string_pattern_mismatch', ['path', 'symbol']]]);
    expect((await get('/v1/coverage/MSFT:US', null)).statusCode).toBe(401);
  });
});
