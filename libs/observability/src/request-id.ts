import { randomBytes } from 'node:crypto';

const INCOMING = /^req_[A-Za-z0-9_-]{8,64}$/;

/** A fresh request id: `req_` + 20 lowercase hex characters (80 random bits). */
export function newRequestId(): string {
  return `req_${randomBytes(10).toString('hex')}`;
}

/**
 * The id of a request: an incoming `X-Request-Id` is kept when it has our shape (so a caller or a
 * proxy can correlate), anything else is replaced by a fresh one (never echo arbitrary input).
 */
export function requestIdFrom(incoming: string | string[] | undefined): string {
  return typeof incoming === 'string' && INCOMING.test(incoming) ? incoming : newRequestId();
}
