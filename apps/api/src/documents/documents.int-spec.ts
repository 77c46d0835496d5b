import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { contentHash, recordId, stableStringify, type DocumentTextData, type IssuerDocumentData, type RecordEnvelope } from '@app/contracts';
import { createLogger } from '@app/observability';
import {
  projectRecords,
} from '@app/persistence';
import { createTestDatabase, type TestDatabase } from '@app/testing';
import type { ApiContext } from '../api.context';
import { buildApiServer } from '../api.server';
import { apiConfigSchema } from '../config/api.config';

const DOCS = 'https://docs.test.example';

/** Records shaped per the contract from the FRPH IR fixture pages and the FRPH Annual Meeting 2015 deck. */
const records = JSON.parse(
  readFileSync(join(__dirname, '../../../../libs/persistence/src/projections/examples/issuer-pages.records.json'), 'utf8'),
) as {
  documentSeptember2017: RecordEnvelope<IssuerDocumentData>;
  documentAnnualMeeting2015: RecordEnvelope<IssuerDocumentData>;
  documentQ4Release2016: RecordEnvelope<IssuerDocumentData>;
  documentTextAnnualMeeting2015: RecordEnvelope<DocumentTextData>[];
};
const annualMeeting = records.documentAnnualMeeting2015;
const september2017 = records.documentSeptember2017;

let db: TestDatabase;
let a: { server: FastifyInstance; context: ApiContext };
let key: string;
let freeKey: string;
let annualMeetingId: number;
let september2017Id: number;

interface Doc { id: number; title: string; published_at: string; doc_type: string; ticker: string | null; [k: string]: unknown }
interface Page<T> { data: T[]; pagination: { next_cursor: string | null; has_more: boolean } }
interface DocPage { document_id: number; page_index: number; char_start: number; char_end: number; text: string; vision_caption: string; [k: string]: unknown }

const get = (url: string, k: string | undefined = key) => a.server.inject({ method: 'GET', url, headers: k ? { authorization: `Bearer ${k}` } : {} });

/**
 * 40 more links of another issuer (MSFT) to page through: 4 per day (ties on published_at), a
 * press release every third one, the rest decks; built from a real FRPH link record.
 */
function synthetic(i: number): RecordEnvelope<IssuerDocumentData> {
  const day = new Date(Date.UTC(2024, 0, 1) + Math.floor(i / 4) * 86_400_000).toISOString().slice(0, 10);
  const url = `https://www.microsoft.com/en-us/investor/documents/deck-${i}.pdf`;
  const data: IssuerDocumentData = {
    ...september2017.data,
    cik: '0000789019',
    ticker: null,
    url,
    title: `Investor deck ${i}`,
    kind: i % 3 === 0 ? 'press_release' : 'presentation',
    published_on: day,
  };
  return { ...september2017, key: url, data, id: recordId(url, contentHash(stableStringify(data))) };
}

beforeAll(async () => {
  db = await createTestDatabase('api_documents');
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
  a = await buildApiServer(config, { logger: createLogger({ level: 'silent' }) });
  const ds = a.context.dataSource;
  await ds.query(
    `INSERT INTO companies (symbol, ticker, market, cik, name, issuer_id, provenance, record_id, data_hash, observed_at)
     VALUES ('FRPH:US', 'FRPH', 'US', '0000844059', 'FRP HOLDINGS, INC.', 844059, $1::jsonb, 'rec_frph', 'h', now()),
            ('MSFT:US', 'MSFT', 'US', '0000789019', 'MICROSOFT CORP', 789019, $1::jsonb, 'rec_msft', 'h', now())`,
    [JSON.stringify({ ...annualMeeting.provenance, source_provider: 'sec' })],
  );
  // The deck's text arrives before its link: either order gives the same document.
  for (const part of records.documentTextAnnualMeeting2015) await projectRecords(ds, [part]);
  for (const r of [annualMeeting, september2017, records.documentQ4Release2016]) await projectRecords(ds, [r]);
  for (let i = 0; i < 40; i++) await projectRecords(ds, [synthetic(i)]);
  const ids = await ds.query<Array<{ id: number; url: string }>>('SELECT id, url FROM documents');
  annualMeetingId = ids.find((r) => r.url === annualMeeting.data.url)!.id;
  september2017Id = ids.find((r) => r.url === september2017.data.url)!.id;
  await ds.query(`INSERT INTO accounts (id, name, plan) VALUES ('acct_e', 'e', 'enterprise'), ('acct_f', 'f', 'free')`);
  key = (await a.context.keys.createKey({ accountId: 'acct_e', mode: 'live', label: 't' })).key;
  freeKey = (await a.context.keys.createKey({ accountId: 'acct_f', mode: 'live', label: 't' })).key;
}, 120_000);

afterAll(async () => {
  await a?.server.close();
  await db?.drop();
});

async function walk<T>(base: string, limit: number, direction?: 'asc' | 'desc'): Promise<{ rows: T[]; pages: number }> {
  const rows: T[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const sep = base.includes('?') ? '&' : '?';
    const url: string = `${base}${sep}limit=${limit}${direction ? `&direction=${direction}` : ''}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const r = await get(url);
    expect(r.statusCode).toBe(200);
    const body = r.json<Page<T>>();
    expect(body.data.length).toBeLessThanOrEqual(limit);
    expect(body.pagination.has_more).toBe(body.pagination.next_cursor !== null);
    rows.push(...body.data);
    cursor = body.pagination.next_cursor;
    pages += 1;
  } while (cursor !== null);
  return { rows, pages };
}

describe('GET /v1/documents/{doc_id}', () => {
  it('serves a deck with its text: page_count, the PDF date and the text provenance', async () => {
    const r = await get(`/v1/documents/${annualMeetingId}`);
    expect(r.statusCode).toBe(200);
    const [part0] = records.documentTextAnnualMeeting2015;
    expect(r.json()).toEqual({
      id: annualMeetingId,
      symbol: 'FRPH:US',
      ticker: 'FRPH',
      title: 'Annual Meeting - 2015 Annual Shareholder Meeting',
      doc_type: 'slide_deck',
      doc_group: 'governance',
      report_type: null,
      format: 'pdf',
      language: 'en',
      published_at: '2015-02-19T15:42:41.000Z',
      published_at_source: 'pdf_metadata',
      pages: 36,
      page_count: 36,
      transcript_gate: null,
      event_id: expect.any(Number) as number,
      url: 'https://www.frpholdings.com/assets/Annual_Meeting_-_2015_FINAL2.pdf',
      kind: 'presentation',
      found_on: 'https://www.frpholdings.com/frppresent.html',
      accession: null,
      items: null,
      exhibit: null,
      no_text: null,
      sources: [{ provider: 'issuer_page', url: 'https://www.frpholdings.com/assets/Annual_Meeting_-_2015_FINAL2.pdf', accession: null }],
      provenance: {
        src_id: part0!.provenance.src_id,
        source_provider: 'issuer_page',
        source_url: 'https://www.frpholdings.com/assets/Annual_Meeting_-_2015_FINAL2.pdf',
        citation_url: 'https://www.frpholdings.com/assets/Annual_Meeting_-_2015_FINAL2.pdf',
        accession: null,
        quote: 'Annual Shareholder Meeting',
        content_hash: 'sha256:cbb8e00fa0b3395e5481783f1e27f41322ab56234f17c713b0329bd1b3777575',
        extracted_at: '2026-01-15T10:05:03.000Z',
      },
    });
  });

  it('serves a link without text: the IR page date and the link provenance', async () => {
    const body = (await get(`/v1/documents/${september2017Id}`)).json<Doc>();
    expect(body).toMatchObject({
      title: 'FRP Holdings Inc. Investor Presentation September 2017',
      published_at: '2017-09-28T00:00:00.000Z',
      published_at_source: 'ir_page',
      pages: null,
      page_count: null,
      language: null,
      event_id: null,
      provenance: {
        source_url: 'https://www.frpholdings.com/investor-relations.html',
        citation_url: 'https://www.frpholdings.com/assets/FRP_Investor_Presentation.pdf',
        quote: '9/28/2017-FRP Holdings Inc. Investor Presentation September 2017',
        content_hash: 'sha256:3b5ca14766610025bd4b4999949ee62c4d00696387eb14d49ca464918f263a63',
        accession: null,
      },
    });
  });

  it('404 unknown-document; 422 for an id that is not a positive integer; 401 without a key', async () => {
    const r = await get('/v1/documents/999999');
    expect(r.statusCode).toBe(404);
    expect(r.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(r.json()).toMatchObject({ type: `${DOCS}/errors/unknown-document`, status: 404, instance: '/v1/documents/999999' });
    const bad = await get('/v1/documents/abc');
    expect(bad.statusCode).toBe(422);
    expect(bad.json<{ detail: unknown[] }>().detail).toEqual([expect.objectContaining({ type: 'int_parsing', loc: ['path', 'doc_id'], input: 'abc' })]);
    expect((await get('/v1/documents/0')).json<{ detail: unknown[] }>().detail).toEqual([expect.objectContaining({ type: 'greater_than_equal', loc: ['path', 'doc_id'] })]);
    expect((await get('/v1/documents/99999999999')).statusCode).toBe(422);
    expect((await get('/v1/documents/1', '')).statusCode).toBe(401);
  });
});

describe('GET /v1/documents', () => {
  it('walks every document exactly once, by published_at then id, in both directions with limits 1, 7 and 500', async () => {
    const asc = (await walk<Doc>('/v1/documents', 500, 'asc')).rows;
    expect(asc).toHaveLength(43);
    const sorted = [...asc].sort((x, y) => (x.published_at === y.published_at ? x.id - y.id : x.published_at < y.published_at ? -1 : 1));
    expect(asc.map((d) => d.id)).toEqual(sorted.map((d) => d.id));
    for (const limit of [1, 7, 500]) {
      const desc = await walk<Doc>('/v1/documents', limit);
      expect(desc.rows.map((d) => d.id)).toEqual([...asc].reverse().map((d) => d.id));
      expect(desc.pages).toBe(Math.ceil(43 / limit));
      expect((await walk<Doc>('/v1/documents', limit, 'asc')).rows.map((d) => d.id)).toEqual(asc.map((d) => d.id));
    }
    expect(asc.find((d) => d.title === 'Investor deck 0')).toMatchObject({ ticker: 'MSFT', symbol: 'MSFT:US' });
    // Every document names its company by the symbol the symbols filter takes.
    for (const d of asc) expect(d.symbol).toMatch(/^[A-Z]+:US$/);
  });

  it('filters by symbols (repeated or comma, case-insensitive) and doc_types', async () => {
    const frph = (await walk<Doc>('/v1/documents?symbols=frph:us', 2)).rows;
    expect(frph.map((d) => d.title)).toEqual([
      'FRP Holdings Inc. Investor Presentation September 2017',
      'FRP HOLDINGS, INC. (NASDAQ:FRPH) ANNOUNCES RESULTS FOR THE FOURTH QUARTER AND FISCAL YEAR ENDED 09/30/2016',
      'Annual Meeting - 2015 Annual Shareholder Meeting',
    ]);
    const releases = (await walk<Doc>('/v1/documents?symbols=FRPH:US&symbols=MSFT:US&doc_types=press_release', 5)).rows;
    expect(releases).toHaveLength(1 + 14);
    expect(releases.every((d) => d.doc_type === 'press_release')).toBe(true);
    const comma = (await walk<Doc>('/v1/documents?symbols=MSFT:US,FRPH:US&doc_types=press_release', 500)).rows;
    expect(comma.map((d) => d.id)).toEqual(releases.map((d) => d.id));
    expect((await get('/v1/documents?symbols=NOPE:US')).json<Page<Doc>>()).toEqual({ data: [], pagination: { next_cursor: null, has_more: false } });
  });

  it('filters by doc_groups: what documents are about', async () => {
    const frph = (await walk<Doc>('/v1/documents?symbols=FRPH:US', 500)).rows;
    // The results release is about earnings, the annual-meeting deck about governance (from their titles).
    const earnings = (await walk<Doc>('/v1/documents?symbols=FRPH:US&doc_groups=earnings', 500)).rows;
    expect(earnings.map((d) => d.title)).toEqual(['FRP HOLDINGS, INC. (NASDAQ:FRPH) ANNOUNCES RESULTS FOR THE FOURTH QUARTER AND FISCAL YEAR ENDED 09/30/2016']);
    const both = (await walk<Doc>('/v1/documents?symbols=FRPH:US&doc_groups=earnings,governance,other', 500)).rows;
    expect(both.map((d) => d.id)).toEqual(frph.map((d) => d.id));
    expect((await get('/v1/documents?doc_groups=news')).json<{ detail: { type: string; loc: unknown[] }[] }>().detail.map((d) => [d.type, d.loc])).toEqual([['literal_error', ['query', 'doc_groups', 0]]]);
  });

  it('answers 422 in the pydantic form for bad parameters', async () => {
    const r = await get('/v1/documents?doc_types=slides&symbols=FRPH&limit=0&direction=up');
    expect(r.statusCode).toBe(422);
    const detail = r.json<{ detail: { type: string; loc: unknown[] }[] }>().detail;
    expect(detail.map((d) => [d.type, d.loc])).toEqual(
      expect.arrayContaining([
        ['literal_error', ['query', 'doc_types', 0]],
        ['string_pattern_mismatch', ['query', 'symbols', 0]],
        ['greater_than_equal', ['query', 'limit']],
        ['literal_error', ['query', 'direction']],
      ]),
    );
    const capped = await get('/v1/documents?limit=26', freeKey);
    expect(capped.json<{ detail: unknown[] }>().detail).toEqual([expect.objectContaining({ type: 'less_than_equal', ctx: expect.objectContaining({ le: 25 }) })]);
  });

  it('rejects a cursor used with other filters, another direction or tampered', async () => {
    const first = (await get('/v1/documents?limit=2&doc_types=slide_deck')).json<Page<Doc>>();
    const cursor = encodeURIComponent(first.pagination.next_cursor!);
    for (const url of [`/v1/documents?limit=2&cursor=${cursor}`, `/v1/documents?limit=2&doc_types=slide_deck&direction=asc&cursor=${cursor}`, `/v1/documents?limit=2&doc_types=slide_deck&cursor=x${cursor}`]) {
      const r = await get(url);
      expect(r.statusCode).toBe(422);
      expect(r.json()).toMatchObject({ detail: [expect.objectContaining({ type: 'value_error', loc: ['query', 'cursor'] })] });
    }
    expect((await get(`/v1/documents?limit=2&doc_types=slide_deck&cursor=${cursor}`)).statusCode).toBe(200);
  });
});

describe('GET /v1/documents/{doc_id}/pages and /text', () => {
  it('pages through every page; the text slices back to each page', async () => {
    const { rows, pages } = await walk<DocPage>(`/v1/documents/${annualMeetingId}/pages`, 10);
    expect(pages).toBe(4);
    expect(rows.map((p) => p.page_index)).toEqual([...Array(36).keys()]);
    const first = (await get(`/v1/documents/${annualMeetingId}/pages?limit=1`)).json<Page<DocPage> & { document_id: number }>();
    expect(first.document_id).toBe(annualMeetingId);
    expect(first.data[0]).toMatchObject({
      document_id: annualMeetingId,
      page_index: 0,
      char_start: 0,
      text: 'Annual Shareholder Meeting\nFRP Holdings, Inc.\nA Real Estate Company\nFebruary 5, 2015\n1',
      vision_caption: 'FRP Holdings, Inc. — Annual Shareholder Meeting',
      caption_source: 'layout@1',
      quote: 'Annual Shareholder Meeting',
      provenance: expect.objectContaining({
        citation_url: 'https://www.frpholdings.com/assets/Annual_Meeting_-_2015_FINAL2.pdf#page=1',
        content_hash: 'sha256:cbb8e00fa0b3395e5481783f1e27f41322ab56234f17c713b0329bd1b3777575',
      }) as unknown,
    });

    const text = (await get(`/v1/documents/${annualMeetingId}/text`)).json<{ document_id: number; page_separator: string; text_length: number; text: string }>();
    expect(text.page_separator).toBe('\n\f\n');
    expect(text.text).toHaveLength(text.text_length);
    expect(text.text_length).toBe(records.documentTextAnnualMeeting2015[0]!.data.text_length);
    for (const p of rows) expect(text.text.slice(p.char_start, p.char_end)).toBe(p.text);
  });

  it('serves one page by index; 404 unknown-page names the page count', async () => {
    const one = (await get(`/v1/documents/${annualMeetingId}/pages?page=35`)).json<Page<DocPage>>();
    expect(one.data.map((p) => p.page_index)).toEqual([35]);
    expect(one.pagination).toEqual({ next_cursor: null, has_more: false });
    const out = await get(`/v1/documents/${annualMeetingId}/pages?page=36`);
    expect(out.statusCode).toBe(404);
    expect(out.json()).toMatchObject({ type: `${DOCS}/errors/unknown-page`, detail: expect.stringContaining('36 pages (page indexes 0 to 35)') as string });
    expect((await get(`/v1/documents/${annualMeetingId}/pages?page=-1`)).statusCode).toBe(422);
    expect((await get(`/v1/documents/${annualMeetingId}/pages?page=x`)).json<{ detail: unknown[] }>().detail).toEqual([expect.objectContaining({ type: 'int_parsing', loc: ['query', 'page'] })]);
  });

  it('a document without text has no pages and no text yet; unknown documents are 404', async () => {
    expect((await get(`/v1/documents/${september2017Id}/pages`)).json()).toEqual({ document_id: september2017Id, data: [], pagination: { next_cursor: null, has_more: false } });
    const page = await get(`/v1/documents/${september2017Id}/pages?page=0`);
    expect(page.statusCode).toBe(404);
    expect(page.json()).toMatchObject({ type: `${DOCS}/errors/unknown-page` });
    const text = await get(`/v1/documents/${september2017Id}/text`);
    expect(text.statusCode).toBe(404);
    expect(text.json()).toMatchObject({ type: `${DOCS}/errors/document-text-unavailable` });
    expect((await get('/v1/documents/999999/pages')).json()).toMatchObject({ type: `${DOCS}/errors/unknown-document` });
    expect((await get('/v1/documents/999999/text')).statusCode).toBe(404);
  });

  it('rejects a pages cursor of another document', async () => {
    const first = (await get(`/v1/documents/${annualMeetingId}/pages?limit=2`)).json<Page<DocPage>>();
    const r = await get(`/v1/documents/${september2017Id}/pages?cursor=${encodeURIComponent(first.pagination.next_cursor!)}`);
    expect(r.statusCode).toBe(422);
  });
});

describe('GET /v1/documents: dated documents before those dated only by their first sighting', () => {
  const TSLA_CIK = '0001318605';
  /** A TSLA link: printed date `day` (null: none, so first_seen), first seen at `seen`. */
  const link = (n: number, day: string | null, seen: string): RecordEnvelope<IssuerDocumentData> => {
    const url = `https://ir.tesla.com/deck-${n}.pdf`;
    const data: IssuerDocumentData = { ...september2017.data, cik: TSLA_CIK, ticker: null, url, title: `Tesla deck ${n}`, kind: 'presentation', published_on: day };
    return { ...september2017, key: url, data, observed_at: seen, id: recordId(url, contentHash(stableStringify(data))) };
  };

  beforeAll(async () => {
    const ds = a.context.dataSource;
    await ds.query(
      `INSERT INTO companies (symbol, ticker, market, cik, name, issuer_id, provenance, record_id, data_hash, observed_at)
       VALUES ('TSLA:US', 'TSLA', 'US', $2, 'Tesla, Inc.', 1318605, $1::jsonb, 'rec_tsla', 'h', now())`,
      [JSON.stringify({ ...annualMeeting.provenance, source_provider: 'sec' }), TSLA_CIK],
    );
    // Undated decks first seen in 2026, after every dated document: newest first by sort_at alone, they would open the list.
    for (const r of [
      link(1, '2020-01-15', '2026-01-01T00:00:00.000Z'),
      link(2, '2021-06-30', '2026-01-01T00:00:00.000Z'),
      link(3, null, '2026-01-10T00:00:00.000Z'),
      link(4, null, '2026-03-10T00:00:00.000Z'),
      link(5, null, '2026-02-10T00:00:00.000Z'),
    ]) await projectRecords(ds, [r]);
  });

  it('orders dated documents newest first, then first_seen ones newest first, paging across the boundary both ways', async () => {
    const expected = ['Tesla deck 2', 'Tesla deck 1', 'Tesla deck 4', 'Tesla deck 5', 'Tesla deck 3'];
    for (const limit of [1, 2, 500]) {
      const desc = (await walk<Doc>('/v1/documents?symbols=TSLA:US', limit)).rows;
      expect(desc.map((d) => [d.title, d.published_at_source])).toEqual(expected.map((t, i) => [t, i < 2 ? 'ir_page' : 'first_seen']));
      expect((await walk<Doc>('/v1/documents?symbols=TSLA:US', limit, 'asc')).rows.map((d) => d.title)).toEqual([...expected].reverse());
    }
    const desc = (await walk<Doc>('/v1/documents?symbols=TSLA:US', 500)).rows;
    expect(desc.map((d) => d.published_at.slice(0, 10))).toEqual(['2021-06-30', '2020-01-15', '2026-03-10', '2026-02-10', '2026-01-10']);
  });

  it('the whole list opens with the newest dated document and ends with the first_seen ones', async () => {
    const all = (await walk<Doc>('/v1/documents', 7)).rows;
    const firstUndated = all.findIndex((d) => d.published_at_source === 'first_seen');
    expect(firstUndated).toBe(all.length - 3);
    const dated = all.slice(0, firstUndated);
    expect(dated.map((d) => d.published_at)).toEqual([...dated.map((d) => d.published_at)].sort().reverse());
    expect(all[0]!.published_at_source).not.toBe('first_seen');
  });

  it('a first_seen document moves among the dated ones when its date becomes known', async () => {
    await projectRecords(a.context.dataSource, [link(3, '2019-05-01', '2026-03-20T00:00:00.000Z')]);
    const desc = (await walk<Doc>('/v1/documents?symbols=TSLA:US', 2)).rows;
    expect(desc.map((d) => [d.title, d.published_at_source])).toEqual([
      ['Tesla deck 2', 'ir_page'],
      ['Tesla deck 1', 'ir_page'],
      ['Tesla deck 3', 'ir_page'],
      ['Tesla deck 4', 'first_seen'],
      ['Tesla deck 5', 'first_seen'],
    ]);
  });
});
