import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** `sk_live_<16 hex public id>_<43 base64url chars = 32 random bytes>`; `sk_test_` alike. */
const KEY_RE = /^sk_(live|test)_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

export interface ParsedApiKey {
  mode: 'live' | 'test';
  publicId: string;
}

export interface GeneratedApiKey extends ParsedApiKey {
  /** The full key: shown once, never stored. */
  key: string;
}

export function generateApiKey(mode: 'live' | 'test'): GeneratedApiKey {
  const publicId = randomBytes(8).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  return { mode, publicId, key: `sk_${mode}_${publicId}_${secret}` };
}

/** Null for anything that is not one of our keys (JWTs, other vendors' tokens, garbage). */
export function parseApiKey(key: string): ParsedApiKey | null {
  const m = KEY_RE.exec(key);
  return m ? { mode: m[1] as 'live' | 'test', publicId: m[2]! } : null;
}

/** What is stored: hex HMAC-SHA256(pepper, full key). */
export function hashApiKey(pepper: string, key: string): string {
  return createHmac('sha256', pepper).update(key).digest('hex');
}

/** Constant-time comparison of the presented key's hash with the stored one. */
export function verifyApiKey(pepper: string, key: string, storedHash: string): boolean {
  const expected = Buffer.from(storedHash, 'hex');
  const actual = createHmac('sha256', pepper).update(key).digest();
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/**
 * How many Authorization headers a request carries, from Node's raw header list. Node keeps only
 * the first of several Authorization headers and drops the others silently, so the key a request
 * is judged by would depend on header order: two are refused rather than guessed between.
 */
export function authorizationHeaderCount(rawHeaders: readonly string[]): number {
  let n = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length === 13 && name.toLowerCase() === 'authorization') n += 1;
  }
  return n;
}
