import type { ProblemSlug } from '../platform/api.errors';
import { escapeHtml, inline, page } from './docs-html';

/** What one problem type means to a client: the page its `type` URL leads to. */
export interface ProblemPage {
  title: string;
  /** HTTP statuses answered with this type. */
  status: number;
  happened: string;
  todo: string;
}

/**
 * One page per problem slug the API answers with (a slug without a page fails typecheck): served
 * at /docs/errors/<slug>, which is what a problem's `type` names by default (DOCS_URL unset).
 */
export const PROBLEM_PAGES: Record<ProblemSlug, ProblemPage> = {
  'invalid-key': {
    title: 'Invalid API key',
    status: 401,
    happened: 'The request carried no API key, or a key that is malformed, unknown or revoked (or a token of another kind). The WWW-Authenticate header says Bearer.',
    todo: 'Send `Authorization: Bearer sk_live_...` (or `sk_test_...`) with a key that has not been revoked. A key in the query string is not read. Ask the platform team for a new key if yours was revoked.',
  },
  'rate-limited': {
    title: 'Too many requests',
    status: 429,
    happened: "The key's per-second burst limit or its daily quota (UTC day) is spent. A refused request spends nothing.",
    todo: 'Wait the number of seconds in `Retry-After`, then retry. `X-RateLimit-Remaining` and `X-RateLimit-Reset` (epoch seconds) describe the daily quota; a larger plan raises both limits.',
  },
  'not-found': {
    title: 'Not found',
    status: 404,
    happened: 'No route answers this path (with any method).',
    todo: 'Check the path against the API reference at /docs; every data route starts with /v1/.',
  },
  'unknown-symbol': {
    title: 'Unknown symbol',
    status: 404,
    happened: 'No company is listed under the symbol in the path.',
    todo: 'Symbols are `<TICKER>:<MARKET>` (MSFT:US). Find a company with GET /v1/companies?q=<name or ticker> or GET /v1/search, and use the symbol it answers.',
  },
  'unknown-concept': {
    title: 'Unknown concept',
    status: 404,
    happened: 'The company reported no XBRL fact of the concept asked for (in any filing read so far). The detail names concepts of the company whose names are close.',
    todo: 'Give a QName (`us-gaap:Revenues`, `ifrs-full:Revenue`) or a bare name resolved in us-gaap, ifrs-full, then dei. GET /v1/companies/<symbol>/financials names, for every standard line item, the concept each value came from.',
  },
  'unknown-filing': {
    title: 'Unknown filing',
    status: 404,
    happened: 'No filing with this accession number has been indexed.',
    todo: "Check the accession number (0000950170-25-100235 form). List a company's filings with GET /v1/companies/{symbol}/filings; a filing EDGAR published minutes ago may not be indexed yet.",
  },
  'unknown-document': {
    title: 'Unknown document',
    status: 404,
    happened: 'No document with this id has been indexed.',
    todo: 'Take document ids from GET /v1/documents (or search hits); ids are positive integers.',
  },
  'unknown-transcript': {
    title: 'Unknown transcript',
    status: 404,
    happened: 'No transcript with this id has been published: no call transcript with it passed the serving gate.',
    todo: 'Take transcript ids from GET /v1/transcripts; ids are positive integers. A transcript PDF that did not pass the gate stays a document (GET /v1/documents).',
  },
  'unknown-institution': {
    title: 'Unknown institution',
    status: 404,
    happened: 'No Form 13F filer with this CIK has been ingested.',
    todo: 'Find managers with GET /v1/institutions?q=<name>; CIKs are 1 to 10 digits.',
  },
  'unknown-page': {
    title: 'Unknown page',
    status: 404,
    happened: "The document has no such page, or its pages have not all been received yet. The detail names the document's page count.",
    todo: 'Ask for a page between 0 and page_count - 1 (GET /v1/documents/{doc_id} gives page_count), or page through GET /v1/documents/{doc_id}/pages without `page`.',
  },
  'document-text-unavailable': {
    title: 'Document text unavailable',
    status: 404,
    happened: "The document's text is not complete: not every page of its current PDF version has arrived (the detail says why).",
    todo: 'Retry later; meanwhile GET /v1/documents/{doc_id}/pages serves the pages already received.',
  },
  'section-not-extracted': {
    title: 'Section not extracted',
    status: 404,
    happened: "No 10-K of the company's issuer has been read yet, so whether the item is there is unknown. A 10-K that was read and lacks the item answers 200 with status not_present instead.",
    todo: "Retry after the issuer's next 10-K has been ingested; GET /v1/companies/{symbol}/filings?forms=10-K lists the 10-Ks indexed so far.",
  },
  'method-not-allowed': {
    title: 'Method not allowed',
    status: 405,
    happened: 'The path exists, but not with this HTTP method. The `Allow` header lists the methods it takes.',
    todo: 'Use one of the methods in `Allow`.',
  },
  'validation-error': {
    title: 'Invalid request parameters',
    status: 422,
    happened:
      'A parameter or body field is missing, malformed, out of range, or not one the route takes (a route without a body refuses any body: `extra_forbidden` at ["body"]). `detail` is a list of items in the Pydantic v2 form: ' +
      '`type` (missing, string_pattern_mismatch, less_than_equal, literal_error, extra_forbidden, ...), `loc` (where: ["query", "limit"]), `msg`, `input` and `ctx` (the constraint).',
    todo: "Correct each item's parameter as its `msg` and `ctx` say, and send the request again: drop the parameters and body fields `extra_forbidden` names. A `limit` above your plan's cap names the cap in `ctx.le`.",
  },
  'bad-request': {
    title: 'Bad request',
    status: 400,
    happened: 'The request could not be read: malformed JSON, a body nested too deeply, bad percent-encoding in the path, a malformed request line, or two Authorization headers (which key to judge the request by would be a guess).',
    todo: 'Send well-formed JSON (`Content-Type: application/json`), percent-encode path segments, and send exactly one `Authorization` header.',
  },
  'payload-too-large': {
    title: 'Payload too large',
    status: 413,
    happened: 'The request body is larger than this server accepts (64 KiB).',
    todo: 'Send a smaller body; no route needs more.',
  },
  'unsupported-media-type': {
    title: 'Unsupported media type',
    status: 415,
    happened: 'The request has a body that is not JSON: its Content-Type is not application/json, or it has none. Every request body of this API is JSON.',
    todo: 'Send the body as `Content-Type: application/json`; a route that takes no body takes an empty one (of any Content-Type) or none.',
  },
  'not-ready': {
    title: 'Not ready',
    status: 503,
    happened: 'The readiness check found a dependency (Postgres, Redis) unavailable; the detail names it.',
    todo: 'For operators: restore the named dependency. Load balancers should route around this process until /readyz answers 200.',
  },
  'plan-required': {
    title: 'Plan required',
    status: 403,
    happened: "The key's plan does not include this feature (webhooks need the builder plan or above; `sk_test_` keys count as free).",
    todo: 'Use a live key of an account on a plan that includes it, or ask for a plan upgrade.',
  },
  'unknown-webhook-endpoint': {
    title: 'Unknown webhook endpoint',
    status: 404,
    happened: "No webhook endpoint with this id exists for the key's account (another account's endpoint is unknown too).",
    todo: 'List your endpoints with GET /v1/webhook-endpoints and use an id it answers.',
  },
  'unknown-delivery': {
    title: 'Unknown delivery',
    status: 404,
    happened: 'The webhook endpoint has no delivery with this id.',
    todo: "List the endpoint's deliveries with GET /v1/webhook-endpoints/{id}/deliveries and use an id it answers.",
  },
  'webhooks-unavailable': {
    title: 'Webhooks unavailable',
    status: 503,
    happened: 'Webhooks are not configured on this deployment (the server has no key to seal signing secrets with).',
    todo: 'For operators: set WEBHOOK_SECRETS_KEY (64 hex characters, the same for the api and the webhooks dispatcher) and restart.',
  },
  busy: {
    title: 'Busy',
    status: 503,
    happened: 'Too many citation verifications are already running on this server.',
    todo: 'Retry after the seconds in `Retry-After`.',
  },
  'search-timeout': {
    title: 'Search timed out',
    status: 503,
    happened: 'The search ran longer than the server allows and was cancelled.',
    todo: 'Retry after the seconds in `Retry-After`, or narrow the query: more specific words, a `kinds` filter, a phrase in quotes.',
  },
  unavailable: {
    title: 'Service unavailable',
    status: 503,
    happened: 'A service this request needs (the database or the rate-limit store) is unavailable for a moment.',
    todo: 'Retry after the seconds in `Retry-After`; nothing was changed by the refused request.',
  },
  'request-timeout': {
    title: 'Request timeout',
    status: 408,
    happened: 'The request (headers and body) was not received in full within 10 seconds.',
    todo: 'Send the whole request promptly; check the network between you and the API.',
  },
  'uri-too-long': {
    title: 'URI too long',
    status: 414,
    happened: 'A path parameter is longer than this server accepts (2 KiB).',
    todo: 'Send a shorter value: no identifier of this API comes close to that length.',
  },
  'header-fields-too-large': {
    title: 'Request header fields too large',
    status: 431,
    happened: 'The request line and headers together are larger than this server accepts.',
    todo: 'Send fewer or smaller headers (cookies are not needed by this API).',
  },
  'idempotency-key-in-use': {
    title: 'Request in progress',
    status: 409,
    happened: 'A request with the same `Idempotency-Key` is still running; its response is not stored yet.',
    todo: 'Retry after the seconds in `Retry-After`: you then get the first request\'s response. A key reused within 24 hours with a different body is a 422 instead.',
  },
  'internal-error': {
    title: 'Internal error',
    status: 500,
    happened: 'The server failed to answer the request. No internals are disclosed.',
    todo: 'Retry once; if it persists, report it with the `request_id` of the problem (also the X-Request-Id header).',
  },
};

export const PROBLEM_SLUGS = Object.keys(PROBLEM_PAGES) as ProblemSlug[];


/** The HTML page of one problem type. */
export function problemPageHtml(slug: ProblemSlug): string {
  const p = PROBLEM_PAGES[slug];
  return page(
    p.title,
    `<p><a href="/docs/errors">Errors</a> · <a href="/docs">API reference</a></p>\n<h1>${escapeHtml(p.title)}</h1>\n` +
      `<p>HTTP ${p.status}, <code>application/problem+json</code> with <code>type</code> ending in <code>/errors/${slug}</code>.</p>\n` +
      `<dl><dt>What happened</dt><dd>${inline(p.happened)}</dd><dt>What to do</dt><dd>${inline(p.todo)}</dd></dl>\n` +
      '<p>Every problem also carries <code>title</code>, <code>status</code>, <code>detail</code> (this occurrence), <code>instance</code> (the path) and <code>request_id</code> (quote it when asking for help).</p>\n',
  );
}

/** The index of every problem type. */
export function problemIndexHtml(): string {
  const rows = PROBLEM_SLUGS.map((slug) => `<li><a href="/docs/errors/${slug}">${slug}</a>: ${PROBLEM_PAGES[slug].status} ${escapeHtml(PROBLEM_PAGES[slug].title)}</li>`).join('\n');
  return page('Errors', `<p><a href="/docs">API reference</a></p>\n<h1>Errors</h1>\n<p>Every error is an RFC 9457 problem; its <code>type</code> URL leads to one of these pages.</p>\n<ul>\n${rows}\n</ul>\n`);
}
