import { createCipheriv, createDecipheriv, createHash, createHmac, createSecretKey, hkdfSync, timingSafeEqual, type KeyObject } from 'node:crypto';
import { stableStringify } from '@app/contracts';
import { isKeyOf, type KeyPart, type KeysetOrder } from '@app/persistence';

/** What a cursor carries: the last sort key of the page and its direction. */
export interface CursorPayload {
  /** Sort key of the previous page's last row (exclusive bound of the next one), one value per column of the list's order. */
  k: KeyPart[];
  d: 'asc' | 'desc';
}

/** What a cursor is bound to: it decodes only for the same account and the same list and filters. */
export interface CursorBinding {
  /** The caller's account id; '' on a public route. */
  account: string;
  /** filterHash of the list and its filters. */
  f: string;
}

/** What a decode checks the cursor against: its binding, the list's order and, when the request gives one, the direction. */
export type CursorExpectation = CursorBinding & { d?: 'asc' | 'desc'; order: KeysetOrder<never> };

const VERSION = 3;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const MAX_CURSOR_LENGTH = 1024;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const LEGACY_MAC_BYTES = 16;

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

/** Whether a cursor has the shape of the versions before 3 (`payload.signature`), which were readable and bound to no account. */
export function isEarlierVersionCursor(cursor: string): boolean {
  return cursor.includes('.');
}

/**
 * Opaque cursors bound to their caller: base64url(version byte, 12-byte IV, AES-256-GCM of the
 * JSON `[d, k]`, 16-byte tag). The account and the filter hash are the additional authenticated
 * data, so they cost no bytes in the cursor, yet a cursor decodes only where both match; a forged,
 * modified, foreign or other account's cursor decodes to null.
 *
 * The IV is synthetic (an HMAC of everything the cursor seals, as in SIV): one page always gets one
 * cursor, so a list's ETag holds and an MCP answer equals the REST body, and an IV repeats only
 * with the very same message, which shows no more than that equality.
 */
export class CursorCodec {
  // KeyObjects made once: createCipheriv and createHmac would copy raw bytes into a new key every call.
  private readonly key: KeyObject;
  private readonly ivKey: KeyObject;
  /** The HMAC key of the earlier versions, read only to resume a feed position kept from before them. */
  private readonly legacyKey: KeyObject;

  constructor(secret: string) {
    // A key of its own for encryption, derived from the one configured secret.
    this.key = createSecretKey(Buffer.from(hkdfSync('sha256', secret, '', 'filings-api cursor v3 aes-256-gcm', 32)));
    this.ivKey = createSecretKey(Buffer.from(hkdfSync('sha256', secret, '', 'filings-api cursor v3 synthetic iv', 32)));
    this.legacyKey = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  encode(payload: CursorPayload, binding: CursorBinding): string {
    const aad = additionalData(binding);
    const plain = Buffer.from(JSON.stringify([payload.d, payload.k]), 'utf8');
    const iv = createHmac('sha256', this.ivKey).update(aad).update(plain).digest().subarray(0, IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(aad);
    const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([Buffer.of(VERSION), iv, sealed, cipher.getAuthTag()]).toString('base64url');
  }

  /** The payload when the cursor is genuine, was made for this binding (and `expect.d` when given) and its key fits the list's order. */
  decode(cursor: string, expect: CursorExpectation): CursorPayload | null {
    if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH || !BASE64URL.test(cursor)) return null;
    const bytes = Buffer.from(cursor, 'base64url');
    // The canonical spelling only: base64url's last character carries unused bits.
    if (bytes.length < 1 + IV_BYTES + TAG_BYTES + 1 || bytes[0] !== VERSION || bytes.toString('base64url') !== cursor) return null;
    let plain: string;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(1, 1 + IV_BYTES), { authTagLength: TAG_BYTES });
      decipher.setAAD(additionalData(expect));
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      plain = Buffer.concat([decipher.update(bytes.subarray(1 + IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      // The tag does not match: another secret, account or filter set, or a changed byte.
      return null;
    }
    return checkedPayload(parseJson(plain), expect);
  }

  /**
   * The payload of a genuine cursor of the earlier versions (HMAC-signed, readable, bound to no
   * account) made for the filter hash `expect.f`, else null. Only the events feed reads them, after
   * it has checked the position against the caller's account.
   */
  decodeEarlierVersion(cursor: string, expect: Omit<CursorExpectation, 'account'>): CursorPayload | null {
    if (cursor.length > MAX_CURSOR_LENGTH) return null;
    const [body, sig, extra] = cursor.split('.');
    if (body === undefined || sig === undefined || extra !== undefined || !BASE64URL.test(body) || !BASE64URL.test(sig)) return null;
    const given = Buffer.from(sig);
    const expected = Buffer.from(createHmac('sha256', this.legacyKey).update(body).digest().subarray(0, LEGACY_MAC_BYTES).toString('base64url'));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const p = parseJson(Buffer.from(body, 'base64url').toString('utf8'));
    if (p === null || typeof p !== 'object' || Array.isArray(p)) return null;
    const { v, k, d, f } = p as Record<string, unknown>;
    if (f !== expect.f) return null;
    // Version 1 carried a one-column key as its one value, as text.
    const key = v === 1 && typeof k === 'string' ? keyOfV1(k, expect.order) : v === 2 ? k : undefined;
    return checkedPayload([d, key], expect);
  }
}

function additionalData(binding: CursorBinding): Buffer {
  // NUL separates: neither an account id nor a base64url hash holds one.
  return Buffer.from(`${VERSION}\u0000${binding.account}\u0000${binding.f}`, 'utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** `[d, k]` as a payload when the direction is one and the key fits the order (and the direction the expected one). */
function checkedPayload(parsed: unknown, expect: { d?: 'asc' | 'desc'; order: KeysetOrder<never> }): CursorPayload | null {
  if (!Array.isArray(parsed) || parsed.length !== 2) return null;
  const [d, k] = parsed as [unknown, unknown];
  if ((d !== 'asc' && d !== 'desc') || !isKeyOf(expect.order, k)) return null;
  if (expect.d !== undefined && d !== expect.d) return null;
  return { k, d };
}

/** The key of a version 1 cursor of a one-column order (the events feed's seq): its one value, as text. */
function keyOfV1(k: string, order: KeysetOrder<never>): unknown {
  const type = order.columns.length === 1 ? order.columns[0]!.type : undefined;
  if (type === undefined) return undefined;
  const numeric = type === 'integer' || type === 'bigint' || type === 'float8';
  return [numeric && /^-?\d+(\.\d+)?$/.test(k) ? Number(k) : k];
}
