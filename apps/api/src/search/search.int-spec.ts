import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Client, Pool } from 'pg';
import {
  companyRecordV1,
  contentHash,
  recordId,
  sourceId,
  stableStringify,
  type CompanyDescriptionData,
  type CompanyRecordV1,
  type DocumentTextData,
  type FilingData,
  type Form4Data,
  type IssuerDocumentData,
  type IssuerRosterData,
  type RecordEnvelope,
} from '@app/contracts';
import { parseTickerMapExchange } from '@app/edgar';
import { createLogger } from '@app/observability';
import {
  projectRecords,
  runSearchStatement,
  SEARCH_KINDS,
  SEARCH_SQL,
  searchParams as searchSqlParams,
  catalogColumns,
  schemaDifferences,
  TABLES,
} from '@app/persistence';
import { createTestDatabase, defaultFixturesDir, type TestDatabase } from '@app/testing';
import type { ApiContext } from '../api.context';
import { buildApiServer } from '../api.server';
import { apiConfigSchema } from '../config/api.config';

/*
 * Real data only, through the projector's own projections: every company of the real SEC ticker
 * map (as company@1 records shaped like ingest-sec's), and the example records the ingestors'
 * mappers made from the fixtures (Form 4s, FRPH rosters and documents, the FRPH 2015 Annual
 * Meeting deck's text, the MSFT 10-K filing).
 */
const DOCS = 'https://docs.test.example';
const EXAMPLES = join(__dirname, '../../../../libs/persistence/src/projections/examples');
const issuer = JSON.parse(readFileSync(join(EXAMPLES, 'issuer-pages.records.json'), 'utf8')) as {
  rosterExecutives: RecordEnvelope<IssuerRosterData>;
  rosterIr: RecordEnvelope<IssuerRosterData>;
  description: RecordEnvelope<CompanyDescriptionData>;
  documentSeptember2017: RecordEnvelope<IssuerDocumentData>;
  documentAnnualMeeting2015: RecordEnvelope<IssuerDocumentData>;
  documentQ4Release2016: RecordEnvelope<IssuerDocumentData>;
  documentTextAnnualMeeting2015: RecordEnvelope<DocumentTextData>[];
};
const form4 = JSON.parse(readFileSync(join(EXAMPLES, 'form4.records.json'), 'utf8')) as Record<string, RecordEnvelope<Form4Data> | { schema?: undefined }>;
const filing = JSON.parse(readFileSync(join(__dirname, '../../../../libs/contracts/src/examples/filing@1.msft-10-k.json'), 'utf8')) as RecordEnvelope<FilingData>;

/** A sentence of page 7 (index 6) of the FRPH 2015 Annual Meeting deck, as its text reads. */
const PHRASE = 'use their separate publicly traded stock as acquisition currency';
const PHRASE_PAGE = 6;

let db: TestDatabase;
let a: { server: FastifyInstance; context: ApiContext };
let key: string;
let freeKey: string;
let deckId: number;
let baseConfig: ReturnType<typeof apiConfigSchema.parse>;

/** Another api server on the same database, with other settings (closed by the caller). */
const otherServer = async (env: Record<string, string>) =>
  buildApiServer(apiConfigSchema.parse({ ...Object.fromEntries(Object.entries(baseConfig).map(([k, v]) => [k, String(v)])), ...env }), { logger: createLogger({ level: 'silent' }) });

interface Hit {
  kind: string;
  id: string;
  title: string;
  snippet: string;
  highlights: { start: number; end: number }[];
  score: number;
  match: string;
  symbol: string | null;
  url: string;
  date: string | null;
  document_id: number | null;
  page_index: number | null;
  accession: string | null;
  category: string | null;
  is_current: boolean | null;
  provenance: Record<string, unknown> | null;
}
interface Body {
  data: Hit[];
  pagination: { next_cursor: string | null; has_more: boolean };
}

const get = (url: string, k: string = key) => a.server.inject({ method: 'GET', url, headers: { authorization: `Bearer ${k}` } });
const search = async (query: string): Promise<Body> => {
  const r = await get(`/v1/search?${query}`);
  expect([query, r.statusCode]).toEqual([query, 200]);
  return r.json<Body>();
};
const q = (text: string, more = ''): string => `q=${encodeURIComponent(text)}${more}`;

/** company@1 records of every entry of the real ticker map, shaped like ingest-sec's (validated by the contract). */
function tickerMapRecords(): CompanyRecordV1[] {
  const url = 'https://www.sec.gov/files/company_tickers_exchange.json';
  const bytes = readFileSync(join(defaultFixturesDir(), 'tickers/company_tickers_exchange.json'));
  const hash = contentHash(bytes);
  const observedAt = '2025-08-02T12:00:00.000Z';
  return parseTickerMapExchange(bytes).map((entry) => {
    const data = {
      cik: entry.cik,
      ticker: entry.ticker,
      market: 'US',
      name: entry.name,
      listing_exchange: entry.exchange,
      reference_source: { source_url: url, content_hash: hash },
      detail: null,
    };
    const recordKey = `${entry.ticker}:US`;
    return companyRecordV1.parse({
      schema: 'company@1',
      key: recordKey,
      id: recordId(recordKey, contentHash(stableStringify(data))),
      observed_at: observedAt,
      produced_by: 'ingest-sec',
      correlation_id: 'run_search-int-spec',
      provenance: { src_id: sourceId(url, hash), source_provider: 'sec', source_url: url, accession: null, quote: entry.quote, content_hash: hash, extracted_at: observedAt },
      data,
    });
  });
}

beforeAll(async () => {
  db = await createTestDatabase('api_search');
  const config = apiConfigSchema.parse({
    DATABASE_URL: db.url,
    API_KEY_PEPPER: 'pepper-'.repeat(6),
    CURSOR_SECRET: 'cursor-'.repeat(6),
    DOCS_URL: DOCS,
    LOG_LEVEL: 'silent',
    PLAN_ENTERPRISE_BURST_PER_SECOND: '1000000',
    PLAN_ENTERPRISE_DAILY_QUOTA: '100000000',
    PLAN_FREE_BURST_PER_SECOND: '1000000',
  });
  baseConfig = config;
  a = await buildApiServer(config, { logger: createLogger({ level: 'silent' }) });
  const ds = a.context.dataSource;
  const companies = tickerMapRecords();
  let next = 0;
  await Promise.all(Array.from({ length: 4 }, async () => {
    while (next < companies.length) await projectRecords(ds, [companies[next++]!]);
  }));
  await projectRecords(ds, [filing]);
  // File order: the DKNG 4/As after the filings they amend; `notes` is not a record.
  for (const r of Object.values(form4)) if (r.schema === 'form4@1') await projectRecords(ds, [r]);
  await projectRecords(ds, [issuer.rosterExecutives]);
  await projectRecords(ds, [issuer.rosterIr]);
  await projectRecords(ds, [issuer.description]);
  for (const r of [issuer.documentSeptember2017, issuer.documentAnnualMeeting2015, issuer.documentQ4Release2016]) await projectRecords(ds, [r]);
  for (const part of issuer.documentTextAnnualMeeting2015) await projectRecords(ds, [part]);
  // What autovacuum would do: GIN pending lists merged, statistics for the planner.
  await ds.query('VACUUM ANALYZE');
  deckId = (await ds.query<{ id: number }[]>('SELECT id FROM documents WHERE url = $1', [issuer.documentAnnualMeeting2015.data.url]))[0]!.id;
  await ds.query(`INSERT INTO accounts (id, name, plan) VALUES ('acct_e', 'e', 'enterprise'), ('acct_f', 'f', 'free')`);
  key = (await a.context.keys.createKey({ accountId: 'acct_e', mode: 'live', label: 't' })).key;
  freeKey = (await a.context.keys.createKey({ accountId: 'acct_f', mode: 'live', label: 't' })).key;
}, 180_000);

afterAll(async () => {
  await a?.server.close();
  await db?.drop();
});

describe('GET /v1/search: what it finds', () => {
  it('"microsoft": MSFT first among the whole ticker map, and its url serves it', async () => {
    const body = await search(q('microsoft'));
    const first = body.data[0]!;
    expect(first).toMatchObject({
      kind: 'company',
      id: 'MSFT:US',
      title: 'MICROSOFT CORP',
      symbol: 'MSFT:US',
      match: 'name',
      url: '/v1/companies/MSFT:US',
      provenance: expect.objectContaining({ source_provider: 'sec', source_url: 'https://www.sec.gov/files/company_tickers_exchange.json' }) as unknown,
    });
    // Other Micro* companies follow, well behind.
    expect(body.data.slice(1).map((h) => h.id)).toEqual(expect.arrayContaining(['MSTR:US']));
    expect(body.data[1]!.score).toBeLessThan(first.score / 2);
    expect(body.data.every((h, i) => i === 0 || h.score <= body.data[i - 1]!.score)).toBe(true);
    const company = await get(first.url);
    expect(company.statusCode).toBe(200);
    expect(company.json()).toMatchObject({ symbol: 'MSFT:US', name: 'MICROSOFT CORP', provenance: first.provenance });
    // The 10-K and the Form 4 reporting owner who is a Microsoft director come up too, as text and people.
    expect(body.data.map((h) => [h.kind, h.id])).toEqual(expect.arrayContaining([['filing', '0000950170-25-100235']]));
  });

  it('tickers, symbols and CIKs match exactly and rank first', async () => {
    for (const [text, match] of [['MSFT', 'ticker'], ['msft', 'ticker'], ['msft:us', 'symbol'], ['789019', 'cik'], ['0000789019', 'cik']] as const) {
      const first = (await search(q(text))).data[0]!;
      expect([text, first.id, first.match]).toEqual([text, 'MSFT:US', match]);
      expect(first.score).toBeGreaterThanOrEqual(90);
    }
  });

  it('"musk": Elon Musk, the TSLA Form 4 reporting owner, and his url lists him', async () => {
    const body = await search(q('musk'));
    const first = body.data[0]!;
    expect(first).toMatchObject({
      kind: 'person',
      id: '0001318605:executives:sec:cik:0001494730',
      title: 'Musk Elon',
      symbol: 'TSLA:US',
      match: 'name',
      category: 'executives',
      accession: '0000899243-21-044060',
      provenance: expect.objectContaining({ source_provider: 'sec', accession: '0000899243-21-044060' }) as unknown,
    });
    expect(first.snippet).toBe('Musk Elon · CEO, Director · Tesla, Inc.');
    // His last Form 4 as an officer is from 2021: the executives endpoint lists him only with current_only=false.
    expect(first.is_current).toBe(false);
    expect(first.url).toBe('/v1/companies/TSLA:US/executives?category=executives&current_only=false');
    const roster = await get(first.url);
    expect(roster.statusCode).toBe(200);
    const entry = roster.json<{ data: { name: string; provenance: unknown }[] }>().data.find((e) => e.name === 'Musk Elon');
    expect(entry?.provenance).toEqual(first.provenance);
    // Name order and case do not matter.
    expect((await search(q('Elon Musk'))).data[0]!.id).toBe(first.id);
  });

  it('a phrase copied from a deck page finds that page, with the phrase highlighted in the snippet', async () => {
    const body = await search(q(PHRASE));
    const first = body.data[0]!;
    expect(first).toMatchObject({
      kind: 'document_page',
      id: `${deckId}:${PHRASE_PAGE}`,
      title: `Annual Meeting - 2015 Annual Shareholder Meeting — page ${PHRASE_PAGE + 1}`,
      symbol: 'FRPH:US',
      match: 'text',
      document_id: deckId,
      page_index: PHRASE_PAGE,
      url: `/v1/documents/${deckId}/pages?page=${PHRASE_PAGE}`,
      provenance: expect.objectContaining({ citation_url: `${issuer.documentAnnualMeeting2015.data.url}#page=${PHRASE_PAGE + 1}` }) as unknown,
    });
    expect(first.snippet).toContain(PHRASE);
    const highlighted = first.highlights.map((h) => first.snippet.slice(h.start, h.end).toLowerCase());
    // Stop words ("their", "as") are not search terms; every other word of the phrase is marked.
    expect(highlighted).toEqual(expect.arrayContaining(['separate', 'publicly', 'traded', 'stock', 'acquisition', 'currency']));
    const page = await get(first.url);
    expect(page.statusCode).toBe(200);
    const served = page.json<{ data: { page_index: number; text: string; provenance: unknown }[] }>().data[0]!;
    expect(served.text.replace(/\s+/g, ' ')).toContain(PHRASE);
    expect(served.provenance).toEqual(first.provenance);
  });

  it('filings by accession and by form; documents by title', async () => {
    const byAccession = (await search(q('0000950170-25-100235'))).data[0]!;
    expect(byAccession).toMatchObject({ kind: 'filing', id: '0000950170-25-100235', match: 'accession', symbol: 'MSFT:US', date: '2025-07-30', url: '/v1/filings/0000950170-25-100235' });
    const served = await get(byAccession.url);
    expect(served.statusCode).toBe(200);
    expect(served.json()).toMatchObject({ accession: '0000950170-25-100235', provenance: byAccession.provenance });
    const byForm = (await search(q('10-K', '&kinds=filing'))).data;
    expect(byForm.map((h) => h.id)).toEqual(['0000950170-25-100235']);
    expect(byForm[0]!.snippet.slice(byForm[0]!.highlights[0]!.start, byForm[0]!.highlights[0]!.end)).toBe('10');
    const deck = (await search(q('annual shareholder meeting', '&kinds=document'))).data[0]!;
    expect(deck).toMatchObject({ kind: 'document', id: String(deckId), document_id: deckId, url: `/v1/documents/${deckId}`, symbol: 'FRPH:US' });
    const document = await get(deck.url);
    expect(document.statusCode).toBe(200);
    expect(document.json()).toMatchObject({ published_at: deck.date, provenance: deck.provenance });
  });

  it('kinds restricts the hits; IR contacts are people too', async () => {
    const pages = await search(q('Patriot Business Park', '&kinds=document_page'));
    expect(pages.data.length).toBeGreaterThan(1);
    expect(new Set(pages.data.map((h) => h.kind))).toEqual(new Set(['document_page']));
    const ir = (await search(q('John Milton', '&kinds=person'))).data;
    expect(ir.map((h) => [h.title, h.category])).toEqual(expect.arrayContaining([['John Milton', 'ir']]));
  });
});

describe('GET /v1/search: pagination', () => {
  it('pages through every hit once, in the order of one big page', async () => {
    const all = await search(q('micro', '&limit=500'));
    expect(all.pagination).toEqual({ next_cursor: null, has_more: false });
    expect(all.data.length).toBeGreaterThan(20);
    const seen: Hit[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const body: Body = await search(q('micro', `&limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`));
      expect(body.data.length).toBeLessThanOrEqual(7);
      expect(body.pagination.has_more).toBe(body.pagination.next_cursor !== null);
      seen.push(...body.data);
      cursor = body.pagination.next_cursor;
      pages += 1;
    } while (cursor !== null);
    expect(pages).toBe(Math.ceil(all.data.length / 7));
    const ids = seen.map((h) => `${h.kind}|${h.id}`);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(all.data.map((h) => `${h.kind}|${h.id}`));
  });

  it('a cursor holds only for its own q and kinds, and untampered', async () => {
    const first = await search(q('micro', '&limit=3'));
    const cursor = first.pagination.next_cursor!;
    expect((await get(`/v1/search?${q('micro', `&limit=3&cursor=${encodeURIComponent(cursor)}`)}`)).statusCode).toBe(200);
    // Whitespace is normalized before the cursor is bound: the same query.
    expect((await get(`/v1/search?${q('  micro ', `&limit=3&cursor=${encodeURIComponent(cursor)}`)}`)).statusCode).toBe(200);
    const changed = Buffer.from(cursor, 'base64url');
    changed[changed.length - 1] = changed[changed.length - 1]! ^ 0x01;
    for (const bad of [`x${cursor}`, changed.toString('base64url'), cursor.slice(0, -2), 'not-a-cursor']) {
      const r = await get(`/v1/search?${q('micro', `&limit=3&cursor=${encodeURIComponent(bad)}`)}`);
      expect(r.statusCode).toBe(422);
      expect(r.json()).toMatchObject({ detail: [expect.objectContaining({ type: 'value_error', loc: ['query', 'cursor'] })] });
    }
    for (const other of [q('microsoft', '&limit=3'), q('micro', '&limit=3&kinds=company')]) {
      expect((await get(`/v1/search?${other}&cursor=${encodeURIComponent(cursor)}`)).statusCode).toBe(422);
    }
  });

  it("limit above the plan's cap is 422; q is required", async () => {
    const capped = await get(`/v1/search?${q('micro', '&limit=26')}`, freeKey);
    expect(capped.statusCode).toBe(422);
    expect(capped.json<{ detail: unknown[] }>().detail).toEqual([expect.objectContaining({ type: 'less_than_equal', ctx: expect.objectContaining({ le: 25 }) })]);
    const missing = await get('/v1/search');
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toMatchObject({ detail: [expect.objectContaining({ type: 'missing', loc: ['query', 'q'] })] });
    const kinds = await get(`/v1/search?${q('micro', '&kinds=company,planet')}`);
    expect(kinds.json()).toMatchObject({ detail: [expect.objectContaining({ type: 'literal_error', loc: ['query', 'kinds', 1] })] });
  });
});

describe('GET /v1/search: hostile queries', () => {
  /** Printable text from all over Unicode (no surrogates, no NUL), `n` code points. */
  function randomText(n: number): string {
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      const r = randomBytes(4).readUInt32BE(0);
      const cp = r % 7 === 0 ? 0x20 : r % 5 === 0 ? 0x21 + (r % 0x5e) : 0xa0 + (r % 0xd700);
      out.push(String.fromCodePoint(cp));
    }
    return out.join('');
  }

  const hostile: string[] = [
    '"',
    '"unterminated',
    'a & | ! ( ) :* <->',
    '-',
    'OR',
    '" OR "',
    '-microsoft',
    '!!!',
    '(((',
    ':*',
    "'; DROP TABLE companies; --",
    "1' OR '1'='1",
    'SELECT * FROM api_keys',
    '$1 $2 $$ $q$',
    '\\',
    '%_%',
    '\u0002\u0003',
    '💥🔥 مرحبا بالعالم שלום',
    '\u202Emicrosoft\u202C',
    'e\u0301lon',
    'Ｍｉｃｒｏｓｏｆｔ',
    'the',
    'a',
    randomText(1000),
  ];

  it('never answers 500: 200 with hits or none, or 422', async () => {
    for (const text of hostile) {
      const r = await get(`/v1/search?${q(text)}`);
      expect([text.slice(0, 40), r.statusCode]).toEqual([text.slice(0, 40), 200]);
      const body = r.json<Body>();
      expect(Array.isArray(body.data)).toBe(true);
      for (const hit of body.data) expect(typeof hit.url).toBe('string');
    }
    // Full-width letters are folded (NFKC): the same company.
    expect((await search(q('Ｍｉｃｒｏｓｏｆｔ'))).data[0]!.id).toBe('MSFT:US');
    // The SQL-looking text was a query, nothing else.
    expect((await a.context.dataSource.query<{ n: number }[]>('SELECT count(*)::int AS n FROM companies'))[0]!.n).toBeGreaterThan(9000);
  });

  it('answers 422 for NUL, whitespace only and over 1000 characters (10 kB of text included)', async () => {
    const cases: [string, string][] = [
      ['a\u0000b', 'value_error'],
      ['   ', 'value_error'],
      ['\t\n', 'value_error'],
      [randomText(1001), 'string_too_long'],
      [randomBytes(7500).toString('base64'), 'string_too_long'],
    ];
    for (const [text, type] of cases) {
      const r = await get(`/v1/search?${q(text)}`);
      expect([text.slice(0, 20), r.statusCode]).toEqual([text.slice(0, 20), 422]);
      expect(r.json()).toMatchObject({ detail: [expect.objectContaining({ type, loc: ['query', 'q'] })] });
    }
  });

  it('raw and malformed query strings: never 500', async () => {
    for (const raw of ['q=%', 'q=%E0%A4%A', 'q=%ED%A0%80', 'q=%FF%FE', 'q=a&q=b', 'q[]=x', 'q[a]=b', 'q=%00', 'q=+', 'q=%2B%2B', `q=${'x'.repeat(5000)}`]) {
      const r = await get(`/v1/search?${raw}`);
      expect([raw.slice(0, 30), r.statusCode < 500]).toEqual([raw.slice(0, 30), true]);
    }
  });
});

describe('GET /v1/search: bounded work', () => {
  it('ranks at most SEARCH_CANDIDATES_PER_KIND candidates per kind, the best first by the cheap order, and pages stay one ranking', async () => {
    const capped = await otherServer({ SEARCH_CANDIDATES_PER_KIND: '3' });
    try {
      const getCapped = async (query: string): Promise<Body> => {
        const r = await capped.server.inject({ method: 'GET', url: `/v1/search?${query}`, headers: { authorization: `Bearer ${key}` } });
        expect([query, r.statusCode]).toEqual([query, 200]);
        return r.json<Body>();
      };
      // Far more than 3 companies match "micro" (the uncapped server answers over 20, see pagination).
      const companies = await getCapped(q('micro', '&kinds=company&limit=500'));
      expect(companies.data).toHaveLength(3);
      expect(companies.pagination.has_more).toBe(false);
      // The cheap order is name similarity: Microsoft stays first among its 3 candidates.
      expect((await getCapped(q('microsoft', '&kinds=company'))).data[0]!.id).toBe('MSFT:US');
      // An exact identifier is a candidate ahead of every name.
      expect((await getCapped(q('MSFT', '&kinds=company'))).data[0]!.id).toBe('MSFT:US');
      // Every kind capped: at most 3 each, and paging one by one walks exactly the one big page.
      // "microsoft" matches companies, a person and a filing.
      const all = await getCapped(q('microsoft', '&limit=500'));
      for (const kind of SEARCH_KINDS) expect(all.data.filter((h) => h.kind === kind).length).toBeLessThanOrEqual(3);
      expect(new Set(all.data.map((h) => h.kind)).size).toBeGreaterThan(1);
      expect(all.data.length).toBeGreaterThan(3);
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const body: Body = await getCapped(q('microsoft', `&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`));
        seen.push(...body.data.map((h) => `${h.kind}|${h.id}`));
        cursor = body.pagination.next_cursor;
      } while (cursor !== null);
      expect(seen).toEqual(all.data.map((h) => `${h.kind}|${h.id}`));
    } finally {
      await capped.server.close();
    }
  });

  it('a search past SEARCH_STATEMENT_TIMEOUT_MS answers 503 search-timeout with Retry-After, never 500; the connection stays usable', async () => {
    // One connection, so the request after the timeout runs on the very connection that was cancelled.
    const slow = await otherServer({ SEARCH_STATEMENT_TIMEOUT_MS: '100', DATABASE_POOL_SIZE: '1' });
    // Deterministic and pg_sleep-free: the statement waits on a lock another session holds, and
    // statement_timeout counts that wait.
    const locker = new Client({ connectionString: db.url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE filings IN ACCESS EXCLUSIVE MODE');
      const started = Date.now();
      const r = await slow.server.inject({ method: 'GET', url: `/v1/search?${q('micro')}`, headers: { authorization: `Bearer ${key}` } });
      expect(Date.now() - started).toBeLessThan(5000);
      expect(r.statusCode).toBe(503);
      expect(r.headers['content-type']).toContain('application/problem+json');
      expect(r.headers['retry-after']).toBe('2');
      expect(r.json()).toMatchObject({ type: `${DOCS}/errors/search-timeout`, status: 503, title: 'Search timed out' });
      await locker.query('ROLLBACK');
      const after = await slow.server.inject({ method: 'GET', url: `/v1/search?${q('msft')}`, headers: { authorization: `Bearer ${key}` } });
      expect(after.statusCode).toBe(200);
      expect(after.json<Body>().data[0]!.id).toBe('MSFT:US');
    } finally {
      await locker.end();
      await slow.server.close();
    }
  });

  it('rolls back when a statement after BEGIN fails (the SET of the start included): the pooled connection is not left in an aborted transaction', async () => {
    const pool = new Pool({ connectionString: db.url, max: 1 });
    try {
      const values = searchSqlParams({ q: 'msft', kinds: SEARCH_KINDS, limit: 5 });
      // 2^31 ms is past statement_timeout's range: BEGIN succeeds, the SET LOCAL fails.
      await expect(runSearchStatement(pool, values, { statementTimeoutMs: 2 ** 31 })).rejects.toThrow(/statement_timeout/);
      // The same (only) connection: outside any transaction, so statements run.
      expect((await pool.query<{ tx: string }>('SELECT 1 AS one, txid_current_if_assigned() IS NULL AS tx')).rows[0]).toEqual({ one: 1, tx: true });
      const rows = await runSearchStatement<{ id: string }>(pool, values, { statementTimeoutMs: 5000 });
      expect(rows[0]!.id).toBe('MSFT:US');
    } finally {
      await pool.end();
    }
  });
});

describe('search SQL', () => {
  /** A bound value as an SQL literal (test only: EXECUTE of a PREPAREd statement takes literals). */
  const literal = (v: unknown): string => {
    if (v === null) return 'NULL';
    if (Array.isArray(v)) return `ARRAY[${v.map(literal).join(', ')}]::text[]`;
    if (typeof v === 'string') return `'${v.replace(/'/g, "''")}'`;
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    throw new Error(`no literal for ${typeof v}`);
  };

  it('each kind is selected through its index, in custom and in generic (prepared) plans', async () => {
    const values = searchSqlParams({ q: 'musk', kinds: SEARCH_KINDS, limit: 51 });
    // Tiny test tables tempt the planner into sequential or whole-index scans; forbid both: only
    // bitmap scans on index conditions remain, so a branch whose expression does not match its
    // index would show a Seq Scan (the planner's last resort).
    const plans = await a.context.dataSource.transaction(async (m) => {
      await m.query('SET LOCAL enable_seqscan = off');
      await m.query('SET LOCAL enable_indexscan = off');
      const explain = async (sql: string, params?: unknown[]) => (await m.query<{ 'QUERY PLAN': string }[]>(sql, params)).map((r) => r['QUERY PLAN']).join('\n');
      const custom = await explain(`EXPLAIN ${SEARCH_SQL}`, values);
      // The API's named statement ends up on its generic plan: the one planned without the values.
      await m.query(`PREPARE search_plan_check AS ${SEARCH_SQL}`);
      await m.query('SET LOCAL plan_cache_mode = force_generic_plan');
      const generic = await explain(`EXPLAIN EXECUTE search_plan_check(${values.map(literal).join(', ')})`);
      await m.query('DEALLOCATE search_plan_check');
      return { custom, generic };
    });
    for (const [name, plan] of Object.entries(plans)) {
      for (const index of [
        'companies_search_ticker_idx',
        'companies_search_name_trgm_idx',
        'companies_search_name_fts_idx',
        'roster_entries_search_name_trgm_idx',
        'roster_entries_search_fts_idx',
        'filings_search_idx',
        'documents_search_fts_idx',
        'document_pages_search_idx',
      ]) {
        expect([name, index, plan.includes(index)]).toEqual([name, index, true]);
      }
      expect([name, plan.includes('Seq Scan')]).toEqual([name, false]);
    }
  });

  it('table specs and migrations agree (what db:check asks)', async () => {
    const differences = schemaDifferences(TABLES, await catalogColumns(a.context.dataSource));
    expect(differences).toEqual([]);
  });
});
