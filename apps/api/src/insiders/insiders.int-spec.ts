import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Form4Data, RecordEnvelope } from '@app/contracts';
import { createLogger } from '@app/observability';
import {
  projectRecords,
} from '@app/persistence';
import { footnotesByField } from '@app/resources';
import { createTestDatabase, type TestDatabase } from '@app/testing';
import type { ApiContext } from '../api.context';
import { buildApiServer } from '../api.server';
import { apiConfigSchema } from '../config/api.config';

const DOCS = 'https://docs.test.example';

/** form4@1 records made by the ingest-form4 mapper from the Form 4 fixtures (and two DKNG 4/As, see `notes`). */
const records = JSON.parse(
  readFileSync(join(__dirname, '../../../../libs/persistence/src/projections/examples/form4.records.json'), 'utf8'),
) as Record<'tsla' | 'snow' | 'betr' | 'dkng' | 'dkngAmendment' | 'dkngHoldingsAmendment' | 'msft', RecordEnvelope<Form4Data>>;

let db: TestDatabase;
let a: { server: FastifyInstance; context: ApiContext };
let key: string;
let testKey: string;

interface Item { accession: string; table: string; sequence: number; kind: string; code: string | null; transaction_date: string | null; superseded_by: string | null; [k: string]: unknown }
interface Body { data: Item[]; pagination: { next_cursor: string | null; has_more: boolean }; company: Record<string, unknown> }
const get = (url: string, k: string = key) => a.server.inject({ method: 'GET', url, headers: { authorization: `Bearer ${k}` } });
const body = async (url: string) => {
  const r = await get(url);
  expect([url, r.statusCode]).toEqual([url, 200]);
  return r.json<Body>();
};

beforeAll(async () => {
  db = await createTestDatabase('api_insiders');
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
     VALUES ('TSLA:US', 'TSLA', 'US', '0001318605', 'Tesla, Inc.', 1318605, $1::jsonb, 'rec_tsla', 'h', now()),
            ('SNOW:US', 'SNOW', 'US', '0001640147', 'Snowflake Inc.', 1640147, $1::jsonb, 'rec_snow', 'h', now()),
            ('BETR:US', 'BETR', 'US', '0001835856', 'Better Home & Finance Holding Co', 1835856, $1::jsonb, 'rec_betr', 'h', now()),
            ('DKNG:US', 'DKNG', 'US', '0001883685', 'DraftKings Inc.', 1883685, $1::jsonb, 'rec_dkng', 'h', now()),
            ('MSFT:US', 'MSFT', 'US', '0000789019', 'MICROSOFT CORP', 789019, $1::jsonb, 'rec_msft', 'h', now())`,
    [JSON.stringify(records.tsla.provenance)],
  );
  for (const name of ['tsla', 'snow', 'betr', 'dkng', 'dkngAmendment', 'dkngHoldingsAmendment', 'msft'] as const) await projectRecords(ds, [records[name]]);
  await ds.query(`INSERT INTO accounts (id, name, plan) VALUES ('acct_e', 'e', 'enterprise')`);
  key = (await a.context.keys.createKey({ accountId: 'acct_e', mode: 'live', label: 't' })).key;
  testKey = (await a.context.keys.createKey({ accountId: 'acct_e', mode: 'test', label: 't' })).key;
}, 120_000);

afterAll(async () => {
  await a?.server.close();
  await db?.drop();
});

describe('GET /v1/companies/{symbol}/insiders', () => {
  it('lists every row of the filing newest first with footnotes, owners, 10b5-1 and provenance', async () => {
    const b = await body('/v1/companies/tsla:us/insiders?limit=100');
    expect(b.company).toMatchObject({ symbol: 'TSLA:US', cik: '0001318605' });
    expect(b.pagination).toEqual({ next_cursor: null, has_more: false });
    expect(b.data).toHaveLength(31);
    expect(b.data.filter((d) => d.table === 'non_derivative')).toHaveLength(30);
    // desc: (date, accession, table, sequence) all descending.
    expect(b.data.slice(0, 3).map((d) => [d.table, d.sequence])).toEqual([['non_derivative', 29], ['non_derivative', 28], ['non_derivative', 27]]);
    const row = records.tsla.data.rows.find((r) => r.table === 'non_derivative' && r.sequence === 1)!;
    const item = b.data.find((d) => d.table === 'non_derivative' && d.sequence === 1)!;
    const text = new Map(records.tsla.data.footnotes.map((f) => [f.id, f.text]));
    expect(item).toMatchObject({
      accession: '0000899243-21-044060',
      form: '4',
      is_amendment: false,
      kind: 'transaction',
      code: 'S',
      classification: 'open_market_sale',
      is_open_market: true,
      is_10b5_1: true,
      is_10b5_1_reason: 'footnote',
      is_10b5_1_footnote_ids: row.is_10b5_1_footnote_ids,
      transaction_date: '2021-11-08',
      shares: row.shares,
      shares_text: row.shares_text,
      price_per_share: row.price_per_share,
      price_per_share_text: row.price_per_share_text,
      superseded_by: null,
      footnotes: footnotesByField(Object.fromEntries(Object.entries(row.footnotes).map(([field, ids]) => [field, ids.map((id) => ({ id, text: text.get(id) ?? null }))]))),
      owners: [{ cik: '0001494730', name: 'Musk Elon', is_director: true, is_officer: true, officer_title: 'CEO', is_ten_percent_owner: true, is_other: false, other_text: null }],
      provenance: {
        src_id: records.tsla.provenance.src_id,
        source_provider: 'sec',
        source_url: records.tsla.data.source_url,
        accession: '0000899243-21-044060',
        quote: row.quote,
        content_hash: records.tsla.provenance.content_hash,
        extracted_at: '2025-08-02T12:00:01.000Z',
      },
    });
    expect(item).not.toHaveProperty('address');
    // Keyed by the row's field names, as the row itself is: price_per_share, not transactionPricePerShare.
    expect(Object.keys(item.footnotes as object).sort()).toEqual(['code', 'shares']);
    expect(Object.keys(row.footnotes).sort()).toEqual(['transactionCoding', 'transactionShares']);
  });

  it('pages with a keyset cursor in either direction without gaps or repeats', async () => {
    for (const direction of ['asc', 'desc']) {
      const seen: string[] = [];
      let url = `/v1/companies/TSLA:US/insiders?limit=7&direction=${direction}`;
      for (;;) {
        const b = await body(url);
        seen.push(...b.data.map((d) => `${d.table}|${d.sequence}`));
        if (!b.pagination.next_cursor) break;
        expect(b.pagination.has_more).toBe(true);
        url = `/v1/companies/TSLA:US/insiders?limit=7&cursor=${encodeURIComponent(b.pagination.next_cursor)}`;
      }
      expect(seen).toHaveLength(31);
      expect(new Set(seen).size).toBe(31);
      if (direction === 'asc') expect(seen[0]).toBe('derivative|0');
    }
  });

  it('filters by owner, codes, classification, dates, table and kind', async () => {
    const n = async (q: string, symbol = 'SNOW:US') => (await body(`/v1/companies/${symbol}/insiders?limit=100&${q}`)).data.length;
    expect(await n('owner=SCARPELLI')).toBe(15);
    expect(await n('owner=1402349')).toBe(15);
    expect(await n('owner=0001402349')).toBe(15);
    expect(await n('owner=nobody')).toBe(0);
    expect(await n('codes=m')).toBe(2);
    expect(await n('codes=M&codes=S')).toBe(7);
    expect(await n('classification=open_market_sale')).toBe(5);
    expect(await n('classification=exercise&classification=open_market_sale')).toBe(7);
    expect(await n('derivative=true')).toBe(1);
    expect(await n('derivative=false&kind=transaction')).toBe(6);
    expect(await n('kind=holding')).toBe(8);
    expect(await n('from=2022-12-13&to=2022-12-13')).toBe(15);
    expect(await n('from=2022-12-14')).toBe(0);
    const betr = await body('/v1/companies/BETR:US/insiders');
    expect(betr.data.map((d) => (d.owners as unknown[]).length)).toEqual([8, 8]);
  });

  it('leaves out rows a 4/A restated unless include_superseded=true; a holdings-only 4/A restates no transaction', async () => {
    const standing = await body('/v1/companies/DKNG:US/insiders?direction=asc');
    expect(standing.data.map((d) => [d.accession, d.kind, d.price_per_share_text])).toEqual([
      ['0001104659-25-030001', 'transaction', '37.59'],
      ['0001104659-25-030001', 'transaction', '38.05'],
      // The holding is dated by its period of report (2025-03-14), the third sale by its date (2025-03-17).
      ['0001104659-25-030002', 'holding', null],
      ['0001104659-25-030001', 'transaction', '39.02'],
    ]);
    const all = await body('/v1/companies/DKNG:US/insiders?direction=asc&include_superseded=true&kind=transaction');
    // By date, then accession: the two sales of 2025-03-14 of each filing, then the sale of 2025-03-17 of each.
    expect(all.data.map((d) => [d.accession, d.sequence, d.superseded_by])).toEqual([
      ['0001104659-25-025206', 0, '0001104659-25-030001'],
      ['0001104659-25-025206', 1, '0001104659-25-030001'],
      ['0001104659-25-030001', 0, null],
      ['0001104659-25-030001', 1, null],
      ['0001104659-25-025206', 2, '0001104659-25-030001'],
      ['0001104659-25-030001', 2, null],
    ]);
    expect(all.data[2]).toMatchObject({ form: '4/A', is_amendment: true, filed_date: '2025-03-21' });
    expect((await body('/v1/companies/MSFT:US/insiders')).data.map((d) => [d.table, d.kind])).toEqual([
      ['non_derivative', 'holding'],
      ['derivative', 'transaction'],
    ]);
  });

  it('422 on bad parameters, a foreign or forged cursor and limit over the cap; 404 on an unknown symbol', async () => {
    const r = await get('/v1/companies/TSLA:US/insiders?codes=SS&classification=buy&from=2021-02-30&derivative=maybe&include_superseded=x&direction=up&limit=0&kind=all');
    expect(r.statusCode).toBe(422);
    expect(r.json<{ detail: { type: string; loc: unknown[] }[] }>().detail.map((d) => [d.type, d.loc])).toEqual([
      ['string_pattern_mismatch', ['query', 'codes', 0]],
      ['literal_error', ['query', 'classification', 0]],
      ['bool_parsing', ['query', 'derivative']],
      ['literal_error', ['query', 'kind']],
      ['bool_parsing', ['query', 'include_superseded']],
      ['greater_than_equal', ['query', 'limit']],
      ['literal_error', ['query', 'direction']],
      ['value_error', ['query', 'from']],
    ]);
    const reversed = await get('/v1/companies/TSLA:US/insiders?from=2021-12-01&to=2021-11-01');
    expect(reversed.json<{ detail: { loc: unknown[] }[] }>().detail.map((d) => d.loc)).toEqual([['query', 'to']]);
    const page = await body('/v1/companies/TSLA:US/insiders?limit=2');
    const cursor = encodeURIComponent(page.pagination.next_cursor!);
    expect((await get(`/v1/companies/TSLA:US/insiders?cursor=${cursor}&codes=S`)).statusCode).toBe(422);
    expect((await get(`/v1/companies/SNOW:US/insiders?cursor=${cursor}`)).statusCode).toBe(422);
    expect((await get(`/v1/companies/TSLA:US/insiders?cursor=${cursor}x`)).statusCode).toBe(422);
    expect((await get(`/v1/companies/TSLA:US/insiders?cursor=${cursor}`)).statusCode).toBe(200);
    const capped = await get('/v1/companies/TSLA:US/insiders?limit=26', testKey);
    expect(capped.json<{ detail: unknown[] }>().detail).toEqual([expect.objectContaining({ type: 'less_than_equal', ctx: expect.objectContaining({ le: 25 }) })]);
    const unknown = await get('/v1/companies/NOPE:US/insiders');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ type: `${DOCS}/errors/unknown-symbol` });
    expect((await get('/v1/companies/NOPE/insiders')).statusCode).toBe(422);
    expect((await a.server.inject({ method: 'GET', url: '/v1/companies/TSLA:US/insiders' })).statusCode).toBe(401);
  });
});
