import { DOCUMENTED_ROUTES } from '../openapi/openapi.document';
import { ValidationError, type ValidationItem } from '../platform/api.errors';
import { QueryParser } from '../platform/query.validation';
import type { RouteDefinition } from '../platform/route.registry';
import { compileTools, MCP_TOOLS, restInstance, toRestCall, type CompiledTool } from './mcp.tools';

const tools = new Map(compileTools(MCP_TOOLS, DOCUMENTED_ROUTES).map((t) => [t.spec.name, t]));
const tool = (name: string): CompiledTool => {
  const t = tools.get(name);
  if (!t) throw new Error(`no tool ${name}`);
  return t;
};
const route = (operationId: string): RouteDefinition => DOCUMENTED_ROUTES.find((r) => r.operationId === operationId)!;

function itemsOf(name: string, args: Record<string, unknown>): ValidationItem[] {
  try {
    toRestCall(tool(name), args);
  } catch (err) {
    if (err instanceof ValidationError) return err.items;
    throw err;
  }
  throw new Error('expected a ValidationError');
}

/** The item REST answers for the same value sent as a query or path parameter. */
function restItem(operationId: string, where: 'query' | 'path', param: string, value: string): ValidationItem {
  const items: ValidationItem[] = [];
  new QueryParser(route(operationId)[where]!).parse({ [param]: value }, items, where);
  return items[0]!;
}

describe('the MCP tool table', () => {
  it('resolves every tool to documented REST operations', () => {
    const documented = new Set(DOCUMENTED_ROUTES.map((r) => r.operationId));
    for (const spec of MCP_TOOLS) expect(spec.operations.filter((id) => !documented.has(id))).toEqual([]);
    expect([...tools.keys()]).toEqual(
      expect.arrayContaining([
        'search_companies',
        'get_company',
        'get_executives',
        'get_segments',
        'get_10k_section',
        'get_fund_exposure',
        'list_filings',
        'list_insider_transactions',
        'list_documents',
        'get_document_pages',
        'get_document',
        'list_transcripts',
        'get_transcript',
        'get_filing',
        'verify_citation',
        'get_coverage',
        'search',
      ]),
    );
    expect(new Set(MCP_TOOLS.map((t) => t.name)).size).toBe(MCP_TOOLS.length);
  });

  it('refuses a required tool whose route is missing, and a tool over a write route', () => {
    const withoutCompany = DOCUMENTED_ROUTES.filter((r) => r.operationId !== 'getCompany');
    expect(() => compileTools(MCP_TOOLS, withoutCompany)).toThrow(/get_company: no route with operationId getCompany/);
    const write = { method: 'PATCH', url: '/v1/x', operationId: 'patchX', summary: '', tags: [] } satisfies RouteDefinition;
    expect(() => compileTools([{ name: 'x', title: 'x', description: 'x', operations: ['patchX'] }], [write])).toThrow(/read-only/);
  });

  it('takes a verify_citation body as its arguments, validated by the route', () => {
    const call = toRestCall(tool('verify_citation'), { provenance: { source_url: 'https://www.sec.gov/x', quote: 'q', content_hash: 'sha256:00' } });
    expect(call).toEqual({ operationId: 'verifyCitation', params: {}, query: {}, body: { provenance: { source_url: 'https://www.sec.gov/x', quote: 'q', content_hash: 'sha256:00' } }, instance: '/v1/citations/verify' });
    const schema = tool('verify_citation').definition.inputSchema as unknown as { required: string[]; properties: { provenance: { required: string[] } } };
    expect(schema.required).toEqual(['provenance']);
    expect(schema.properties.provenance.required).toEqual(expect.arrayContaining(['source_url', 'quote', 'content_hash']));
  });

  it('advertises object input and output schemas and read-only annotations for every tool', () => {
    for (const t of tools.values()) {
      const d = t.definition;
      expect(d.inputSchema.type).toBe('object');
      expect(d.outputSchema.type).toBe('object');
      expect(d.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, openWorldHint: t.spec.name === 'verify_citation' });
    }
    const pages = tool('get_document_pages').definition.inputSchema as unknown as { required: string[]; properties: Record<string, Record<string, unknown>>; additionalProperties: boolean };
    expect(pages.required).toEqual(['document_id']);
    expect(pages.properties.document_id).toMatchObject({ type: 'integer', minimum: 1 });
    expect(pages.properties.page).toMatchObject({ type: 'integer', minimum: 0 });
    expect(pages.properties.limit).toMatchObject({ type: 'integer', maximum: 500, default: 2 });
    expect(pages.additionalProperties).toBe(false);
    const companies = tool('search_companies').definition.inputSchema as unknown as { required?: string[]; properties: Record<string, Record<string, unknown>> };
    expect(companies.required ?? []).toEqual([]);
    expect(companies.properties.tickers).toMatchObject({ type: 'array', items: { type: 'string' } });
    expect(companies.properties.active_only).toMatchObject({ type: 'boolean', default: true });
    expect(tool('get_company').definition.outputSchema.properties).toHaveProperty('description_provenance');
  });

  // 22 tools at about 2,500 characters each (37.2k for 17 when the budget was set; the 13F tools, get_financials and get_facts added five;
  // 54,000 became 56,000 for the offset and max_chars arguments of the two sliced tools and the defaults every description states).
  it('lists the tools in under 56,000 characters, in agent words: no REST paths, routes or query-string advice', () => {
    const listed = JSON.stringify({ tools: [...tools.values()].map((t) => t.definition) });
    expect(listed.length).toBeLessThan(56_000);
    for (const t of tools.values()) {
      const text = JSON.stringify(t.definition);
      expect({ tool: t.spec.name, rest: text.match(/\bREST\b|\/v1\/|\b(?:GET|POST) \/|[Rr]epeat the parameter|query string/g) }).toEqual({ tool: t.spec.name, rest: null });
    }
  });

  it('advertises short output schemas: the shape, repeated parts as shared definitions', () => {
    const company = tool('get_company').definition.outputSchema as unknown as { properties: Record<string, unknown>; definitions: Record<string, { properties: Record<string, unknown> }> };
    expect(company.properties.provenance).toEqual({ $ref: '#/definitions/provenance' });
    expect(company.properties.description_provenance).toEqual({ anyOf: [{ $ref: '#/definitions/provenance' }, { type: 'null' }] });
    expect(Object.keys(company.definitions.provenance!.properties)).toEqual(expect.arrayContaining(['src_id', 'source_url', 'quote', 'content_hash']));
    // A company's own `description` field is kept; the schema keyword is not.
    expect(company.properties.description).toEqual({ type: ['string', 'null'] });
    expect(JSON.stringify(company)).not.toMatch(/"description":"|"required"|9007199254740991/);
    // A sliced text's answer says where the slice is; nothing is cut silently any more.
    const section = tool('get_10k_section').definition.outputSchema as unknown as { properties: Record<string, unknown> };
    expect(section.properties).toMatchObject({ text: { type: ['string', 'null'] }, offset: { type: 'integer' }, total_chars: { type: 'integer' }, next_offset: { type: ['integer', 'null'] } });
    expect(JSON.stringify([...tools.values()].map((t) => t.definition.outputSchema))).not.toContain('truncated');
  });

  it('takes one symbol on every company tool (list_documents included)', () => {
    for (const name of ['get_company', 'get_executives', 'get_segments', 'get_fund_exposure', 'list_filings', 'list_insider_transactions', 'list_documents', 'get_coverage']) {
      const schema = tool(name).definition.inputSchema as unknown as { properties: Record<string, { type?: string }> };
      expect({ name, symbol: schema.properties.symbol?.type }).toEqual({ name, symbol: 'string' });
      expect(schema.properties).not.toHaveProperty('symbols');
    }
    expect(toRestCall(tool('list_documents'), { symbol: 'FRPH:US' })).toEqual({ operationId: 'listDocuments', params: {}, query: { symbols: 'FRPH:US', limit: '25' }, instance: '/v1/documents' });
    expect(itemsOf('list_documents', { symbol: ['FRPH:US'] })).toEqual([expect.objectContaining({ type: 'string_type', loc: ['query', 'symbol'] })]);
    expect(itemsOf('list_documents', { symbol: 'FRPH' })).toEqual([expect.objectContaining({ type: 'string_pattern_mismatch', loc: ['query', 'symbol'] })]);
  });

  it("sends the tool's default page size to the route explicitly, and the caller's limit when given", () => {
    expect(toRestCall(tool('get_document_pages'), { document_id: 7 }).query).toEqual({ limit: '2' });
    expect(toRestCall(tool('list_insider_transactions'), { symbol: 'TSLA:US', limit: 40 }).query).toEqual({ limit: '40' });
    for (const t of tools.values()) if (t.spec.defaultLimit !== undefined) expect(t.spec.defaultLimit).toBeLessThanOrEqual(25); // within the free plan's cap
  });

  it('maps arguments onto path parameters and query strings of the REST route', () => {
    expect(toRestCall(tool('get_company'), { symbol: 'MSFT:US' })).toEqual({ operationId: 'getCompany', params: { symbol: 'MSFT:US' }, query: {}, instance: '/v1/companies/MSFT:US' });
    expect(toRestCall(tool('get_executives'), { symbol: 'FRPH:US', category: 'ir', current_only: false, limit: 5 })).toEqual({
      operationId: 'listCompanyExecutives',
      params: { symbol: 'FRPH:US' },
      query: { category: 'ir', current_only: 'false', limit: '5' },
      instance: '/v1/companies/FRPH:US/executives',
    });
    expect(toRestCall(tool('get_document_pages'), { document_id: 7, page: 0 })).toEqual({
      operationId: 'listDocumentPages',
      params: { doc_id: '7' },
      query: { page: '0', limit: '2' },
      instance: '/v1/documents/7/pages',
    });
    expect(toRestCall(tool('search_companies'), { q: 'micro', tickers: ['MSFT', 'AAPL'], issuer_ids: [789019], active_only: true, cursor: null })).toMatchObject({
      operationId: 'listCompanies',
      query: { q: 'micro', tickers: ['MSFT', 'AAPL'], issuer_ids: ['789019'], active_only: 'true' },
    });
  });

  it('sends list_filings to the company route with a symbol and to /v1/filings without; ciks and symbol do not combine', () => {
    expect(toRestCall(tool('list_filings'), { symbol: 'MSFT:US', forms: ['10-K'], limit: 3 })).toEqual({
      operationId: 'listCompanyFilings',
      params: { symbol: 'MSFT:US' },
      query: { forms: ['10-K'], limit: '3' },
      instance: '/v1/companies/MSFT:US/filings',
    });
    expect(toRestCall(tool('list_filings'), { ciks: ['789019'], direction: 'asc' })).toMatchObject({ operationId: 'listFilings', params: {}, query: { ciks: ['789019'], direction: 'asc' } });
    expect(itemsOf('list_filings', { symbol: 'MSFT:US', ciks: ['789019'] })).toEqual([
      expect.objectContaining({ type: 'value_error', loc: ['arguments', 'ciks'], msg: "Value error, 'ciks' does not apply to GET /v1/companies/{symbol}/filings" }),
    ]);
    const schema = tool('list_filings').definition.inputSchema as unknown as { required?: string[]; properties: Record<string, unknown> };
    expect(schema.required ?? []).toEqual([]);
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['symbol', 'ciks', 'forms', 'filed_from', 'cursor']));
  });

  it('answers bad arguments with the Pydantic items REST answers for the same values', () => {
    const cases: [tool: string, operationId: string, where: 'query' | 'path', param: string, arg: string, value: unknown][] = [
      ['get_company', 'getCompany', 'path', 'symbol', 'symbol', 'MSFT'],
      ['search_companies', 'listCompanies', 'query', 'limit', 'limit', 501],
      ['search_companies', 'listCompanies', 'query', 'limit', 'limit', 0],
      ['search_companies', 'listCompanies', 'query', 'q', 'q', ''],
      ['get_executives', 'listCompanyExecutives', 'query', 'category', 'category', 'board'],
      ['get_document_pages', 'listDocumentPages', 'path', 'doc_id', 'document_id', 0],
    ];
    for (const [name, operationId, where, param, arg, value] of cases) {
      const base = name === 'get_company' || name === 'get_document_pages' ? {} : { symbol: 'MSFT:US' };
      const item = itemsOf(name, { ...(name === 'get_document_pages' ? { document_id: 1 } : base), [arg]: value }).find((i) => i.loc[1] === arg)!;
      const rest = restItem(operationId, where, param, String(value));
      expect({ type: item.type, msg: item.msg, ctx: item.ctx, loc: item.loc }).toEqual({ type: rest.type, msg: rest.msg, ctx: rest.ctx, loc: [where, arg] });
      expect(item.input).toEqual(value);
    }
    expect(itemsOf('list_documents', { doc_types: ['slide_deck', 'napkin'] })).toEqual([expect.objectContaining({ type: 'literal_error', loc: ['query', 'doc_types', 1], input: 'napkin' })]);
  });

  it('refuses missing, mistyped and unknown arguments', () => {
    expect(itemsOf('get_company', {})).toEqual([{ type: 'missing', loc: ['path', 'symbol'], msg: 'Field required', input: null }]);
    expect(itemsOf('search_companies', { limit: '10' })).toEqual([{ type: 'int_type', loc: ['query', 'limit'], msg: 'Input should be a valid integer', input: '10' }]);
    expect(itemsOf('search_companies', { limit: 1.5 })).toEqual([expect.objectContaining({ type: 'int_from_float', loc: ['query', 'limit'], input: 1.5 })]);
    expect(itemsOf('search_companies', { tickers: 'MSFT' })).toEqual([expect.objectContaining({ type: 'list_type', loc: ['query', 'tickers'] })]);
    expect(itemsOf('search_companies', { active_only: 'yes' })).toEqual([expect.objectContaining({ type: 'bool_type', loc: ['query', 'active_only'] })]);
    expect(itemsOf('get_company', { symbol: 'MSFT:US', ticker: 'MSFT' })).toEqual([
      { type: 'extra_forbidden', loc: ['arguments', 'ticker'], msg: 'Extra inputs are not permitted', input: 'MSFT' },
    ]);
    expect(itemsOf('search_companies', { tickers: Array.from({ length: 101 }, () => 'A') })).toEqual([expect.objectContaining({ type: 'too_long', loc: ['query', 'tickers'], ctx: { field_type: 'List', max_length: 100, actual_length: 101 } })]);
  });

  it('names the REST path of a call as the problem instance, invalid arguments included', () => {
    expect(restInstance(tool('get_company'), { symbol: 'MSFT' })).toBe('/v1/companies/MSFT');
    expect(restInstance(tool('get_company'), {})).toBe('/v1/companies/{symbol}');
    expect(restInstance(tool('get_document_pages'), { document_id: 'x' })).toBe('/v1/documents/x/pages');
    expect(restInstance(tool('list_filings'), { ciks: ['1'] })).toBe('/v1/filings');
    expect(restInstance(tool('verify_citation'), {})).toBe('/v1/citations/verify');
  });

  it('answers a lone surrogate (JSON-RPC can carry "\\uD800", no URL can) with a 422 item, never a URIError', () => {
    // encodeURIComponent('\uD800') throws URIError: the instance names it as U+FFFD instead.
    expect(() => encodeURIComponent('\uD800')).toThrow(URIError);
    expect(restInstance(tool('get_company'), { symbol: '\uD800' })).toBe('/v1/companies/%EF%BF%BD');
    expect(restInstance(tool('get_company'), { symbol: 'A\uDC00:US' })).toBe('/v1/companies/A%EF%BF%BD:US');
    const item = { type: 'value_error', msg: 'Value error, must be well-formed Unicode text (it holds a lone UTF-16 surrogate)', ctx: { error: 'must be well-formed Unicode text (it holds a lone UTF-16 surrogate)' } };
    // A parameter with a pattern refuses it by its pattern, as REST does; a free text by this item.
    expect(itemsOf('get_company', { symbol: '\uD800' })).toEqual([expect.objectContaining({ type: 'string_pattern_mismatch', loc: ['path', 'symbol'] })]);
    expect(itemsOf('search_companies', { q: 'micro\uD800soft' })).toEqual([{ ...item, loc: ['query', 'q'], input: 'micro\uFFFDsoft' }]);
    expect(itemsOf('search', { q: '\uDFFF' })).toEqual([{ ...item, loc: ['query', 'q'], input: '\uFFFD' }]);
    // A surrogate pair is one code point, well formed: not an error.
    expect(toRestCall(tool('search_companies'), { q: '💥' }).query).toEqual({ q: '💥', limit: '25' });
  });

  it('treats null like an omitted optional argument', () => {
    expect(toRestCall(tool('get_segments'), { symbol: 'AAPL:US', cursor: null, unit: 'million' }).query).toEqual({ unit: 'million', limit: '12' });
  });

  it('offers no argument that does nothing: each is a parameter its route reads, or a slice argument the tool reads', () => {
    for (const t of tools.values()) {
      const properties = Object.keys((t.definition.inputSchema as unknown as { properties: Record<string, unknown> }).properties);
      const routeParams = new Set([...t.routes.values()].flatMap((r) => [...Object.keys(r.path ?? {}), ...Object.keys(r.query ?? {})]));
      const body = t.bodyRoute ? Object.keys((t.bodyRoute.body as unknown as { shape: Record<string, unknown> }).shape) : [];
      const own = t.spec.slice ? ['offset', 'max_chars'] : [];
      const param = (name: string) => Object.entries(t.spec.rename ?? {}).find(([arg]) => arg === name)?.[1] ?? name;
      expect({ tool: t.spec.name, unread: properties.filter((p) => !routeParams.has(param(p)) && !body.includes(p) && !own.includes(p)) }).toEqual({ tool: t.spec.name, unread: [] });
      // A REST parameter kept for compatibility only says so in its description: no tool offers one.
      for (const arg of t.args) expect({ tool: t.spec.name, arg: arg.name, inert: /no effect|ignored|for compatibility/i.test(arg.spec.description) }).toEqual({ tool: t.spec.name, arg: arg.name, inert: false });
    }
    expect(tool('search_companies').args.map((a) => a.name)).not.toContain('sector');
    expect(() => compileTools([{ name: 'x', title: 'x', description: 'x', operations: ['getCompany'], omit: ['sector'] }], DOCUMENTED_ROUTES)).toThrow(/omits sector/);
  });

  it('reads a long text in slices: offset and max_chars go to the tool, never to the route', () => {
    for (const name of ['get_10k_section', 'get_transcript']) {
      const schema = tool(name).definition.inputSchema as unknown as { properties: Record<string, Record<string, unknown>> };
      expect(schema.properties.offset).toMatchObject({ type: 'integer', minimum: 0, default: 0 });
      expect(schema.properties.max_chars).toMatchObject({ type: 'integer', minimum: 100, maximum: 100_000, default: 20_000 });
      expect(tool(name).definition.description).toMatch(/20,000 characters (?:of text )?by default: call again with offset=next_offset/);
    }
    expect(toRestCall(tool('get_10k_section'), { symbol: 'TSLA:US', item: '1A' })).toEqual({
      operationId: 'getCompanySection',
      params: { symbol: 'TSLA:US', item: '1A' },
      query: {},
      instance: '/v1/companies/TSLA:US/sections/1A',
      window: { offset: 0, maxChars: 20_000 },
    });
    expect(toRestCall(tool('get_transcript'), { transcript_id: 3, offset: 40_000, max_chars: 5_000 })).toMatchObject({ params: { transcript_id: '3' }, query: {}, window: { offset: 40_000, maxChars: 5_000 } });
    expect(itemsOf('get_10k_section', { symbol: 'TSLA:US', item: '1A', max_chars: 100_001, offset: -1 })).toEqual([
      expect.objectContaining({ type: 'greater_than_equal', loc: ['arguments', 'offset'] }),
      expect.objectContaining({ type: 'less_than_equal', loc: ['arguments', 'max_chars'] }),
    ]);
    expect(toRestCall(tool('get_company'), { symbol: 'MSFT:US' })).not.toHaveProperty('window');
  });

  it('states its default page size or slice in the description of every tool that has one', () => {
    for (const t of tools.values()) {
      if (t.spec.defaultLimit !== undefined) expect({ tool: t.spec.name, says: t.definition.description.includes(`${t.spec.defaultLimit} `) }).toEqual({ tool: t.spec.name, says: true });
    }
  });
});
