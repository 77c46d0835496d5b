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
  | 'unknown-page'
  | 'document-text-unavailable'
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

/** Invalid request parameters: 422 with Pydantic-style items. */
export class ValidationError extends Error {
  constructor(readonly items: ValidationItem[]) {
    super('validation failed');
    this.name = 'ValidationError';
  }
}

export const unknownSymbol = (symbol: string): ApiError =>
  new ApiError(404, 'unknown-symbol', 'Unknown symbol', `No company is listed under the symbol '${symbol}'.`);
