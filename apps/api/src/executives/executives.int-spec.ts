import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { contentHash, recordId, stableStringify, type CompanyDescriptionData, type IssuerRosterData, type RecordEnvelope } from '@app/contracts';
import { createLogger } from '@app/observability';
import { projectCompanyDescription, projectIssuerRoster } from '@app/persistence';
import { createTestDatabase, type TestDatabase } from '@app/testing';
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
interface Body { company: Record<string, unknown>; data: Entry[] }

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
  await projectIssuerRoster(ds, executives);
  await projectIssuerRoster(ds, records.rosterIr);
  // A later crawl no longer lists the controller.
  const data = { ...executives.data, entries: executives.data.entries.filter((e) => e.name !== 'John D. Klopfenstein') };
  await projectIssuerRoster(ds, { ...executives, data, observed_at: '2026-02-15T10:00:00.000Z', id: recordId(executives.key, contentHash(stableStringify(data))) });
  await projectCompanyDescription(ds, records.description);
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
    expect(body).not.toHaveProperty('pagination');
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
    const body = (await get('/v1/companies/FRPH:US')).json<{ description: string; description_provenance: unknown; _gaps: string[] }>();
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
    expect(body._gaps.some((g) => g.startsWith('description:') || g.includes('description'))).toBe(false);
    const msft = (await get('/v1/companies/MSFT:US')).json<{ description: null; _gaps: string[] }>();
    expect(msft.description).toBeNull();
    expect(msft._gaps.some((g) => g.startsWith('description:'))).toBe(true);
  });
});
