import { randomBytes } from 'node:crypto';

/** An id a caller or proxy may set: token characters only (safe in logs and headers), 8 to 128 of them. */
const INCOMING = /^[A-Za-z0-9][A-Za-z0-9._:-]{7,127}$/;

/** W3C Trace Context `traceparent`: version-traceid-parentid-flags; all-zero ids and version ff are invalid. */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

// Random bytes are drawn 4 KiB at a time: one randomBytes call per request costs more than the rest
// of the id handling together on the hot path.
const POOL_SIZE = 4096;
let pool = randomBytes(POOL_SIZE);
let poolOffset = 0;

/** A fresh request id: `req_` + 20 lowercase hex characters (80 random bits). */
export function newRequestId(): string {
  if (poolOffset + 10 > POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    poolOffset = 0;
  }
  poolOffset += 10;
  return `req_${pool.toString('hex', poolOffset - 10, poolOffset)}`;
}

/** The trace id of a well-formed `traceparent` header, else undefined. */
export function traceIdFrom(traceparent: string | string[] | undefined): string | undefined {
  if (typeof traceparent !== 'string') return undefined;
  const m = TRACEPARENT.exec(traceparent.trim());
  if (!m) return undefined;
  const [, version, traceId, parentId, , rest] = m;
  // Version 00 has exactly four fields; later versions may append more (the spec's forward rule).
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (/^0+$/.test(traceId!) || /^0+$/.test(parentId!)) return undefined;
  return traceId;
}

/**
 * The id of a request: an incoming well-formed `X-Request-Id` is kept (a caller or a proxy
 * correlates with it), else the trace id of a well-formed `traceparent` (the request joins the
 * caller's trace), else a fresh one. Anything else is replaced, never echoed.
 */
export function requestIdFrom(incoming: string | string[] | undefined, traceparent?: string | string[]): string {
  if (typeof incoming === 'string' && INCOMING.test(incoming)) return incoming;
  return traceIdFrom(traceparent) ?? newRequestId();
}
