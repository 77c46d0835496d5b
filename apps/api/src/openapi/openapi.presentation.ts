import recordedEvents from './openapi.event-examples.json';
import recorded from './openapi.examples.json';
import recordedRequests from './openapi.request-examples.json';

type Json = Record<string, unknown>;

/** Every tag, in the order the docs show them: what a reader looks for first comes first. */
export const API_TAGS: { name: string; description: string }[] = [
  {
    name: 'companies',
    description:
      'Companies addressed by symbol `<TICKER>:<MARKET>` (MSFT:US): reference data and detail, and per company its executives and IR contacts, ' +
      'Form 4 insider transactions and what the service holds (coverage).',
  },
  { name: 'search', description: 'One query over companies, people, filings, IR documents and their pages, ranked by relevance.' },
  { name: 'filings', description: 'SEC EDGAR filings of covered companies, from the submissions API, daily indexes and current events.' },
  { name: 'segments', description: "Segment revenue and operating income read from the inline XBRL of companies' 10-Q and 10-K filings." },
  {
    name: 'financials',
    description: 'XBRL facts as each filing reported them (SEC company facts and inline XBRL), as of any day, and standard statements built from them.',
  },
  { name: 'funds', description: 'Funds holding a company, from their latest N-PORT reports (alpha).' },
  { name: 'institutions', description: 'Institutional managers and their positions, from Form 13F filings: holders of a company or CUSIP, portfolios, changes.' },
  { name: 'documents', description: 'Investor-relations documents (slide decks, reports, press releases) and their text, page by page.' },
  {
    name: 'transcripts',
    description: "First-party earnings-call transcripts from the issuers' IR sites that passed the serving gate (a participants list or two speakers found, every line of the body in a speaker turn, the call date known): the call, its participants and its speaker turns, with offsets into the document's text.",
  },
  { name: 'citations', description: 'Re-checks a provenance object (source, content hash, quote) against the source as it stands now.' },
  {
    name: 'webhooks',
    description: 'Webhook endpoints (builder plan and above), their signing secrets, deliveries and the event log; pushes are signed with Standard Webhooks.',
  },
  {
    name: 'status',
    description: "How fresh the service is: the lag from EDGAR's acceptance of a filing to each stage of the pipeline, from detection to webhook delivery.",
  },
  { name: 'health', description: 'Liveness, readiness and metrics of this api process, for load balancers, orchestrators and Prometheus (no API key needed).' },
];

/** `<WORD>`, `<document id>`: a placeholder, which Markdown readers would take for an HTML tag. */
const PLACEHOLDER_RUN = /[^\s`"()]*?(?:<[A-Za-z_][^<>\n`]{0,40}>[^\s`"()<]*)+/g;

/**
 * Markdown readers (Swagger UI, Redoc) take `<TICKER>` for an HTML tag and drop it: every run of
 * text holding a placeholder outside code becomes a code span (trailing punctuation left out).
 */
export function markdownSafe(text: string): string {
  return text
    .split('`')
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part.replace(PLACEHOLDER_RUN, (run) => {
            const [, code, punctuation] = /^(.*?)([.,;:]*)$/s.exec(run)!;
            return `\`${code}\`${punctuation}`;
          }),
    )
    .join('`');
}

/** `markdownSafe` on every `description` of the document (property names under `properties` are data, left alone). */
export function markdownSafeDescriptions(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(markdownSafeDescriptions);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => {
      if (key === 'description' && typeof value === 'string') return [key, markdownSafe(value)];
      if (key === 'properties' && value && typeof value === 'object') {
        return [key, Object.fromEntries(Object.entries(value as Json).map(([prop, schema]) => [prop, markdownSafeDescriptions(schema)]))];
      }
      return [key, markdownSafeDescriptions(value)];
    }),
  );
}

/** Examples recorded from the api on the fixture data (test/openapi-examples.e2e-spec.ts): operationId -> status -> body. */
export type RecordedExamples = Record<string, Record<string, unknown>>;
export const RECORDED_EXAMPLES = recorded as RecordedExamples;

/** What a successful recorded call sent: path parameters, query parameters (every value given), body. */
export interface RecordedRequest {
  path: Record<string, string>;
  query: Record<string, string[]>;
  body?: unknown;
}
/** Per operationId, the parameters and body its successful recorded calls sent (test/openapi-examples.e2e-spec.ts). */
export type RecordedRequests = Record<string, RecordedRequest>;
export const RECORDED_REQUESTS = recordedRequests as RecordedRequests;

/** Per event type, the webhook body of a real event of the fixture run (GET /v1/events?types=<type>&limit=1, without its id). */
export type RecordedEvents = Record<string, unknown>;
export const RECORDED_EVENTS = recordedEvents as RecordedEvents;

/** How much of a recorded response an example keeps: docs show the shape, not every item. */
export const EXAMPLE_LIMITS = { items: 2, chars: 400 } as const;

/** A recorded body cut for the docs: lists to their first items, long texts to their start (marked with an ellipsis). */
export function exampleOf(body: unknown): unknown {
  if (typeof body === 'string') return body.length > EXAMPLE_LIMITS.chars ? `${body.slice(0, EXAMPLE_LIMITS.chars)}…` : body;
  if (Array.isArray(body)) return body.slice(0, EXAMPLE_LIMITS.items).map(exampleOf);
  if (body === null || typeof body !== 'object') return body;
  return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, exampleOf(v)]));
}

/** Puts each recorded example on its operation's response (every media type it is served as). */
export function attachExamples(paths: Record<string, Json>, examples: RecordedExamples = RECORDED_EXAMPLES): void {
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item) as { operationId: string; responses: Record<string, { content?: Record<string, Json> }> }[]) {
      const recordedForOp = examples[operation.operationId] ?? {};
      for (const [status, response] of Object.entries(operation.responses)) {
        if (!response.content || !(status in recordedForOp)) continue;
        for (const media of Object.values(response.content)) media.example = recordedForOp[status];
      }
    }
  }
}
