import { timingSafeEqual } from 'node:crypto';
import type { ApiKeyAuthRecord, ApiKeysRepository, ApiKeySummary, Plan } from '@app/persistence';
import type { Logger } from '@app/observability';
import { generateApiKey, hashApiKey, parseApiKey, verifyApiKey, type ParsedApiKey } from './api-key.format';

/** The caller behind a valid key. */
export interface Principal {
  keyId: string;
  accountId: string;
  plan: Plan;
  mode: 'live' | 'test';
}

export type AuthResult =
  | { ok: true; principal: Principal }
  /** `known`: the key's id exists (revoked, or a wrong secret for it). */
  | { ok: false; reason: 'missing' | 'malformed' | 'unknown' | 'revoked'; known?: Principal };

interface CacheEntry {
  record: ApiKeyAuthRecord | null;
  expiresAt: number;
  /** The key that last verified against this record: later requests compare bytes, not HMACs. */
  verified?: Buffer;
}

const CACHE_MAX = 10_000;
const LAST_USED_EVERY_MS = 60_000;

/** A key as the Authorization header presents it, with the parts its format names. */
type PresentedKey = ParsedApiKey & { key: string };

/** The key an Authorization header presents, or why it presents none. */
function presentedKey(authorization: string | undefined): PresentedKey | { ok: false; reason: 'missing' | 'malformed' } {
  if (authorization === undefined || authorization === '') return { ok: false, reason: 'missing' };
  const key = /^Bearer +(\S+) *$/i.exec(authorization)?.[1] ?? '';
  const parsed = parseApiKey(key);
  return parsed ? { ...parsed, key } : { ok: false, reason: 'malformed' };
}

/**
 * Authenticates Bearer keys. Key records are cached in-process for `cacheTtlMs` (default 30 s), so
 * a revocation takes effect on every process within that TTL. last_used_at is written at most
 * once a minute per key per process, off the request path.
 */
export class ApiKeysService {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly lastTouched = new Map<string, number>();

  constructor(
    private readonly repo: ApiKeysRepository,
    private readonly pepper: string,
    private readonly logger: Logger,
    private readonly cacheTtlMs = 30_000,
  ) {}

  /**
   * The answer when no store read is needed (no key, a malformed one, a cached record), else
   * undefined: then `authenticate` reads the record. The request path tries this first, so most
   * requests authenticate without a promise.
   */
  authenticateCached(authorization: string | undefined): AuthResult | undefined {
    const presented = presentedKey(authorization);
    if ('reason' in presented) return presented;
    const entry = this.cached(presented.publicId);
    return entry && this.judge(entry, presented);
  }

  async authenticate(authorization: string | undefined): Promise<AuthResult> {
    const presented = presentedKey(authorization);
    if ('reason' in presented) return presented;
    return this.judge(this.cached(presented.publicId) ?? (await this.load(presented.publicId)), presented);
  }

  private judge(entry: CacheEntry, presented: PresentedKey): AuthResult {
    const record = entry.record;
    if (!record || record.mode !== presented.mode) return { ok: false, reason: 'unknown' };
    if (!this.verify(entry, presented.key, record.secretHash)) return { ok: false, reason: 'unknown' };
    const principal: Principal = { keyId: record.id, accountId: record.accountId, plan: record.plan, mode: record.mode };
    if (record.revokedAt) return { ok: false, reason: 'revoked', known: principal };
    this.touch(record.id);
    return { ok: true, principal };
  }

  /** HMAC check on first sight of a key per cache entry; then a constant-time byte comparison. */
  private verify(entry: CacheEntry, key: string, secretHash: string): boolean {
    const presented = Buffer.from(key);
    if (entry.verified && entry.verified.length === presented.length && timingSafeEqual(entry.verified, presented)) return true;
    if (!verifyApiKey(this.pepper, key, secretHash)) return false;
    entry.verified = presented;
    return true;
  }

  private cached(id: string): CacheEntry | undefined {
    const hit = this.cache.get(id);
    return hit && hit.expiresAt > Date.now() ? hit : undefined;
  }

  private async load(id: string): Promise<CacheEntry> {
    const now = Date.now();
    const entry: CacheEntry = { record: await this.repo.findForAuth(id), expiresAt: now + this.cacheTtlMs };
    if (this.cacheTtlMs > 0) {
      if (this.cache.size >= CACHE_MAX) {
        // Map iteration order is insertion order: drop the oldest entry.
        const oldest = this.cache.keys().next();
        if (!oldest.done) this.cache.delete(oldest.value);
      }
      this.cache.delete(id);
      this.cache.set(id, entry);
    }
    return entry;
  }

  private touch(id: string): void {
    const now = Date.now();
    const last = this.lastTouched.get(id);
    if (last !== undefined && now - last < LAST_USED_EVERY_MS) return;
    if (this.lastTouched.size >= CACHE_MAX) this.lastTouched.clear();
    this.lastTouched.set(id, now);
    this.repo.touchLastUsed(id, new Date(now)).catch((err: unknown) => {
      this.logger.warn({ err, keyId: id }, 'could not update api key last_used_at');
    });
  }

  /** Forgets cached records (tests, and after a revocation in this process). */
  invalidate(id?: string): void {
    if (id === undefined) this.cache.clear();
    else this.cache.delete(id);
  }

  // Management (the keys CLI)

  async createKey(input: { accountId: string; mode: 'live' | 'test'; label: string | null }): Promise<{ id: string; key: string }> {
    const generated = generateApiKey(input.mode);
    await this.repo.insertKey({
      id: generated.publicId,
      accountId: input.accountId,
      mode: input.mode,
      secretHash: hashApiKey(this.pepper, generated.key),
      label: input.label,
    });
    return { id: generated.publicId, key: generated.key };
  }

  async revoke(id: string): Promise<boolean> {
    const done = await this.repo.revoke(id);
    this.invalidate(id);
    return done;
  }

  listKeys(): Promise<ApiKeySummary[]> {
    return this.repo.listKeys();
  }
}
