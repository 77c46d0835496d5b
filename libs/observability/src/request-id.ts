import { randomBytes } from 'node:crypto';

const INCOMING = /^req_[A-Za-z0-9_-]{8,64}$/;

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

/**
 * The id of a request: an incoming `X-Request-Id` is kept when it has our shape (so a caller or a
 * proxy can correlate), anything else is replaced by a fresh one (never echo arbitrary input).
 */
export function requestIdFrom(incoming: string | string[] | undefined): string {
  return typeof incoming === 'string' && INCOMING.test(incoming) ? incoming : newRequestId();
}
