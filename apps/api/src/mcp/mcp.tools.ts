import { z } from 'zod';
import { companyReferenceSchema, filingListSchema } from '@app/resources';
import { ValidationError, type ValidationItem } from '../platform/api.errors';
import { openApiPath, type RouteDefinition } from '../platform/route.registry';
import type { ParamSpec } from '../platform/query.validation';
import { SECTION_TEXT, SLICE_DEFAULT_CHARS, SLICE_MAX_CHARS, TRANSCRIPT_TURNS, type TextSlicer, type TextWindow } from './mcp.answer';
import { argsZod, compactOutputSchema, toolJsonSchema, toQueryValue, validateArgs, type ToolArg } from './mcp.schemas';

/** One MCP tool: which REST operation(s) it calls and how its arguments map onto them. */
export interface ToolSpec {
  name: string;
  title: string;
  /** What the tool is for; the REST route's description follows it in the advertised description. */
  description: string;
  /** REST operationIds this tool calls; several when the arguments choose (`pick`). */
  operations: readonly [string, ...string[]];
  /** The operation a call goes to; default the only one. */
  pick?: (args: Record<string, unknown>) => string;
  /** Tool argument name -> REST parameter name, where they differ. */
  rename?: Record<string, string>;
  /** Output schema when it is not the route's response (a tool over two routes). */
  output?: z.ZodObject;
  /**
   * Page size when the caller gives no `limit` (sent to the route as an explicit limit, so the
   * answer is the route's for that limit): sized so a default answer on the fixture data stays
   * under about 20,000 characters. Unset: the route's own default.
   */
  defaultLimit?: number;
  /** REST parameters the tool does not offer: they have no effect on the data. */
  omit?: readonly string[];
  /** The long text the tool answers in slices, with `offset` and `max_chars` arguments. */
  slice?: TextSlicer;
  /** Array parameters a tool takes as one value (list_documents: one `symbol`, as every company tool). */
  single?: readonly string[];
  /** The tool reaches outside this service (fetches a third-party URL). */
  openWorld?: boolean;
}

/**
 * The tools, at parity with the read-only REST API: each calls the REST route's own handler, so a
 * result is the REST body (cursors included) and an error the REST problem.
 */
export const MCP_TOOLS: readonly ToolSpec[] = [
  {
    name: 'search_companies',
    title: 'Search companies',
    description:
      'Find companies by a name or ticker substring (q) or by identifiers (tickers, ciks, isins, figis, issuer_ids, markets), by symbol, 25 a page by default. ' +
      'Use it first: its symbol (<TICKER>:<MARKET>, e.g. MSFT:US) is what the company tools take.',
    operations: ['listCompanies'],
    defaultLimit: 25,
    // Sector is not stored: REST accepts the parameter for compatibility, a tool offers none that does nothing.
    omit: ['sector'],
  },
  {
    name: 'get_company',
    title: 'Company detail',
    description: 'One company by symbol (MSFT:US): identifiers, SIC, listing, description, provenance; as_of=YYYY-MM-DD: the name in force that day (default today).',
    operations: ['getCompany'],
  },
  {
    name: 'get_executives',
    title: 'Company roster',
    description: "A company's executives (default), IR contacts (category=ir) or analysts (category=analysts), current only unless current_only=false, 50 by default; as_of=YYYY-MM-DD: the roster that day.",
    operations: ['listCompanyExecutives'],
  },
  {
    name: 'get_segments',
    title: 'Segment figures',
    description: "A company's segment revenue and operating income from its 10-Q/10-K inline XBRL, newest period first, 12 a page by default.",
    operations: ['listCompanySegments'],
    defaultLimit: 12,
  },
  {
    name: 'get_financials',
    title: 'Financial statements',
    description:
      "A company's standard statement (statement: income by default, balance, cash_flow) by fiscal year (period: annual, default) or quarter, newest first, 2 periods by default. " +
      'Each value names its concept and filing, or how it was derived; a null says why (gap). as_of=YYYY-MM-DD: as first reported by that day. Start here for financial figures.',
    operations: ['getCompanyFinancials'],
    defaultLimit: 2,
  },
  {
    name: 'get_facts',
    title: 'XBRL facts of one concept',
    description:
      'Values a company reported for one XBRL concept (us-gaap:Revenues or a bare name), newest period first, 12 by default, each with its filing; as_of gives them as of a day, ' +
      'history=true every report (first_reported, restated, reaffirmed). For concepts outside get_financials, or a value\'s restatements.',
    operations: ['listCompanyFacts'],
    defaultLimit: 12,
  },
  {
    name: 'get_10k_section',
    title: '10-K section',
    description:
      "Item 1 (Business), 1A (Risk Factors) or 7 (MD&A) of a company's newest 10-K: status (extracted, incorporated_by_reference, not_present, failed), " +
      'offsets in the document and the text, 20,000 characters by default: call again with offset=next_offset until null.',
    operations: ['getCompanySection'],
    slice: SECTION_TEXT,
  },
  {
    name: 'get_fund_exposure',
    title: 'Fund exposure',
    description: "Funds holding the company's stock, from their latest N-PORT reports (alpha), largest position first, 25 a page by default; as_of=YYYY-MM-DD: reports filed by then.",
    operations: ['getFundExposure'],
    defaultLimit: 25,
  },
  {
    name: 'get_institutional_holders',
    title: 'Institutional holders (13F)',
    description:
      'Managers holding a company (symbol) or any CUSIP (cusip) at a quarter (default latest), from Form 13F, 10 a page by default: shares, USD value, puts/calls apart, ' +
      'change vs the previous quarter, weight. sort (company only): value (default), shares, change; as_of=YYYY-MM-DD (company only): 13Fs filed by then.',
    operations: ['getCompanyInstitutionalHolders', 'getSecurityInstitutionalHolders'],
    pick: (args) => (args.cusip !== undefined && args.cusip !== null ? 'getSecurityInstitutionalHolders' : 'getCompanyInstitutionalHolders'),
    defaultLimit: 10,
  },
  {
    name: 'search_institutions',
    title: 'Find 13F managers',
    description: 'Institutional managers (13F filers) by name or CIK, 10 a page by default; their cik is what get_institution_holdings takes.',
    operations: ['listInstitutions'],
    defaultLimit: 10,
  },
  {
    name: 'get_institution_holdings',
    title: "A manager's 13F portfolio",
    description:
      "An institutional manager's positions at a quarter (default latest), by value (default) or change, 10 a page by default, with weights, change vs the previous quarter " +
      '(sold_out included) and matched symbols.',
    operations: ['getInstitutionHoldings'],
    defaultLimit: 10,
  },
  {
    name: 'list_filings',
    title: 'SEC filings',
    description:
      "SEC EDGAR filings, newest first, 12 a page by default. With symbol: that company's filings (the answer adds `company`); without: every covered company's, " +
      'optionally by ciks. ciks and symbol do not combine.',
    operations: ['listCompanyFilings', 'listFilings'],
    pick: (args) => (args.symbol !== undefined && args.symbol !== null ? 'listCompanyFilings' : 'listFilings'),
    output: filingListSchema.extend({ company: companyReferenceSchema.optional().describe('With symbol: the company') }),
    defaultLimit: 12,
  },
  { name: 'get_filing', title: 'One filing', description: 'One SEC filing by accession number (0000950170-25-100235), as list_filings and search give them.', operations: ['getFiling'] },
  {
    name: 'list_insider_transactions',
    title: 'Insider transactions',
    description: "A company's Form 4 insider transactions and holdings, newest first, one item per table row with footnotes, owners and the 10b5-1 flag; 4 a page by default (rows are large).",
    operations: ['listCompanyInsiderTransactions'],
    defaultLimit: 4,
  },
  {
    name: 'list_documents',
    title: 'Documents',
    description: 'Investor documents (decks, releases, reports) from IR pages and 8-K exhibits, newest first, 25 a page by default; symbol: one company. get_document_pages reads one.',
    operations: ['listDocuments'],
    rename: { symbol: 'symbols' },
    single: ['symbol'],
    defaultLimit: 25,
  },
  { name: 'get_document', title: 'One document', description: 'One document by id (the id of list_documents items), with its page count and sources.', operations: ['getDocument'], rename: { document_id: 'doc_id' } },
  {
    name: 'get_document_pages',
    title: 'Document pages',
    description: "A document's pages in order with their text and character offsets, 2 a page by default (a page holds up to about 10,000 characters); page picks one (0-based). Continue with the cursor.",
    operations: ['listDocumentPages'],
    rename: { document_id: 'doc_id' },
    defaultLimit: 2,
  },
  {
    name: 'list_transcripts',
    title: 'Call transcripts',
    description: "First-party earnings-call transcripts from issuers' IR sites, newest call first, 25 a page by default; symbol: one company; from/to bound the call date.",
    operations: ['listTranscripts'],
    rename: { symbol: 'symbols' },
    single: ['symbol'],
    defaultLimit: 25,
  },
  {
    name: 'get_transcript',
    title: 'One call transcript',
    description:
      'One transcript by id (from list_transcripts): the call, participants and speaker turns (section, offsets, page), 20,000 characters of text by default: ' +
      'call again with offset=next_offset until null; a turn cut at an edge holds its part.',
    operations: ['getTranscript'],
    slice: TRANSCRIPT_TURNS,
  },
  {
    name: 'verify_citation',
    title: 'Verify a citation',
    description:
      'Checks a provenance object taken from any result (its source_url or citation_url, content_hash and quote) against the source as it stands now: ' +
      'whether the content hash still matches and the quote is still found.',
    operations: ['verifyCitation'],
    openWorld: true,
  },
  {
    name: 'search',
    title: 'Search',
    description:
      'Search companies, people (executives, IR contacts, analysts), filings, IR documents and document pages by words, "phrases" or identifiers ' +
      '(ticker, symbol, CIK, accession), best first, 15 a page by default. Each hit carries the ids the other tools take (symbol, accession, document_id, page_index).',
    operations: ['search'],
    defaultLimit: 15,
  },
  {
    name: 'get_coverage',
    title: 'Coverage',
    description: "What the service holds for a company's issuer, per dataset: counts, date ranges, last ingestion and known gaps. Use it to see what exists before asking.",
    operations: ['getCoverage'],
  },
];

/** A tool ready to list and call. */
export interface CompiledTool {
  spec: ToolSpec;
  /** The REST routes by operationId. */
  routes: Map<string, RouteDefinition>;
  /** Parameter arguments (routes with a path or query); empty for a body tool. */
  args: ToolArg[];
  /** The route whose JSON body the arguments are, if any. */
  bodyRoute?: RouteDefinition;
  input: z.ZodObject;
  definition: {
    name: string;
    title: string;
    description: string;
    inputSchema: { type: 'object'; [k: string]: unknown };
    outputSchema: { type: 'object'; [k: string]: unknown };
    annotations: { readOnlyHint: true; destructiveHint: false; idempotentHint: true; openWorldHint: boolean };
  };
}

/** A tool call as a REST request: the operation and the request's path params, query and body. */
export interface RestCall {
  operationId: string;
  params: Record<string, string>;
  query: Record<string, string | string[]>;
  body?: unknown;
  /** The REST path, as a problem's `instance` names it. */
  instance: string;
  /** A sliced tool's window of its long text. */
  window?: TextWindow;
}

const restLine = (d: RouteDefinition) => `${d.method} ${openApiPath(d.url)}`;

/** A parameter description as an agent reads it: a JSON array argument is not a repeated query parameter. */
const toolDescription = (text: string): string => text.replace(/[;.] (?:[Rr]epeat the parameter(?: or separate with commas| for several))/g, '');

function toolArgs(spec: ToolSpec, routes: RouteDefinition[]): ToolArg[] {
  const reverse = new Map(Object.entries(spec.rename ?? {}).map(([arg, param]) => [param, arg]));
  const out = new Map<string, ToolArg>();
  for (const route of routes) {
    for (const where of ['path', 'query'] as const) {
      for (const [param, restSpec] of Object.entries(route[where] ?? {})) {
        if (spec.omit?.includes(param)) continue;
        const name = reverse.get(param) ?? param;
        const required = routes.every((r) => (where === 'path' ? r.path?.[param] !== undefined : r.query?.[param]?.required === true));
        let paramSpec: ParamSpec = { ...restSpec, description: toolDescription(restSpec.description) };
        if (spec.single?.includes(name)) {
          if (restSpec.kind !== 'array') throw new Error(`MCP tool ${spec.name}: ${name} is single but ${param} is no array`);
          paramSpec = { ...restSpec.items, description: singleDescription(name, paramSpec.description) };
        }
        if (name === 'limit' && spec.defaultLimit !== undefined) paramSpec = { ...paramSpec, default: spec.defaultLimit };
        if (!out.has(name)) out.set(name, { name, where, param, required, spec: paramSpec });
      }
    }
  }
  if (spec.defaultLimit !== undefined && !out.has('limit')) throw new Error(`MCP tool ${spec.name}: defaultLimit without a limit parameter`);
  for (const name of spec.omit ?? []) {
    if (!routes.some((r) => r.query?.[name] !== undefined)) throw new Error(`MCP tool ${spec.name}: omits ${name}, which its routes do not take`);
  }
  const sliceArgs = spec.slice ? textWindowArgs(spec.slice) : [];
  for (const arg of sliceArgs) if (out.has(arg.name)) throw new Error(`MCP tool ${spec.name}: ${arg.name} is both a REST parameter and a slice argument`);
  // Path parameters first (what the call is about), the tool's own last.
  const rank = { path: 0, query: 1, arguments: 2 };
  return [...out.values(), ...sliceArgs].sort((a, b) => rank[a.where] - rank[b.where]);
}

/** The arguments of a sliced tool: where its text starts and how much of it one answer holds. */
function textWindowArgs(slicer: TextSlicer): ToolArg[] {
  const arg = (name: string, spec: ToolArg['spec']): ToolArg => ({ name, where: 'arguments', param: name, required: false, spec });
  return [
    arg('offset', { kind: 'int', minimum: 0, default: 0, description: `Where to start in ${slicer.text}: the previous answer's next_offset` }),
    arg('max_chars', { kind: 'int', minimum: 100, maximum: SLICE_MAX_CHARS, default: SLICE_DEFAULT_CHARS, description: 'Most characters of text in the answer' }),
  ];
}

const singleDescription = (name: string, many: string): string =>
  name === 'symbol' ? "<TICKER>:<MARKET> (case-insensitive), e.g. FRPH:US: only that company's issuer; omitted: every company" : many;

/** Compiles the tools over `routes`; a tool without its route is a wiring error. */
export function compileTools(specs: readonly ToolSpec[], routes: readonly RouteDefinition[]): CompiledTool[] {
  const byId = new Map(routes.map((r) => [r.operationId, r]));
  const out: CompiledTool[] = [];
  for (const spec of specs) {
    const defs = spec.operations.map((id) => byId.get(id));
    if (defs.some((d) => d === undefined)) {
      throw new Error(`MCP tool ${spec.name}: no route with operationId ${spec.operations.filter((_, i) => !defs[i]).join(', ')}`);
    }
    const routeDefs = defs as RouteDefinition[];
    for (const d of routeDefs) {
      if (d.method !== 'GET' && d.method !== 'POST') throw new Error(`MCP tool ${spec.name}: ${d.operationId} is ${d.method}, tools are read-only`);
    }
    const bodyRoute = routeDefs.find((d) => d.body !== undefined);
    if (bodyRoute && routeDefs.length > 1) throw new Error(`MCP tool ${spec.name}: a body route cannot share a tool`);
    const args = bodyRoute ? [] : toolArgs(spec, routeDefs);
    const input = bodyRoute ? (bodyRoute.body as z.ZodObject) : argsZod(args);
    const restResponse = spec.output ?? routeDefs[0]!.response;
    if (!restResponse) throw new Error(`MCP tool ${spec.name}: ${routeDefs[0]!.operationId} has no response schema`);
    const response = spec.slice ? (restResponse as z.ZodObject).extend(spec.slice.fields) : restResponse;
    out.push({
      spec,
      routes: new Map(routeDefs.map((d) => [d.operationId, d])),
      args,
      bodyRoute,
      input,
      definition: {
        name: spec.name,
        title: spec.title,
        description: spec.description,
        inputSchema: toolJsonSchema(input, 'input'),
        outputSchema: compactOutputSchema(response),
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: spec.openWorld === true },
      },
    });
  }
  return out;
}

/**
 * The REST path of a route with its parameters filled in (':' kept, as clients send symbols); `{name}` where one is missing.
 * Never throws: a lone surrogate (which encodeURIComponent refuses with URIError; the arguments'
 * validation answers it 422) is named as U+FFFD.
 */
function fillPath(url: string, params: Record<string, string>): string {
  return url.replace(/:([A-Za-z_]+)/g, (_, name: string) =>
    params[name] === undefined ? `{${name}}` : encodeURIComponent(params[name].replace(/\p{Cs}/gu, '\uFFFD')).replace(/%3A/gi, ':'),
  );
}

const pickOperation = (tool: CompiledTool, input: Record<string, unknown>): string => (tool.spec.pick ? tool.spec.pick(input) : tool.spec.operations[0]);

/**
 * The REST path a call names, as a problem's `instance` (the path REST would have been asked),
 * also when the arguments are invalid.
 */
export function restInstance(tool: CompiledTool, args: Record<string, unknown> | undefined): string {
  if (tool.bodyRoute) return tool.bodyRoute.url;
  const input = args ?? {};
  const route = tool.routes.get(pickOperation(tool, input))!;
  const params: Record<string, string> = {};
  for (const arg of tool.args) {
    const value = input[arg.name];
    if (arg.where !== 'path' || route.path?.[arg.param] === undefined || value === undefined || value === null) continue;
    params[arg.param] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return fillPath(route.url, params);
}

/**
 * Maps a tool's arguments onto its REST request, or throws the ValidationError REST answers with
 * (422 validation-error; items located as ValidateArgs says).
 */
export function toRestCall(tool: CompiledTool, args: Record<string, unknown> | undefined): RestCall {
  const input = args ?? {};
  if (tool.bodyRoute) {
    // The route validates its body itself, with the same items REST answers.
    return { operationId: tool.bodyRoute.operationId, params: {}, query: {}, body: input, instance: tool.bodyRoute.url };
  }
  const items: ValidationItem[] = validateArgs(tool.args, input);
  const operationId = pickOperation(tool, input);
  const route = tool.routes.get(operationId)!;
  const params: Record<string, string> = {};
  const query: Record<string, string | string[]> = {};
  for (const arg of tool.args) {
    const value = input[arg.name];
    if (value === undefined || value === null || arg.where === 'arguments') continue;
    if (route[arg.where]?.[arg.param] === undefined) {
      const error = `'${arg.name}' does not apply to ${restLine(route)}`;
      items.push({ type: 'value_error', loc: ['arguments', arg.name], msg: `Value error, ${error}`, input: value, ctx: { error } });
      continue;
    }
    if (arg.where === 'path') params[arg.param] = toQueryValue(value) as string;
    else query[arg.param] = toQueryValue(value);
  }
  if (items.length) throw new ValidationError(items);
  // The tool's page size, sent explicitly: the answer is the route's for that limit.
  if (tool.spec.defaultLimit !== undefined && query.limit === undefined) query.limit = String(tool.spec.defaultLimit);
  const call: RestCall = { operationId, params, query, instance: restInstance(tool, input) };
  if (tool.spec.slice) call.window = { offset: (input.offset as number | undefined) ?? 0, maxChars: (input.max_chars as number | undefined) ?? SLICE_DEFAULT_CHARS };
  return call;
}
