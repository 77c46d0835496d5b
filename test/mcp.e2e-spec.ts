// The MCP endpoint end to end: every fixture ingested through the real pipeline (see
// test/support/fixture-platform.ts), then /mcp driven over real HTTP by the SDK's own client. Every
// tool's result must be the REST response for the same arguments (the structured content, and the
// same JSON as text; a long text read in slices reassembles to REST's); cursors cross between the
// two; errors are the REST problems; auth and rate limits are REST's; tools/list and every tool's
// answer at its defaults stay small enough for agent hosts.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { SLICE_DEFAULT_CHARS } from '../apps/api/src/mcp/mcp.answer';
import { startFixturePlatform, type FixturePlatform } from './support/fixture-platform';

const PUBLIC_BASE_URL = 'https://api.filings.test';
const DOCS = 'https://docs.filings.test';
/** Free plan: 3 requests a day, so a client is refused on its first call (initialize, its notification, tools/list). */
const FREE_DAILY_QUOTA = 3;

type Json = Record<string, unknown>;
interface Page {
  data: Json[];
  pagination: { next_cursor: string | null; has_more: boolean };
}

/** The tools whose long text comes in slices (offset, max_chars; the answer's offset, total_chars, next_offset). */
const SLICED = new Set(['get_10k_section', 'get_transcript']);
/** Most characters of any answer at its defaults (agent hosts refuse results above about 25,000 tokens). */
const ANSWER_MAX_CHARS = 100_000;
/** Most characters of a list page or a slice at its defaults (about 20,000 plus the items' metadata). */
const SLICE_ANSWER_MAX_CHARS = 25_000;

let platform: FixturePlatform;
let client: Client;
let tools: Tool[];
const called = new Set<string>();

async function connect(key?: string): Promise<Client> {
  const c = new Client({ name: 'mcp-e2e', version: '1.0.0' });
  const requestInit = key ? { headers: { authorization: `Bearer ${key}` } } : undefined;
  await c.connect(new StreamableHTTPClientTransport(new URL(`${platform.url}/mcp`), { requestInit }));
  return c;
}

async function rest(path: string, body?: unknown): Promise<{ status: number; text: string; json: Json }> {
  const r = await fetch(`${platform.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${platform.key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, text, json: JSON.parse(text) as Json };
}

async function call(name: string, args: Json): Promise<CallToolResult> {
  called.add(name);
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The text content of a successful result is its structured content, serialized without indentation. */
function structured(result: CallToolResult): Json {
  expect(result.isError).toBeFalsy();
  const content = result.content as { type: string; text: string }[];
  expect(content).toHaveLength(1);
  expect(content[0]!.type).toBe('text');
  expect(JSON.parse(content[0]!.text)).toEqual(result.structuredContent);
  expect(content[0]!.text).toBe(JSON.stringify(result.structuredContent));
  return result.structuredContent as Json;
}

interface Slice {
  offset: number;
  total_chars: number;
  next_offset: number | null;
}

/**
 * A sliced tool's answers from offset 0, following next_offset, put back together: the section's
 * text joined; a transcript's turn parts joined per turn (char_start of its first part, char_end
 * of its last). The slice fields are dropped, so the result is comparable with the REST body.
 */
async function readWhole(name: string, args: Json): Promise<{ body: Json; slices: number }> {
  const answers: (Json & Slice)[] = [];
  let offset: number | null = 0;
  while (offset !== null && answers.length < 100) {
    const answer = structured(await call(name, { ...args, offset })) as Json & Slice;
    expect(answer.offset).toBe(offset);
    answers.push(answer);
    offset = answer.next_offset;
  }
  expect(offset).toBeNull();
  const { offset: _offset, total_chars: total, next_offset: _next, ...first } = answers[0]!;
  let body: Json;
  let length: number;
  if (name === 'get_10k_section') {
    const text = first.text === null ? null : answers.map((a) => a.text as string).join('');
    body = { ...first, text };
    length = text?.length ?? 0;
  } else {
    type Turn = Json & { index: number; text: string; char_end: number };
    const turns = new Map<number, Turn>();
    for (const turn of answers.flatMap((a) => a.turns as Turn[])) {
      const seen = turns.get(turn.index);
      turns.set(turn.index, seen ? { ...seen, text: seen.text + turn.text, char_end: turn.char_end } : turn);
    }
    body = { ...first, turns: [...turns.values()] };
    length = [...turns.values()].reduce((n, turn) => n + turn.text.length, 0);
  }
  for (const answer of answers) expect(answer.total_chars).toBe(total);
  expect(length).toBe(total);
  return { body, slices: answers.length };
}

/**
 * Calls the tool and the REST route: the structured content is the REST body, and the text the
 * same JSON (a sliced tool's answers, read to the end, reassemble to it). `clock`: a top-level
 * field stamped with the time of the request (compared as a time).
 */
async function same<T = Json>(name: string, args: Json, path: string, options: { body?: unknown; clock?: string } = {}): Promise<T> {
  const body = SLICED.has(name) ? (await readWhole(name, args)).body : structured(await call(name, args));
  const r = await rest(path, options.body);
  expect(r.status).toBe(200);
  if (options.clock) {
    const stamp = (v: unknown) => ({ ...(v as Json), [options.clock!]: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) });
    expect(body).toEqual(stamp(r.json));
    expect(Object.keys(body)).toEqual(Object.keys(r.json));
  } else {
    expect(body).toEqual(r.json);
    expect(JSON.stringify(body)).toBe(r.text);
  }
  return body as T;
}

/** The problem a failed call carries as text (never as structured content, which the output schema describes). */
function problemOf(result: CallToolResult): Json {
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  const content = result.content as { type: string; text: string }[];
  expect(content).toHaveLength(1);
  const problem = JSON.parse(content[0]!.text) as Json;
  expect(problem.request_id).toMatch(/^req_/);
  return problem;
}

/** The problem of a failed call is REST's for the same request (request ids differ). */
async function sameProblem(name: string, args: Json, path: string): Promise<Json> {
  const problem = problemOf(await call(name, args));
  const r = await rest(path);
  expect({ ...problem, request_id: '' }).toEqual({ ...r.json, request_id: '' });
  return problem;
}

beforeAll(async () => {
  platform = await startFixturePlatform({
    prefix: 'mcp_e2e',
    apiEnv: {
      PUBLIC_BASE_URL,
      DOCS_URL: DOCS,
      PLAN_ENTERPRISE_BURST_PER_SECOND: '100000',
      PLAN_ENTERPRISE_DAILY_QUOTA: '10000000',
      PLAN_FREE_DAILY_QUOTA: String(FREE_DAILY_QUOTA),
    },
  });
  client = await connect(platform.key);
  tools = (await client.listTools()).tools;
}, 900_000);

afterAll(async () => {
  await client?.close();
  await platform?.close();
});

describe('MCP over Streamable HTTP, on the ingested fixtures', () => {
  it('lists the read-only tools with input and output schemas', () => {
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining([
        'search_companies',
        'get_company',
        'get_executives',
        'get_segments',
        'get_10k_section',
        'get_fund_exposure',
        'list_filings',
        'get_filing',
        'list_insider_transactions',
        'list_documents',
        'get_document',
        'get_document_pages',
        'list_transcripts',
        'get_transcript',
        'verify_citation',
        'get_coverage',
        'search',
        'get_institutional_holders',
        'search_institutions',
        'get_institution_holdings',
      ]),
    );
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, openWorldHint: tool.name === 'verify_citation' });
    }
  });

  it('answers companies, rosters, segments and fund exposure exactly as REST', async () => {
    const found = await same<Page>('search_companies', { q: 'tesla', limit: 5 }, '/v1/companies?q=tesla&limit=5');
    expect(found.data.map((c) => c.symbol)).toContain('TSLA:US');
    const msft = await same('get_company', { symbol: 'MSFT:US' }, '/v1/companies/MSFT:US');
    expect(msft).toMatchObject({ name: 'MICROSOFT CORP', cik: '0000789019' });
    const ir = await same<Page>('get_executives', { symbol: 'FRPH:US', category: 'ir' }, '/v1/companies/FRPH:US/executives?category=ir');
    expect(ir.data).toEqual([expect.objectContaining({ name: 'John Milton', category: 'ir' })]);
    const tsla = await same<Page>('get_executives', { symbol: 'TSLA:US', current_only: false }, '/v1/companies/TSLA:US/executives?current_only=false');
    expect(tsla.data.length).toBeGreaterThan(0);
    const segments = await same<Page>('get_segments', { symbol: 'TSLA:US', unit: 'million', limit: 5 }, '/v1/companies/TSLA:US/segments?unit=million&limit=5');
    expect(segments.data).toHaveLength(5);
    const business = await same<Json>('get_10k_section', { symbol: 'TSLA:US', item: '1' }, '/v1/companies/TSLA:US/sections/1');
    expect(business).toMatchObject({ item: '1', status: 'extracted', heading: 'ITEM 1. BUSINESS' });
    const hits = await same<Page>('search', { q: 'microsoft', limit: 5 }, '/v1/search?q=microsoft&limit=5');
    expect(hits.data.map((h) => h.symbol)).toContain('MSFT:US');
    const pages = await same<Page>('search', { q: 'FRP Holdings', kinds: ['document_page'], limit: 2 }, '/v1/search?q=FRP%20Holdings&kinds=document_page&limit=2');
    expect(pages.data.length).toBeGreaterThan(0);
    const exposure = await same<Page>('get_fund_exposure', { symbol: 'MSFT:US', limit: 3 }, '/v1/companies/MSFT:US/fund-exposure?limit=3');
    expect(exposure.data.length).toBeGreaterThan(0);
    const coverage = await same<Json>('get_coverage', { symbol: 'MSFT:US' }, '/v1/coverage/MSFT:US', { clock: 'generated_at' });
    expect(coverage).toMatchObject({ symbol: 'MSFT:US' });
  });

  it('answers filings and insider transactions exactly as REST, on both filings routes', async () => {
    const tenKs = await same<Page>('list_filings', { symbol: 'MSFT:US', forms: ['10-K'], limit: 3 }, '/v1/companies/MSFT:US/filings?forms=10-K&limit=3');
    expect(tenKs.data).toHaveLength(3);
    expect(tenKs).toHaveProperty('company.symbol', 'MSFT:US');
    const form4s = await same<Page>('list_filings', { ciks: ['789019'], forms: ['4'], limit: 2, direction: 'asc' }, '/v1/filings?ciks=789019&forms=4&limit=2&direction=asc');
    expect(form4s.data).toHaveLength(2);
    expect(form4s).not.toHaveProperty('company');
    const accession = tenKs.data[0]!.accession as string;
    await same('get_filing', { accession }, `/v1/filings/${accession}`);
    const insiders = await same<Page>('list_insider_transactions', { symbol: 'TSLA:US', limit: 5 }, '/v1/companies/TSLA:US/insiders?limit=5');
    expect(insiders.data.length).toBeGreaterThan(0);
  });

  it('answers documents and their pages exactly as REST', async () => {
    const docs = await same<Page>('list_documents', { symbol: 'FRPH:US', limit: 50 }, '/v1/documents?symbols=FRPH:US&limit=50');
    const withText = docs.data.find((d) => typeof d.pages === 'number' && d.pages > 0)!;
    expect(withText).toBeDefined();
    const id = withText.id as number;
    const detail = await same('get_document', { document_id: id }, `/v1/documents/${id}`);
    expect(detail).toMatchObject({ id, page_count: withText.pages });
    const first = await same<Page>('get_document_pages', { document_id: id, page: 0 }, `/v1/documents/${id}/pages?page=0&limit=5`);
    expect(first.data).toEqual([expect.objectContaining({ document_id: id, page_index: 0 })]);
  });

  it('answers call transcripts exactly as REST', async () => {
    const list = await same<Page>('list_transcripts', { symbol: 'C:US' }, '/v1/transcripts?symbols=C:US&limit=25');
    expect(list.data).toEqual([expect.objectContaining({ ticker: 'C', turn_count: 59 })]);
    const id = list.data[0]!.id as number;
    const transcript = await same<Json>('get_transcript', { transcript_id: id }, `/v1/transcripts/${id}`);
    expect(transcript).toMatchObject({ id, sections: { presentation: 4, qa: 55 } });
    const unknown = await sameProblem('get_transcript', { transcript_id: 999999 }, '/v1/transcripts/999999');
    expect(unknown).toMatchObject({ status: 404, type: `${DOCS}/errors/unknown-transcript` });
  });

  it("reads Tesla's Item 1A in slices that reassemble exactly to the REST section", async () => {
    const whole = (await rest('/v1/companies/TSLA:US/sections/1A')).json;
    expect((whole.text as string).length).toBe(79_724);
    const first = structured(await call('get_10k_section', { symbol: 'TSLA:US', item: '1A' })) as Json & Slice;
    expect(first).toMatchObject({ offset: 0, total_chars: 79_724, next_offset: SLICE_DEFAULT_CHARS });
    expect((first.text as string).length).toBe(SLICE_DEFAULT_CHARS);
    for (const max_chars of [SLICE_DEFAULT_CHARS, 30_000, 100_000]) {
      const { body, slices } = await readWhole('get_10k_section', { symbol: 'TSLA:US', item: '1A', max_chars });
      expect(slices).toBe(Math.ceil(79_724 / max_chars));
      expect(body.text).toBe(whole.text);
      expect(body).toEqual(whole);
    }
  });

  it('reads a call transcript in slices whose turns reassemble exactly to the REST transcript', async () => {
    const list = (await rest('/v1/transcripts?symbols=C:US')).json as unknown as Page;
    const id = list.data[0]!.id as number;
    const whole = (await rest(`/v1/transcripts/${id}`)).json as Json & { turns: { text: string }[] };
    const total = whole.turns.reduce((n, turn) => n + turn.text.length, 0);
    const { body, slices } = await readWhole('get_transcript', { transcript_id: id, max_chars: 10_000 });
    expect(slices).toBe(Math.ceil(total / 10_000));
    expect(body).toEqual(whole);
    // Every part a slice holds is the document text at its offsets.
    const documentText = (await rest(`/v1/documents/${whole.document_id as number}/text`)).json.text as string;
    const second = structured(await call('get_transcript', { transcript_id: id, offset: 10_000, max_chars: 10_000 })) as Json & { turns: { text: string; char_start: number; char_end: number }[] };
    expect(second.turns.length).toBeGreaterThan(0);
    for (const turn of second.turns) expect(documentText.slice(turn.char_start, turn.char_end)).toBe(turn.text);
  });

  it('verifies a citation taken from a REST response exactly as REST does', async () => {
    const company = (await rest('/v1/companies/MSFT:US')).json;
    const provenance = company.provenance as Json;
    const verdict = await same('verify_citation', { provenance }, '/v1/citations/verify', { body: { provenance } });
    expect(verdict).toMatchObject({ verified: true, content_hash_matches: true, quote_found: true, reason: 'verified' });
    const altered = { ...provenance, quote: `${provenance.quote as string} (not in the source)` };
    const refused = await same('verify_citation', { provenance: altered }, '/v1/citations/verify', { body: { provenance: altered } });
    expect(refused).toMatchObject({ verified: false, quote_found: false, reason: 'quote_not_found' });
  });

  it('continues a tool cursor on REST and a REST cursor with the tool', async () => {
    const page1 = await same<Page>('list_filings', { symbol: 'MSFT:US', limit: 2 }, '/v1/companies/MSFT:US/filings?limit=2');
    const cursor = page1.pagination.next_cursor!;
    expect(cursor).toEqual(expect.any(String));
    const page2 = await same<Page>('list_filings', { symbol: 'MSFT:US', limit: 2, cursor }, `/v1/companies/MSFT:US/filings?limit=2&cursor=${encodeURIComponent(cursor)}`);
    expect(page2.data[0]!.accession).not.toBe(page1.data[0]!.accession);

    const restPage1 = (await rest('/v1/companies?q=corp&limit=3')).json as unknown as Page;
    const restCursor = restPage1.pagination.next_cursor!;
    const toolPage2 = await same<Page>('search_companies', { q: 'corp', limit: 3, cursor: restCursor }, `/v1/companies?q=corp&limit=3&cursor=${encodeURIComponent(restCursor)}`);
    expect((toolPage2.data[0]!.symbol as string) > (restPage1.data[2]!.symbol as string)).toBe(true);

    const docs = (await rest('/v1/documents?symbols=FRPH:US&limit=50')).json as unknown as Page;
    const id = docs.data.find((d) => typeof d.pages === 'number' && d.pages > 2)!.id as number;
    const pages = await same<Page>('get_document_pages', { document_id: id, limit: 2 }, `/v1/documents/${id}/pages?limit=2`);
    const c = pages.pagination.next_cursor!;
    const next = await same<Page>('get_document_pages', { document_id: id, limit: 2, cursor: c }, `/v1/documents/${id}/pages?limit=2&cursor=${encodeURIComponent(c)}`);
    expect(next.data.map((p) => p.page_index)).toEqual([2, 3]);
  });

  it('answers unknown symbols and documents with the REST problem', async () => {
    const unknown = await sameProblem('get_company', { symbol: 'ZZZZZ:US' }, '/v1/companies/ZZZZZ:US');
    expect(unknown).toMatchObject({ type: `${DOCS}/errors/unknown-symbol`, status: 404, instance: '/v1/companies/ZZZZZ:US', detail: expect.stringContaining('ZZZZZ:US') });
    await sameProblem('get_segments', { symbol: 'ZZZZZ:US' }, '/v1/companies/ZZZZZ:US/segments');
    const doc = await sameProblem('get_document', { document_id: 999999 }, '/v1/documents/999999');
    expect(doc.status).toBe(404);
  });

  it('answers bad arguments with the validation problem REST answers', async () => {
    const pattern = await sameProblem('get_company', { symbol: 'MSFT' }, '/v1/companies/MSFT');
    expect(pattern).toMatchObject({ type: `${DOCS}/errors/validation-error`, status: 422, detail: [expect.objectContaining({ type: 'string_pattern_mismatch', loc: ['path', 'symbol'] })] });
    // The same item, with the input as the caller sent it: a number here, a string in a query string.
    const limit = problemOf(await call('search_companies', { limit: 501 }));
    const restLimit = (await rest('/v1/companies?limit=501')).json;
    const [item] = limit.detail as Json[];
    expect(item).toMatchObject({ type: 'less_than_equal', loc: ['query', 'limit'], ctx: { le: 500 }, input: 501 });
    expect({ ...limit, request_id: '', detail: [{ ...item, input: '501' }] }).toEqual({ ...restLimit, request_id: '' });
    const cursor = await sameProblem('list_filings', { symbol: 'MSFT:US', cursor: 'garbage' }, '/v1/companies/MSFT:US/filings?cursor=garbage');
    expect(cursor.detail).toEqual([expect.objectContaining({ type: 'value_error', loc: ['query', 'cursor'] })]);

    // Typed arguments: a string where REST's query string would carry a number is refused before the route.
    expect(problemOf(await call('search_companies', { limit: 'ten', ticker: 'MSFT' }))).toMatchObject({
      type: `${DOCS}/errors/validation-error`,
      status: 422,
      detail: expect.arrayContaining([
        expect.objectContaining({ type: 'int_type', loc: ['query', 'limit'], input: 'ten' }),
        expect.objectContaining({ type: 'extra_forbidden', loc: ['arguments', 'ticker'] }),
      ]),
    });
  });

  it('answers 401 without a key, with the protected-resource metadata in the challenge', async () => {
    const r = await fetch(`${platform.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${PUBLIC_BASE_URL}/.well-known/oauth-protected-resource"`);
    expect(await r.json()).toMatchObject({ type: `${DOCS}/errors/invalid-key`, status: 401 });
    await expect(connect()).rejects.toThrow();

    const metadata = await fetch(`${platform.url}/.well-known/oauth-protected-resource`);
    expect(metadata.status).toBe(200);
    expect(await metadata.json()).toEqual({
      resource: `${PUBLIC_BASE_URL}/mcp`,
      resource_name: 'Filings platform MCP server',
      resource_documentation: `${PUBLIC_BASE_URL}/docs`,
      bearer_methods_supported: ['header'],
    });
  });

  it('refuses a key whose daily quota is spent with 429, Retry-After and the X-RateLimit headers', async () => {
    const key = await platform.newKey('free');
    const limited = await connect(key);
    try {
      await limited.listTools();
      await expect(limited.callTool({ name: 'get_company', arguments: { symbol: 'MSFT:US' } })).rejects.toMatchObject({ code: 429 });
    } finally {
      await limited.close();
    }
    const r = await fetch(`${platform.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_company', arguments: { symbol: 'MSFT:US' } } }),
    });
    expect(r.status).toBe(429);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(r.headers.get('x-ratelimit-limit')).toBe(String(FREE_DAILY_QUOTA));
    expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(await r.json()).toMatchObject({ type: `${DOCS}/errors/rate-limited`, status: 429 });
    // The same key is refused on REST: one quota for both surfaces.
    expect((await fetch(`${platform.url}/v1/companies/MSFT:US`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(429);
  });

  it('lists its tools in under 56,000 characters', async () => {
    const listed = JSON.stringify(await client.listTools());
    console.log(`MCP tools/list: ${listed.length} characters`);
    expect(listed.length).toBeLessThan(56_000);
  });

  it('answers every tool at its defaults on the fixture data in under 100,000 characters (list pages and slices under 25,000), as REST does with the same page size', async () => {
    const sizes: Record<string, number> = {};
    const measure = async (name: string, args: Json, path: string, options: { body?: unknown; clock?: string } = {}): Promise<Json> => {
      const body = await same(name, args, path, options);
      // An answer's size: its text, which is its structured content's JSON (the result carries both).
      const result = JSON.stringify(structured(await call(name, args)));
      const label = `${name} ${JSON.stringify(args).slice(0, 60)}`;
      sizes[label] = result.length;
      // A list page or a slice at its defaults stays near 20,000; a single resource holds what it holds.
      const bound = SLICED.has(name) || result.includes('"pagination":') ? SLICE_ANSWER_MAX_CHARS : ANSWER_MAX_CHARS;
      expect({ call: label, chars: result.length < bound }).toEqual({ call: label, chars: true });
      return body;
    };
    // The tool's default page size (tools/list advertises it) is what REST is asked for.
    const defaultLimit = (name: string): string => {
      const limit = (tools.find((t) => t.name === name)!.inputSchema.properties as Record<string, { default?: number }>).limit?.default;
      return limit === undefined ? '' : `limit=${limit}`;
    };
    const q = (name: string, ...params: string[]) => {
      const all = [...params, defaultLimit(name)].filter(Boolean);
      return all.length ? `?${all.join('&')}` : '';
    };
    await measure('search_companies', {}, `/v1/companies${q('search_companies')}`);
    for (const symbol of ['MSFT:US', 'TSLA:US', 'FRPH:US', 'AAPL:US', 'NVDA:US']) {
      await measure('get_company', { symbol }, `/v1/companies/${symbol}`);
      await measure('get_executives', { symbol }, `/v1/companies/${symbol}/executives${q('get_executives')}`);
      await measure('get_segments', { symbol }, `/v1/companies/${symbol}/segments${q('get_segments')}`);
      await measure('get_fund_exposure', { symbol }, `/v1/companies/${symbol}/fund-exposure${q('get_fund_exposure')}`);
      await measure('list_filings', { symbol }, `/v1/companies/${symbol}/filings${q('list_filings')}`);
      await measure('list_insider_transactions', { symbol }, `/v1/companies/${symbol}/insiders${q('list_insider_transactions')}`);
      await measure('list_documents', { symbol }, `/v1/documents${q('list_documents', `symbols=${symbol}`)}`);
      await measure('get_coverage', { symbol }, `/v1/coverage/${symbol}`, { clock: 'generated_at' });
    }
    // Tesla's 10-K is the one the fixtures read: Item 1A is 79,724 characters, 4 slices at the default.
    for (const item of ['1', '1A', '7']) await measure('get_10k_section', { symbol: 'TSLA:US', item }, `/v1/companies/TSLA:US/sections/${item}`);
    // Facts and statements of the company-facts files the fixtures load (LPA, IFRS, has no listed symbol here).
    for (const symbol of ['AAPL:US', 'GOOGL:US', 'SNOW:US']) {
      for (const statement of ['income', 'balance', 'cash_flow']) {
        await measure('get_financials', { symbol, statement }, `/v1/companies/${symbol}/financials${q('get_financials', `statement=${statement}`)}`);
      }
      await measure('get_facts', { symbol, concept: 'us-gaap:NetIncomeLoss' }, `/v1/companies/${symbol}/facts${q('get_facts', 'concept=us-gaap:NetIncomeLoss')}`);
    }
    const filings = (await measure('list_filings', {}, `/v1/filings${q('list_filings')}`)) as unknown as Page;
    await measure('get_filing', { accession: filings.data[0]!.accession }, `/v1/filings/${filings.data[0]!.accession as string}`);
    const documents = (await measure('list_documents', {}, `/v1/documents${q('list_documents')}`)) as unknown as Page;
    const all = (await rest('/v1/documents?limit=500')).json as unknown as Page;
    for (const doc of all.data) {
      await measure('get_document', { document_id: doc.id }, `/v1/documents/${doc.id as number}`);
      if (typeof doc.pages === 'number' && doc.pages > 0) await measure('get_document_pages', { document_id: doc.id }, `/v1/documents/${doc.id as number}/pages${q('get_document_pages')}`);
    }
    const transcripts = (await measure('list_transcripts', {}, `/v1/transcripts${q('list_transcripts')}`)) as unknown as Page;
    for (const t of transcripts.data) await measure('get_transcript', { transcript_id: t.id }, `/v1/transcripts/${t.id as number}`);
    expect(documents.data.length).toBeGreaterThan(0);
    for (const words of ['FRP Holdings', 'microsoft', 'revenue', 'Tesla']) {
      await measure('search', { q: words }, `/v1/search${q('search', `q=${encodeURIComponent(words)}`)}`);
    }
    // 13F: MSFT's holders (matched through the N-PORT crosswalk), a CUSIP, the managers and a portfolio.
    const holders = (await measure('get_institutional_holders', { symbol: 'MSFT:US' }, `/v1/companies/MSFT:US/institutional-holders${q('get_institutional_holders')}`)) as unknown as Page;
    expect(holders.data.length).toBeGreaterThan(0);
    await measure('get_institutional_holders', { cusip: '023135106' }, `/v1/securities/023135106/institutional-holders${q('get_institutional_holders')}`);
    const managers = (await measure('search_institutions', {}, `/v1/institutions${q('search_institutions')}`)) as unknown as Page;
    for (const m of managers.data) {
      const cik = m.cik as string;
      await measure('get_institution_holdings', { cik }, `/v1/institutions/${cik}/holdings${q('get_institution_holdings')}`);
    }
    const provenance = (await rest('/v1/companies/MSFT:US')).json.provenance as Json;
    await measure('verify_citation', { provenance }, '/v1/citations/verify', { body: { provenance } });
    console.log(`MCP answers at their defaults (characters), largest first:\n${Object.entries(sizes).sort((a, b) => b[1] - a[1]).slice(0, 15).map(([k, v]) => `  ${v}  ${k}`).join('\n')}`);
    expect(Object.keys(sizes).length).toBeGreaterThan(40);
  });

  it('called every listed tool', () => {
    expect([...called].sort()).toEqual(tools.map((t) => t.name).sort());
  });
});
