export type EdgarErrorCode =
  | 'EDGAR_HTTP_ERROR' // a status that retrying will not fix (400, 401, 410, ...)
  | 'EDGAR_UNAVAILABLE' // 5xx or network errors after every retry
  | 'EDGAR_THROTTLED' // still 403/429 after every throttle pause
  | 'EDGAR_TOO_LARGE'; // the body is over the request's maxBytes (not retried)

/** The one coded error of libs/edgar. 404 is not an error: it is a `not_found` result. */
export class EdgarError extends Error {
  constructor(
    readonly code: EdgarErrorCode,
    readonly url: string,
    readonly status: number | null,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'EdgarError';
  }
}
