/** What a webhook event looks like on the wire. */
export interface WebhookEventBody {
  type: string;
  /** ISO 8601: when the event was made (not when this attempt is sent). */
  timestamp: string;
  /** A sample sent by the test endpoint, not real data. */
  test?: boolean;
  data: unknown;
}

/**
 * The body of every delivery: `{"type", "timestamp", ["test": true,] "data"}`. `dataJson` is the
 * resource as stored (JSON text), spliced in without a parse/serialize round trip; the signature
 * covers these exact bytes, so every retry sends the same bytes.
 */
export function webhookBody(type: string, timestamp: Date | string, dataJson: string, test = false): string {
  const ts = typeof timestamp === 'string' ? timestamp : timestamp.toISOString();
  return `{"type":${JSON.stringify(type)},"timestamp":${JSON.stringify(ts)},${test ? '"test":true,' : ''}"data":${dataJson}}`;
}

/** Bytes of the response body kept per attempt. */
export const RESPONSE_EXCERPT_BYTES = 1024;

/**
 * The first KB of a response body as text, for the delivery log: invalid UTF-8 (and a character
 * cut at the end) becomes U+FFFD, NUL is dropped (Postgres text refuses it). Null when empty.
 */
export function responseExcerpt(body: Buffer, maxBytes = RESPONSE_EXCERPT_BYTES): string | null {
  if (body.length === 0) return null;
  // eslint-disable-next-line no-control-regex
  return body.subarray(0, maxBytes).toString('utf8').replace(/\u0000/g, '');
}
