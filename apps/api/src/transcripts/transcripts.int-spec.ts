// @infra-path: the only spec of its repository's SQL (libs/persistence): docker-compose.yml's postgres:17 in containers, the machine's (15 on CI) locally.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { contentHash, type DocumentTextData, type RecordEnvelope } from '@app/contracts';
import { createLogger } from '@app/observability';
import { projectRecords } from '@app/persistence';
import { createTestDatabase, type TestDatabase } from '@app/testing';
import type { TranscriptBody, TranscriptDetailBody } from '@app/resources';
import type { ApiContext } from '../api.context';
import { buildApiServer } from '../api.server';
import { apiConfigSchema } from '../config/api.config';

const DOCS = 'https://docs.test.example';

/** The document-text@1 record ingest-decks makes of the Citigroup Q4 2024 transcript PDF (the committed example). */
const citi = JSON.parse(
  readFileSync(join(__dirname, '../../../../libs/contracts/src/examples/document-text@1.citi-4q2024-transcript.json'), 'utf8'),
) as RecordEnvelope<DocumentTextData>;

/** The same call re-dated, at another URL of the same issuer: a second transcript to page and filter over. */
function redated(date: string): RecordEnvelope<DocumentTextData> {
  const url = citi.key.replace('4Q2024', `call-${date}`);
  const hash = contentHash(new TextEncoder().encode(url));
  return {
    ...citi,
    key: url,
    id: `rec_${date.replaceAll('-', '')}`,
    provenance: { ...citi.provenance, source_url: url, citation_url: url, content_hash: hash },
    data: { ...citi.data, url, transcript: { ...citi.data.transcript!, call: { ...citi.data.transcript!.call, date } } },
  };
}

/** The same PDF's text as ingest-decks maps it when the gate fails (no date known): kept a slide deck, with the reason. */
const gated: RecordEnvelope<DocumentTextData> = {
  ...citi,
  key: citi.key.replace('.pdf', '-undated.pdf'),
  id: 'rec_gated',
  provenance: { ...citi.provenance, content_hash: contentHash(new TextEncoder().encode('gated')) },
  data: { ...citi.data, url: citi.key.replace('.pdf', '-undated.pdf'), doc_type: 'slide_deck', doc_group: 'slide_deck', transcript: null, transcript_gate: "the call's date is not known" },
};

let db: TestDatabase;
let a: { server: FastifyInstance; context: ApiContext };
let key: string;
let freeKey: string;

interface Page<T> {
  data: T[];
  pagination: { next_cursor: string | null; has_more: boolean };
}

const get = (url: string, k: string | undefined = key) => a.server.inject({ method: 'GET', url, headers: k ? { authorization: `Bearer ${k}` } : {} });

beforeAll(async () => {
  db = await createTestDatabase('api_transcripts');
  const config = apiConfigSchema.parse({
    DATABASE_URL: db.url,
    API_KEY_PEPPER: 'pepper-'.repeat(6),
    CURSOR_SECRET: 'cursor-'.repeat(6),
    DOCS_URL: DOCS,
    LOG_LEVEL: 'silent',
    WEBHOOK_SECRETS_KEY: 'ab'.repeat(32),
    WEBHOOKS_ALLOW_HTTP: 'true',
    WEBHOOKS_ALLOW_PRIVATE_HOSTS: 'true',
    PLAN_ENTERPRISE_BURST_PER_SECOND: '1000000',
    PLAN_ENTERPRISE_DAILY_QUOTA: '100000000',
    PLAN_FREE_BURST_PER_SECOND: '1000000',
  });
  a = await buildApiServer(config, { logger: createLogger({ level: 'silent' }) });
  const ds = a.context.dataSource;
  await ds.query(
    `INSERT INTO companies (symbol, ticker, market, cik, name, issuer_id, provenance, record_id, data_hash, observed_at)
     VALUES ('C:US', 'C', 'US', '0000831001', 'CITIGROUP INC', 831001, $1::jsonb, 'rec_c', 'h', now()),
            ('MSFT:US', 'MSFT', 'US', '0000789019', 'MICROSOFT CORP', 789019, $1::jsonb, 'rec_msft', 'h', now())`,
    [JSON.stringify({ ...citi.provenance, source_provider: 'sec' })],
  );
  for (const r of [citi, redated('2024-10-15'), redated('2024-07-12'), gated]) await projectRecords(ds, [r]);
  await ds.query(`INSERT INTO accounts (id, name, plan) VALUES ('acct_e', 'e', 'enterprise'), ('acct_f', 'f', 'free')`);
  key = (await a.context.keys.createKey({ accountId: 'acct_e', mode: 'live', label: 't' })).key;
  freeKey = (await a.context.keys.createKey({ accountId: 'acct_f', mode: 'live', label: 't' })).key;
}, 120_000);

afterAll(async () => {
  await a?.server.close();
  await db?.drop();
});

describe('GET /v1/transcripts', () => {
  it('lists transcripts newest call first, keyset-paginated, asc on request', async () => {
    const first = await get('/v1/transcripts?limit=2');
    expect(first.statusCode).toBe(200);
    const page = first.json<Page<TranscriptBody>>();
    expect(page.data.map((t) => t.call.date)).toEqual(['2025-01-15', '2024-10-15']);
    expect(page.data[0]).toMatchObject({
      symbol: 'C:US',
      ticker: 'C',
      call: { company: 'Citi', title: 'Citi Fourth Quarter 2024 Earnings Call', date: '2025-01-15', date_source: 'document' },
      language: 'en',
      pages: 16,
      participant_count: 13,
      turn_count: 59,
      url: citi.key,
      provenance: { source_provider: 'issuer_page', citation_url: citi.key, accession: null, content_hash: citi.provenance.content_hash, quote: citi.data.transcript!.turns[0]!.quote },
    });
    expect(page.pagination.has_more).toBe(true);
    const next = await get(`/v1/transcripts?limit=2&cursor=${encodeURIComponent(page.pagination.next_cursor!)}`);
    expect(next.json<Page<TranscriptBody>>()).toMatchObject({ data: [{ call: { date: '2024-07-12' } }], pagination: { next_cursor: null, has_more: false } });
    const asc = await get('/v1/transcripts?direction=asc');
    expect(asc.json<Page<TranscriptBody>>().data.map((t) => t.call.date)).toEqual(['2024-07-12', '2024-10-15', '2025-01-15']);
  });

  it('filters by symbols and call dates', async () => {
    const dates = async (query: string) => (await get(`/v1/transcripts?${query}`)).json<Page<TranscriptBody>>().data.map((t) => t.call.date);
    expect(await dates('symbols=c:us')).toEqual(['2025-01-15', '2024-10-15', '2024-07-12']);
    expect(await dates('symbols=MSFT:US')).toEqual([]);
    expect(await dates('from=2024-10-15')).toEqual(['2025-01-15', '2024-10-15']);
    expect(await dates('to=2024-10-14')).toEqual(['2024-07-12']);
    expect(await dates('from=2024-08-01&to=2024-12-31&symbols=C:US')).toEqual(['2024-10-15']);
  });

  it('answers 422 for bad dates, a cursor of other filters and a limit over the plan\'s cap', async () => {
    const bad = await get('/v1/transcripts?from=2025-02-30');
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ detail: [{ type: 'value_error', loc: ['query', 'from'] }] });
    expect((await get('/v1/transcripts?from=2025-02-01&to=2025-01-01')).json()).toMatchObject({ detail: [{ loc: ['query', 'to'], msg: expect.stringContaining('to must not be before from') }] });
    const cursor = (await get('/v1/transcripts?limit=1')).json<Page<TranscriptBody>>().pagination.next_cursor!;
    expect((await get(`/v1/transcripts?limit=1&symbols=C:US&cursor=${encodeURIComponent(cursor)}`)).statusCode).toBe(422);
    const capped = await get('/v1/transcripts?limit=26', freeKey);
    expect(capped.statusCode).toBe(422);
    expect(capped.json()).toMatchObject({ detail: [{ type: 'less_than_equal', loc: ['query', 'limit'] }] });
    expect((await get('/v1/transcripts?symbol=C:US')).json()).toMatchObject({ detail: [{ type: 'extra_forbidden' }] });
  });
});

describe('GET /v1/transcripts/{transcript_id}', () => {
  it('serves the call, participants and turns whose text is the document text at their offsets', async () => {
    const [item] = (await get('/v1/transcripts?limit=1')).json<Page<TranscriptBody>>().data;
    const r = await get(`/v1/transcripts/${item!.id}`);
    expect(r.statusCode).toBe(200);
    const t = r.json<TranscriptDetailBody>();
    expect(t).toMatchObject({ ...item, sections: { presentation: 4, qa: 55 } });
    expect(t.participants).toHaveLength(13);
    expect(t.participants[0]).toEqual({ name: 'Jennifer Landis', role: 'Head of Citi Investor Relations', firm: null, kind: 'company', listed: true, quote: 'Jennifer Landis, Head of Citi Investor Relations' });
    expect(t.turns).toHaveLength(59);
    const text = (await get(`/v1/documents/${t.document_id}/text`)).json<{ text: string }>().text;
    t.turns.forEach((turn, i) => {
      expect(turn.index).toBe(i);
      expect(turn.text).toBe(text.slice(turn.char_start, turn.char_end));
      expect(turn.speaker).toBe(t.participants[turn.participant_index]!.name);
      expect(turn.citation_url).toBe(`${citi.key}#page=${turn.page_index + 1}`);
    });
    expect(t.turns.at(-1)).toMatchObject({ speaker: 'Operator', section: 'qa', text: "This concludes Citi's Fourth Quarter 2024 Earnings Call. You may now disconnect." });
    // The document itself is typed transcript.
    expect((await get(`/v1/documents/${t.document_id}`)).json()).toMatchObject({ doc_type: 'transcript', doc_group: 'earnings', transcript_gate: null });
  });

  it('leaves a look-alike that failed the gate a document, saying why', async () => {
    const docs = (await get('/v1/documents?symbols=C:US&limit=10')).json<Page<{ id: number; url: string; doc_type: string }>>().data;
    const doc = docs.find((d) => d.url === gated.key)!;
    expect(doc.doc_type).toBe('slide_deck');
    expect((await get(`/v1/documents/${doc.id}`)).json()).toMatchObject({ doc_type: 'slide_deck', transcript_gate: "the call's date is not known" });
    expect((await get('/v1/transcripts?limit=10')).json<Page<TranscriptBody>>().data.map((t) => t.url)).not.toContain(gated.key);
  });

  it('answers 404 unknown-transcript, and 422 for an id that is no integer', async () => {
    const r = await get('/v1/transcripts/999999');
    expect(r.statusCode).toBe(404);
    expect(r.json()).toMatchObject({ type: `${DOCS}/errors/unknown-transcript`, title: 'Unknown transcript', detail: 'No transcript with the id 999999 has been published.' });
    expect((await get('/v1/transcripts/abc')).statusCode).toBe(422);
  });
});

describe('transcript.published test event and coverage', () => {
  it('sends the newest transcript as the API serves it', async () => {
    const created = await a.server.inject({
      method: 'POST',
      url: '/v1/webhook-endpoints',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload: { url: 'http://127.0.0.1:9/hook', topics: ['transcript.published'] },
    });
    expect(created.statusCode).toBe(201);
    const r = await a.server.inject({
      method: 'POST',
      url: `/v1/webhook-endpoints/${created.json<{ id: string }>().id}/test`,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload: { topic: 'transcript.published' },
    });
    expect(r.statusCode).toBe(202);
    const [row] = await a.context.dataSource.query<Array<{ type: string; data: unknown }>>(`SELECT type, data FROM webhook_events WHERE id = $1`, [r.json<{ event_id: string }>().event_id]);
    const [item] = (await get('/v1/transcripts?limit=1')).json<Page<TranscriptBody>>().data;
    expect(row).toEqual({ type: 'transcript.published', data: (await get(`/v1/transcripts/${item!.id}`)).json() });
  });

  it('counts the issuer\'s transcripts in its coverage', async () => {
    const r = await get('/v1/coverage/C:US');
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ datasets: { transcripts: { count: 3, first_date: '2024-07-12', latest_date: '2025-01-15', gaps: [] } } });
    const msft = (await get('/v1/coverage/MSFT:US')).json<{ datasets: { transcripts: { count: number; gaps: Array<{ code: string }> } } }>();
    expect(msft.datasets.transcripts).toMatchObject({ count: 0, gaps: [{ code: 'no_transcripts' }] });
  });
});
