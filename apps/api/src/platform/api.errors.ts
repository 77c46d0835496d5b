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
  | 'unknown-document'
  | 'unknown-transcript'
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

/** A coded domain error: the error handler turns it into a problem response. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly slug: ProblemSlug,
    readonly title: string,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'ApiError';
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

export const unknownSymbol = (symbol: string): ApiError =>
  new ApiError(404, 'unknown-symbol', 'Unknown symbol', `No company is listed under the symbol '${symbol}'.`);
