/** One item of a 422 body, in Pydantic v2's vocabulary. */
export interface ValidationItem {
  type: string;
  loc: (string | number)[];
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

/** Problem slugs this API answers with: `<DOCS_URL>/errors/<slug>`. */
export type ProblemSlug =
  | 'invalid-key'
  | 'rate-limited'
  | 'not-found'
  | 'unknown-symbol'
  | 'unknown-filing'
  | 'unknown-concept'
  | 'unknown-document'
  | 'unknown-transcript'
  | 'unknown-institution'
  | 'unknown-page'
  | 'document-text-unavailable'
  | 'section-not-extracted'
  | 'method-not-allowed'
  | 'validation-error'
  | 'bad-request'
  | 'payload-too-large'
  | 'unsupported-media-type'
  | 'not-ready'
  | 'plan-required'
  | 'unknown-webhook-endpoint'
  | 'unknown-delivery'
  | 'webhooks-unavailable'
  | 'busy'
  | 'search-timeout'
  | 'unavailable'
  | 'request-timeout'
  | 'uri-too-long'
  | 'header-fields-too-large'
  | 'idempotency-key-in-use'
  | 'internal-error';

/** What went wrong, in the domain's words: services throw these, never an HTTP status. */
export type ErrorCode =
  | 'UnknownSymbol'
  | 'UnknownFiling'
  | 'UnknownConcept'
  | 'UnknownDocument'
  | 'UnknownTranscript'
  | 'UnknownInstitution'
  | 'UnknownPage'
  | 'DocumentTextUnavailable'
  | 'SectionNotExtracted'
  | 'UnknownWebhookEndpoint'
  | 'UnknownDelivery'
  | 'UnknownDocsPage'
  | 'PlanForbids'
  | 'WebhooksUnavailable'
  | 'VerifierBusy'
  | 'SearchTimeout'
  | 'NotReady'
  | 'IdempotencyKeyInUse'
  | 'BodyTooDeep'
  | 'InvalidMetricsToken';

/** The one map from error codes to problems: status, slug (`<DOCS_URL>/errors/<slug>`) and title. */
export const PROBLEM_OF_CODE: Readonly<Record<ErrorCode, { status: number; slug: ProblemSlug; title: string }>> = {
  UnknownSymbol: { status: 404, slug: 'unknown-symbol', title: 'Unknown symbol' },
  UnknownFiling: { status: 404, slug: 'unknown-filing', title: 'Unknown filing' },
  UnknownConcept: { status: 404, slug: 'unknown-concept', title: 'Unknown concept' },
  UnknownDocument: { status: 404, slug: 'unknown-document', title: 'Unknown document' },
  UnknownTranscript: { status: 404, slug: 'unknown-transcript', title: 'Unknown transcript' },
  UnknownInstitution: { status: 404, slug: 'unknown-institution', title: 'Unknown institution' },
  UnknownPage: { status: 404, slug: 'unknown-page', title: 'Unknown page' },
  DocumentTextUnavailable: { status: 404, slug: 'document-text-unavailable', title: 'Document text unavailable' },
  SectionNotExtracted: { status: 404, slug: 'section-not-extracted', title: 'Section not extracted' },
  UnknownWebhookEndpoint: { status: 404, slug: 'unknown-webhook-endpoint', title: 'Unknown webhook endpoint' },
  UnknownDelivery: { status: 404, slug: 'unknown-delivery', title: 'Unknown delivery' },
  UnknownDocsPage: { status: 404, slug: 'not-found', title: 'Not found' },
  PlanForbids: { status: 403, slug: 'plan-required', title: 'Plan required' },
  WebhooksUnavailable: { status: 503, slug: 'webhooks-unavailable', title: 'Webhooks unavailable' },
  VerifierBusy: { status: 503, slug: 'busy', title: 'Busy' },
  SearchTimeout: { status: 503, slug: 'search-timeout', title: 'Search timed out' },
  NotReady: { status: 503, slug: 'not-ready', title: 'Not ready' },
  IdempotencyKeyInUse: { status: 409, slug: 'idempotency-key-in-use', title: 'Request in progress' },
  BodyTooDeep: { status: 400, slug: 'bad-request', title: 'Bad request' },
  InvalidMetricsToken: { status: 401, slug: 'invalid-key', title: 'Invalid metrics token' },
};

/** A coded domain error: the error handler turns its code into a problem response (PROBLEM_OF_CODE). */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    /** Response headers the problem carries (Retry-After, WWW-Authenticate). */
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'DomainError';
  }

  get status(): number {
    return PROBLEM_OF_CODE[this.code].status;
  }

  get slug(): ProblemSlug {
    return PROBLEM_OF_CODE[this.code].slug;
  }
}

/** Invalid request parameters: 422 with Pydantic-style items (their `input` bounded by boundedEcho). */
export class ValidationError extends Error {
  readonly items: ValidationItem[];

  constructor(items: ValidationItem[]) {
    super('validation failed');
    this.name = 'ValidationError';
    this.items = items.map((item) => ({ ...item, input: boundedEcho(item.input) }));
  }
}

/**
 * How much of a client's input a 422 copies back. Unbounded, a body nested 20,000 levels deep
 * overflowed the stack when the 422 was serialized (a 500), and a 60 KiB string was echoed whole.
 */
export const ECHO_LIMITS = { depth: 4, items: 20, chars: 200 } as const;

/** `value` cut to ECHO_LIMITS: deeper containers become '[...]' / '{...}', long strings and lists are shortened. */
export function boundedEcho(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.length > ECHO_LIMITS.chars ? `${value.slice(0, ECHO_LIMITS.chars)}...` : value;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    if (depth >= ECHO_LIMITS.depth) return '[...]';
    const items = value.slice(0, ECHO_LIMITS.items).map((v: unknown) => boundedEcho(v, depth + 1));
    return value.length > ECHO_LIMITS.items ? [...items, `... ${value.length - ECHO_LIMITS.items} more`] : items;
  }
  if (depth >= ECHO_LIMITS.depth) return '{...}';
  const entries = Object.entries(value);
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries.slice(0, ECHO_LIMITS.items)) out[boundedEcho(k) as string] = boundedEcho(v, depth + 1);
  if (entries.length > ECHO_LIMITS.items) out['...'] = `${entries.length - ECHO_LIMITS.items} more`;
  return out;
}

export const unknownSymbol = (symbol: string): DomainError => new DomainError('UnknownSymbol', `No company is listed under the symbol '${symbol}'.`);
