import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { contentHash, recordId, stableStringify, type CompanyDescriptionData, type Form4Data, type IssuerRosterData, type RecordEnvelope } from '@app/contracts';
import { createLogger } from '@app/observability';
import {
  projectRecords,
} from '@app/persistence';
import { parseSubmissions } from '@app/edgar';
import { createTestDatabase, defaultFixturesDir, type TestDatabase } from '@app/testing';
import type { ApiContext } from '../api.context';
import { buildApiServer } from '../api.server';
import { apiConfigSchema } from '../config/api.config';

const DOCS = 'https://docs.test.example';

/** Records shaped per the contract from the FRPH IR fixture pages (executive team, contact us). */
const records = JSON.parse(
  readFileSync(join(__dirname, '../../../../libs/persistence/src/projections/examples/issuer-pages.records.json'), 'utf8'),
) as { rosterExecutives: RecordEnvelope<IssuerRosterData>; rosterIr: RecordEnvelope<IssuerRosterData>; description: RecordEnvelope<CompanyDescriptionData> };
const executives = records.rosterExecutives;

let db: TestDatabase;
let a: { server: FastifyInstance; context: ApiContext };
let key: string;
let testKey: string;

interface Entry { name: string; role: string; rank: number; is_current: boolean; category: string; [k: string]: unknown }
interface Body { company: Record<string, unknown>; data: Entry[]; pagination: { next_cursor: string | null; has_more: boolean }; as_of?: string; gaps?: Array<{ code: string; field?: string; detail: string }> }

const get = (url: string, k: string | undefined = key) => a.server.inject({ method: 'GET', url, headers: k ? { authorization: `Bearer ${k}` } : {} });

beforeAll(async () => {
  db = await createTestDatabase('api_executives');
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
    [JSON.stringify({ ...executives.provenance, source_provider: 'sec' })],
  );
  await projectRecords(ds, [executives]);
  await projectRecords(ds, [records.rosterIr]);
  // A later crawl no longer lists the controller.
  const data = { ...executives.data, entries: executives.data.entries.filter((e) => e.name !== 'John D. Klopfenstein') };
  await projectRecords(ds, [{ ...executives, data, observed_at: '2026-02-15T10:00:00.000Z', id: recordId(executives.key, contentHash(stableStringify(data))) }]);
  await projectRecords(ds, [records.description]);
  await ds.query(`INSERT INTO accounts (id, name, plan) VALUES ('acct_e', 'e', 'enterprise')`);
  key = (await a.context.keys.createKey({ accountId: 'acct_e', mode: 'live', label: 't' })).key;
  testKey = (await a.context.keys.createKey({ accountId: 'acct_e', mode: 'test', label: 't' })).key;
}, 120_000);

afterAll(async () => {
  await a?.server.close();
  await db?.drop();
});

describe('GET /v1/companies/{symbol}/executives', () => {
  it('lists the current executives by rank with the company reference and provenance', async () => {
    const r = await get('/v1/companies/frph:us/executives');
    expect(r.statusCode).toBe(200);
    const body = r.json<Body>();
    expect(body.company).toEqual({ symbol: 'FRPH:US', ticker: 'FRPH', market: 'US', name: 'FRP HOLDINGS, INC.', cik: '0000844059', isin: null, figi: null, issuer_id: 844059 });
    expect(Object.keys(body)).toEqual(['company', 'data', 'pagination']);
    expect(body.pagination).toEqual({ next_cursor: null, has_more: false });
    expect(body.data.map((e) => [e.rank, e.name])).toEqual([
      [1, 'John D. Baker II'],
      [2, 'Thompson S. Baker'],
      [3, 'John D. Milton Jr.'],
      [4, 'David H. deVilliers Jr.'],
    ]);
    expect(body.data[1]).toEqual({
      name: 'Thompson S. Baker',
      role: 'Chief Executive Officer',
      category: 'executives',
      affiliation: 'FRP Holdings, Inc.',
      rank: 2,
      is_current: true,
      email: null,
      phone: null,
      provenance: {
        src_id: expect.stringMatching(/^src_/) as string,
        source_provider: 'issuer_page',
        source_url: 'https://www.frpholdings.com/executive-team.html',
        accession: null,
        quote: 'Thompson S. Baker Chief Executive Officer',
        content_hash: 'sha256:a45110794b38560e35233e9f13d93d4a5bee1f589f75b5dd7e00928ee2473236',
        extracted_at: '2026-01-15T10:00:02.000Z',
      },
    });
  });

  it('current_only=false adds people no longer listed; category selects the roster; limit caps it', async () => {
    const all = (await get('/v1/companies/FRPH:US/executives?current_only=false')).json<Body>();
    expect(all.data.map((e) => [e.name, e.is_current])).toContainEqual(['John D. Klopfenstein', false]);
    expect(all.data).toHaveLength(5);
    const ir = (await get('/v1/companies/FRPH:US/executives?category=ir')).json<Body>();
    expect(ir.data.map((e) => [e.name, e.category, e.affiliation, e.phone])).toEqual([
      ['John Milton', 'ir', 'FRP Holdings, Inc.', '(877) 704-1776'],
      ['David H. deVilliers', 'ir', 'FRP Development Corp', '(410) 771-4100'],
    ]);
    expect((await get('/v1/companies/FRPH:US/executives?category=analysts')).json<Body>().data).toEqual([]);
    expect((await get('/v1/companies/FRPH:US/executives?limit=2')).json<Body>().data.map((e) => e.rank)).toEqual([1, 2]);
    expect((await get('/v1/companies/MSFT:US/executives')).json<Body>().data).toEqual([]);
  });

  it('pages with a cursor: pages of limit=1 reassemble the whole roster, as_of included; a cursor is bound to its filters and account', async () => {
    const pages = async (url: string, k: string = key) => {
      const seen: Entry[] = [];
      let next = url;
      for (let i = 0; i < 20; i++) {
        const r = await get(next, k);
        expect(r.statusCode).toBe(200);
        const body = r.json<Body>();
        seen.push(...body.data);
        if (!body.pagination.has_more) {
          expect(body.pagination.next_cursor).toBeNull();
          return seen;
        }
        expect(body.data).toHaveLength(1);
        next = `${url}&cursor=${body.pagination.next_cursor!}`;
      }
      throw new Error('more than 20 pages');
    };
    for (const url of [
      '/v1/companies/FRPH:US/executives?current_only=false',
      '/v1/companies/FRPH:US/executives?category=ir',
      '/v1/companies/FRPH:US/executives?as_of=2026-01-15&current_only=false',
    ]) {
      const whole = (await get(url)).json<Body>().data;
      expect(whole.length).toBeGreaterThan(1);
      expect(await pages(`${url}&limit=1`)).toEqual(whole);
    }

    const first = (await get('/v1/companies/FRPH:US/executives?limit=2')).json<Body>();
    expect(first.pagination.has_more).toBe(true);
    const second = (await get(`/v1/companies/FRPH:US/executives?limit=2&cursor=${first.pagination.next_cursor!}`)).json<Body>();
    expect(second.data.map((e) => e.rank)).toEqual([3, 4]);
    // Filters (as_of among them) are part of the cursor: another filter set, list or account refuses it.
    await a.context.dataSource.query(`INSERT INTO accounts (id, name, plan) VALUES ('acct_other', 'o', 'enterprise')`);
    const otherKey = (await a.context.keys.createKey({ accountId: 'acct_other', mode: 'live', label: 'o' })).key;
    for (const [url, k] of [
      ['/v1/companies/FRPH:US/executives?limit=2&as_of=2026-03-01', key],
      ['/v1/companies/FRPH:US/executives?limit=2&current_only=false', key],
      ['/v1/companies/FRPH:US/executives?limit=2&category=ir', key],
      ['/v1/companies/FRPH:US/executives?limit=2', otherKey],
    ] as const) {
      const r = await get(`${url}&cursor=${first.pagination.next_cursor!}`, k);
      expect(r.statusCode).toBe(422);
      expect(r.json<{ detail: { loc: unknown[] }[] }>().detail[0]!.loc).toEqual(['query', 'cursor']);
    }
  });

  it('422 for a bad category, boolean or limit (sk_test_ keys capped at 25); 404 unknown-symbol', async () => {
    const r = await get('/v1/companies/FRPH:US/executives?category=board&current_only=maybe&limit=0');
    expect(r.statusCode).toBe(422);
    expect(r.json<{ detail: { type: string; loc: unknown[] }[] }>().detail.map((d) => [d.type, d.loc])).toEqual([
      ['literal_error', ['query', 'category']],
      ['bool_parsing', ['query', 'current_only']],
      ['greater_than_equal', ['query', 'limit']],
    ]);
    const capped = await get('/v1/companies/FRPH:US/executives?limit=26', testKey);
    expect(capped.json<{ detail: unknown[] }>().detail).toEqual([expect.objectContaining({ type: 'less_than_equal', ctx: expect.objectContaining({ le: 25 }) })]);
    const unknown = await get('/v1/companies/NOPE:US/executives');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ type: `${DOCS}/errors/unknown-symbol` });
    expect((await get('/v1/companies/NOPE/executives')).statusCode).toBe(422);
  });
});

describe('GET /v1/companies/{symbol} with an issuer description', () => {
  it("fills description from the issuer's IR page and drops its gap note", async () => {
    const body = (await get('/v1/companies/FRPH:US')).json<{ description: string; description_provenance: unknown; gaps: Array<{ code: string; field?: string; detail: string }> }>();
    expect(body.description).toBe(records.description.data.description);
    expect(body.description_provenance).toEqual({
      src_id: expect.stringMatching(/^src_/) as string,
      source_provider: 'issuer_page',
      source_url: 'https://www.frpholdings.com/executive-team.html',
      accession: null,
      quote: records.description.data.citation.quote,
      content_hash: 'sha256:a45110794b38560e35233e9f13d93d4a5bee1f589f75b5dd7e00928ee2473236',
      extracted_at: '2026-01-15T10:00:02.000Z',
    });
    expect(body.gaps.some((g) => g.field === 'description' || g.detail.includes('description'))).toBe(false);
    const msft = (await get('/v1/companies/MSFT:US')).json<{ description: null; gaps: Array<{ code: string; field?: string; detail: string }> }>();
    expect(msft.description).toBeNull();
    expect(msft.gaps).toContainEqual({ code: 'not_captured', field: 'description', detail: expect.stringMatching(/^description: /) });
  });
});

describe('GET /v1/companies/{symbol}/executives with Form 4 reporting owners (source_provider sec)', () => {
  /** Records made by the ingest-form4 mapper from the TSLA and DKNG Form 4 fixtures. */
  const form4 = JSON.parse(
    readFileSync(join(__dirname, '../../../../libs/persistence/src/projections/examples/form4.records.json'), 'utf8'),
  ) as Record<'tsla' | 'dkng', RecordEnvelope<Form4Data>>;
  const DKNG = '0001883685';
  const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000);
  const day = (d: Date) => d.toISOString().slice(0, 10);

  /** The DKNG Form 4 filed again recently (a new accession, filing date and owners): the window is relative to today. */
  function recentDkng(accession: string, filed: Date, owners = form4.dkng.data.reporting_owners): RecordEnvelope<Form4Data> {
    const data = { ...form4.dkng.data, accession, filed_date: day(filed), period_of_report: day(filed), reporting_owners: owners };
    return { ...form4.dkng, key: accession, data, observed_at: filed.toISOString(), id: recordId(accession, contentHash(stableStringify(data))) };
  }

  /** The FRPH roster record re-keyed to DKNG with the given people (test data: the quotes are FRPH's). */
  function dkngPage(names: Array<[string, string]>, observedAt: Date): RecordEnvelope<IssuerRosterData> {
    const template = executives.data.entries[0]!;
    const entries = names.map(([name, role], i) => ({ ...template, name, role, affiliation: 'DraftKings Inc.', rank: i + 1 }));
    const data = { ...executives.data, cik: DKNG, ticker: 'DKNG', entries };
    return { ...executives, key: `${DKNG}|executives`, data, observed_at: observedAt.toISOString(), id: recordId(`${DKNG}|executives`, contentHash(stableStringify(data))) };
  }

  beforeAll(async () => {
    const ds = a.context.dataSource;
    await ds.query(
      `INSERT INTO companies (symbol, ticker, market, cik, name, issuer_id, provenance, record_id, data_hash, observed_at)
       VALUES ('TSLA:US', 'TSLA', 'US', '0001318605', 'Tesla, Inc.', 1318605, $1::jsonb, 'rec_tsla', 'h', now()),
              ('DKNG:US', 'DKNG', 'US', $2, 'DraftKings Inc.', 1883685, $1::jsonb, 'rec_dkng', 'h', now())`,
      [JSON.stringify(form4.tsla.provenance), DKNG],
    );
    await projectRecords(ds, [form4.tsla]);
    await projectRecords(ds, [form4.dkng]);
    await projectRecords(ds, [recentDkng('0001104659-26-000101', daysAgo(30))]);
    const director = { ...form4.dkng.data.reporting_owners[0]!, cik: '0001999999', name: 'Levin Harry Evans', is_director: true, is_officer: false, officer_title: null };
    await projectRecords(ds, [recentDkng('0001104659-26-000102', daysAgo(20), [director])]);
    await projectRecords(ds, [dkngPage([['Jason D. Robins', 'Chief Executive Officer'], ['R. Stanton Dodge', 'Chief Legal Officer']], daysAgo(90))]);
  });

  it('serves SEC entries with the filing as provenance; a Form 4 older than 18 months is not current', async () => {
    expect((await get('/v1/companies/TSLA:US/executives')).json<Body>().data).toEqual([]);
    const all = (await get('/v1/companies/TSLA:US/executives?current_only=false')).json<Body>();
    expect(all.data).toEqual([
      {
        name: 'Musk Elon',
        role: 'CEO, Director',
        category: 'executives',
        affiliation: 'Tesla, Inc.',
        rank: 1,
        is_current: false,
        email: null,
        phone: null,
        provenance: {
          src_id: form4.tsla.provenance.src_id,
          source_provider: 'sec',
          source_url: form4.tsla.data.source_url,
          accession: '0000899243-21-044060',
          quote: 'CEO',
          content_hash: form4.tsla.provenance.content_hash,
          extracted_at: '2025-08-02T12:00:01.000Z',
        },
      },
    ]);
  });

  it('one entry per person: the issuer page wins for a person it lists, SEC-only people follow by seniority', async () => {
    const body = (await get('/v1/companies/DKNG:US/executives')).json<Body>();
    expect(body.data.map((e) => [e.rank, e.name, e.role, (e.provenance as { source_provider: string }).source_provider, e.is_current])).toEqual([
      [1, 'Jason D. Robins', 'Chief Executive Officer', 'issuer_page', true],
      [2, 'R. Stanton Dodge', 'Chief Legal Officer', 'issuer_page', true],
      [3, 'Levin Harry Evans', 'Director', 'sec', true],
    ]);
  });

  it('a person the page dropped stays current through a later Form 4 as officer', async () => {
    await projectRecords(a.context.dataSource, [dkngPage([['Jason D. Robins', 'Chief Executive Officer']], daysAgo(60))]);
    const body = (await get('/v1/companies/DKNG:US/executives')).json<Body>();
    expect(body.data.map((e) => [e.rank, e.name, (e.provenance as { source_provider: string; accession: string | null }).accession])).toEqual([
      [1, 'Jason D. Robins', null],
      [2, 'Dodge R Stanton', '0001104659-26-000101'],
      [3, 'Levin Harry Evans', '0001104659-26-000102'],
    ]);
    const firstPage = (await get('/v1/companies/DKNG:US/executives?limit=1')).json<Body>();
    expect(firstPage.data.map((e) => e.name)).toEqual(['Jason D. Robins']);
    // The merged roster pages too: the SEC entry standing in the page person's place, then the SEC-only director.
    const rest = (await get(`/v1/companies/DKNG:US/executives?limit=5&cursor=${firstPage.pagination.next_cursor!}`)).json<Body>();
    expect(rest.data.map((e) => [e.rank, e.name])).toEqual([[2, 'Dodge R Stanton'], [3, 'Levin Harry Evans']]);
    expect(rest.pagination).toEqual({ next_cursor: null, has_more: false });
  });
});

describe('GET /v1/companies/{symbol}/executives?as_of=', () => {
  const rows = (b: Body) => b.data.map((e) => [e.name, e.is_current]);

  it('issuer page: people a crawl had listed by the day, current while a crawl on or after it still listed them', async () => {
    // Crawls: 2026-01-15 (five people), 2026-02-15 (John D. Klopfenstein no longer listed).
    const before = (await get('/v1/companies/FRPH:US/executives?as_of=2026-01-10&current_only=false')).json<Body>();
    expect(before.data).toEqual([]);
    expect(before.as_of).toBe('2026-01-10');
    expect(before.gaps).toContainEqual({ code: 'as_of_before_first_crawl', detail: 'issuer page: first crawled on 2026-01-15, after as_of; before it only Form 4 filings answer' });

    const first = (await get('/v1/companies/FRPH:US/executives?as_of=2026-01-15&current_only=false')).json<Body>();
    expect(rows(first)).toContainEqual(['John D. Klopfenstein', true]);
    expect(first.data.every((e) => e.is_current)).toBe(true);
    expect(first.data).toHaveLength(5);

    // Between his last listing and the crawl that dropped him: which crawl dropped him is not kept.
    const between = (await get('/v1/companies/FRPH:US/executives?as_of=2026-01-31&current_only=false')).json<Body>();
    expect(rows(between)).toContainEqual(['John D. Klopfenstein', false]);
    expect(between.gaps).toContainEqual({
      code: 'as_of_drop_day_unknown',
      field: 'is_current',
      detail: expect.stringMatching(/^is_current: John D\. Klopfenstein \(last listed 2026-01-15\): dropped from the issuer page by a crawl between their last listing and 2026-02-15/),
    });
    expect((await get('/v1/companies/FRPH:US/executives?as_of=2026-01-31')).json<Body>().data.map((e) => e.name)).not.toContain('John D. Klopfenstein');

    const after = (await get('/v1/companies/FRPH:US/executives?as_of=2026-03-01&current_only=false')).json<Body>();
    expect(rows(after)).toContainEqual(['John D. Klopfenstein', false]);
    expect(after.gaps!.some((g) => g.code === 'as_of_drop_day_unknown')).toBe(false);
    expect(after.gaps![0]).toEqual({ code: 'as_of_rule', field: 'is_current', detail: expect.stringMatching(/^as_of 2026-03-01: is_current as of the day: an issuer-page person when/) });
  });

  it('IR contacts as of a day: the same page rule', async () => {
    expect((await get('/v1/companies/FRPH:US/executives?category=ir&as_of=2026-01-10')).json<Body>().data).toEqual([]);
    expect((await get('/v1/companies/FRPH:US/executives?category=ir&as_of=2026-01-20')).json<Body>().data.map((e) => e.name)).toEqual(['John Milton', 'David H. deVilliers']);
  });

  it('Form 4: the SEC roster from the filings filed by the day, current within the 18 months before it', async () => {
    // TSLA's Form 4 (period of report 2021-11-08, no filing date in the record) shows Musk Elon as CEO and director.
    expect((await get('/v1/companies/TSLA:US/executives?as_of=2021-11-07&current_only=false')).json<Body>().data).toEqual([]);
    const filed = (await get('/v1/companies/TSLA:US/executives?as_of=2021-12-31')).json<Body>();
    expect(filed.data.map((e) => [e.rank, e.name, e.role, e.is_current, (e.provenance as { accession: string }).accession])).toEqual([
      [1, 'Musk Elon', 'CEO, Director', true, '0000899243-21-044060'],
    ]);
    // 18 months after 2021-11-08 without a later Form 4: no longer current (as today).
    expect((await get('/v1/companies/TSLA:US/executives?as_of=2023-05-08')).json<Body>().data.map((e) => e.name)).toEqual(['Musk Elon']);
    expect(rows((await get('/v1/companies/TSLA:US/executives?as_of=2023-05-09&current_only=false')).json<Body>())).toEqual([['Musk Elon', false]]);
  });

  it('DKNG before its issuer page was crawled: the Form 4 of 2025-03-18 alone (Dodge R Stanton), none of the later ones', async () => {
    const body = (await get('/v1/companies/DKNG:US/executives?as_of=2025-06-30')).json<Body>();
    expect(body.data.map((e) => [e.rank, e.name, e.role, (e.provenance as { source_provider: string }).source_provider])).toEqual([
      [1, 'Dodge R Stanton', 'Chief Legal Officer', 'sec'],
    ]);
    expect(body.gaps).toContainEqual({ code: 'as_of_before_first_crawl', detail: expect.stringMatching(/^issuer page: first crawled on \d{4}-\d{2}-\d{2}, after as_of/) });
  });

  it('422 for a malformed or impossible day, in the Pydantic form', async () => {
    const bad = await get('/v1/companies/FRPH:US/executives?as_of=2026-1-5');
    expect(bad.statusCode).toBe(422);
    expect(bad.json<{ detail: Array<{ type: string; loc: unknown[] }> }>().detail.map((d) => [d.type, d.loc])).toEqual([['string_pattern_mismatch', ['query', 'as_of']]]);
    const impossible = await get('/v1/companies/FRPH:US/executives?as_of=2026-02-30');
    expect(impossible.statusCode).toBe(422);
    expect(impossible.json<{ detail: Array<{ type: string; loc: unknown[]; input: unknown }> }>().detail).toEqual([
      expect.objectContaining({ type: 'value_error', loc: ['query', 'as_of'], input: '2026-02-30' }),
    ]);
  });
});

describe('GET /v1/companies/{symbol}?as_of=: the name in force that day', () => {
  beforeAll(async () => {
    // TSLA's submissions JSON as the company@1 record carries it: former name TESLA MOTORS INC 2005-02-17 .. 2017-01-27.
    const s = parseSubmissions(readFileSync(join(defaultFixturesDir(), 'submissions/CIK0001318605.json')));
    const detail = {
      sec_name: s.name, entity_type: s.entityType, sic: s.sic, sic_description: s.sicDescription, category: s.category, fiscal_year_end: s.fiscalYearEnd,
      state_of_incorporation: s.stateOfIncorporation, country: s.country, website: s.website, investor_website: s.investorWebsite, description: s.description,
      ein: s.ein, lei: s.lei, phone: s.phone, tickers: s.tickers, exchanges: s.exchanges, former_names: s.formerNames, is_fund: false,
    };
    await a.context.dataSource.query(`UPDATE companies SET sec_detail = $1::jsonb WHERE symbol = 'TSLA:US'`, [JSON.stringify(detail)]);
  });

  it('TESLA MOTORS INC through 2017-01-27, Tesla, Inc. after; the other fields today\'s, named in gaps; no as_of: unchanged', async () => {
    const today = (await get('/v1/companies/TSLA:US')).json<{ name: string; former_names: unknown[]; gaps: Array<{ code: string; field?: string; detail: string }> }>();
    expect(today.name).toBe('Tesla, Inc.');
    expect(today).not.toHaveProperty('as_of');
    expect(today.former_names).toEqual([{ name: 'TESLA MOTORS INC', from: '2005-02-17', to: '2017-01-27' }]);
    const then = (await get('/v1/companies/TSLA:US?as_of=2016-12-30')).json<{ name: string; as_of: string; former_names: unknown[]; gaps: Array<{ code: string; field?: string; detail: string }> }>();
    expect(then.name).toBe('TESLA MOTORS INC');
    expect(then.as_of).toBe('2016-12-30');
    expect(then.former_names).toEqual(today.former_names);
    expect(then.gaps.slice(0, -1)).toEqual(today.gaps);
    expect(then.gaps[then.gaps.length - 1]!.code).toBe('as_of_not_point_in_time');
    expect(then.gaps[then.gaps.length - 1]!.detail).toMatch(/^as_of 2016-12-30: point in time: name .* not point in time: symbol, ticker, isin, lei, figi/);
    expect((await get('/v1/companies/TSLA:US?as_of=2017-01-28')).json<{ name: string }>().name).toBe('Tesla, Inc.');
  });

  it('422 for a bad day; an unknown parameter is still refused', async () => {
    expect((await get('/v1/companies/TSLA:US?as_of=2017-13-01')).statusCode).toBe(422);
    expect((await get('/v1/companies/TSLA:US?as_of=yesterday')).json<{ detail: Array<{ type: string }> }>().detail[0]!.type).toBe('string_pattern_mismatch');
    expect((await get('/v1/companies/TSLA:US?asof=2017-01-01')).json<{ detail: Array<{ type: string }> }>().detail[0]!.type).toBe('extra_forbidden');
  });
});
