import { createHash, createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { stableStringify } from '@app/contracts';
import { isKeyOf, type KeyPart, type KeysetOrder } from '@app/persistence';

/** What a cursor carries: the last sort key of the page, its direction and the filters it belongs to. */
export interface CursorPayload {
  v: 2;
  /** Sort key of the previous page's last row (exclusive bound of the next one), one value per column of the list's order. */
  k: KeyPart[];
  d: 'asc' | 'desc';
  /** Hash of the endpoint and its normalized filters. */
  f: string;
}

const MAC_BYTES = 16;
const MAX_CURSOR_LENGTH = 1024;

// Most requests repeat a few filter sets (the default one above all): remember their hashes, by
// the filters' plain JSON, which is cheaper than the canonical text. Two spellings of one filter
// set (keys in another order) are two entries holding the same hash.
const FILTER_HASH_CACHE_MAX = 1024;
const filterHashes = new Map<string, string>();

/** A short, stable hash of an endpoint's filter set. */
export function filterHash(endpoint: string, filters: Record<string, unknown>): string {
  const cacheKey = `${endpoint} ${JSON.stringify(filters)}`;
  let hash = filterHashes.get(cacheKey);
  if (hash === undefined) {
    // Canonical JSON (sorted keys): equal filters always hash alike.
    hash = createHash('sha256').update(stableStringify({ endpoint, filters })).digest('base64url').slice(0, 22);
    if (filterHashes.size >= FILTER_HASH_CACHE_MAX) filterHashes.clear();
    filterHashes.set(cacheKey, hash);
  }
  return hash;
}

/**
 * Opaque, tamper-evident cursors: base64url(JSON payload) + '.' + base64url(HMAC-SHA256(secret,
 * payload) truncated to 16 bytes). A forged, modified or foreign cursor decodes to null.
 */
export class CursorCodec {
  // A KeyObject, not the secret's bytes: createHmac would copy bytes into a new key every call.
  private readonly key: KeyObject;

  constructor(secret: string) {
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  private mac(payload: string): Buffer {
    return createHmac('sha256', this.key).update(payload).digest().subarray(0, MAC_BYTES);
  }

  encode(payload: Omit<CursorPayload, 'v'>): string {
    const body = Buffer.from(JSON.stringify({ v: 2, k: payload.k, d: payload.d, f: payload.f })).toString('base64url');
    return `${body}.${this.mac(body).toString('base64url')}`;
  }

  /**
   * The payload when the cursor is genuine, was made for `expect.f` (and `expect.d` when given)
   * and its key fits the list's order.
   */
  decode(cursor: string, expect: { f: string; d?: 'asc' | 'desc'; order: KeysetOrder<never> }): CursorPayload | null {
    if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH) return null;
    const dot = cursor.indexOf('.');
    if (dot <= 0 || dot !== cursor.lastIndexOf('.')) return null;
    const body = cursor.slice(0, dot);
    const sig = cursor.slice(dot + 1);
    if (!/^[A-Za-z0-9_-]+$/.test(body) || !/^[A-Za-z0-9_-]+$/.test(sig)) return null;
    // Compare the canonical text of the MAC: base64url's last character carries unused bits, so
    // comparing decoded bytes would accept several spellings of one signature.
    const given = Buffer.from(sig);
    const expected = Buffer.from(this.mac(body).toString('base64url'));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      return null;
    }
    if (parsed === null || typeof parsed !== 'object') return null;
    const p = parsed as Record<string, unknown>;
    const k = p.v === 1 && typeof p.k === 'string' ? keyOfV1(p.k, expect.order) : p.v === 2 ? p.k : undefined;
    if (!isKeyOf(expect.order, k) || (p.d !== 'asc' && p.d !== 'desc') || typeof p.f !== 'string') return null;
    if (p.f !== expect.f) return null;
    if (expect.d !== undefined && p.d !== expect.d) return null;
    return { v: 2, k, d: p.d, f: p.f };
  }
}

/**
 * The key of a version 1 cursor (before the keys became tuples), so a position a client kept (the
 * events feed's above all) still resumes: the key was the one value, `a|b|...`, or a JSON array.
 */
function keyOfV1(k: string, order: KeysetOrder<never>): unknown {
  let parts: unknown[];
  if (k.startsWith('[')) {
    try {
      const v: unknown = JSON.parse(k);
      if (!Array.isArray(v)) return undefined;
      parts = v;
    } catch {
      return undefined;
    }
  } else {
    parts = order.columns.length === 1 ? [k] : k.split('|');
  }
  return parts.map((v, i) => {
    const type = order.columns[i]?.type;
    const numeric = type === 'integer' || type === 'bigint' || type === 'float8';
    return numeric && typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v;
  });
}
