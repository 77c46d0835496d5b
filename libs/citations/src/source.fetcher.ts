/** Who publishes a source: EDGAR, or the issuer's own site. */
export type SourceProvider = 'sec' | 'issuer_page';

/** One source to fetch, already checked against the host policy. */
export interface SourceRequest {
  provider: SourceProvider;
  url: string;
}

export type FetchedSource =
  | {
      kind: 'ok';
      /** The URL requested on the wire (the configured EDGAR base for an sec.gov URL). */
      url: string;
      bytes: Uint8Array;
      contentType: string | null;
      fetchedAt: string;
    }
  | { kind: 'unavailable'; url: string; detail: string; fetchedAt: string | null };

/** The I/O edge of verification: bytes of a source, as the ingestors fetched them. */
export interface SourceFetcher {
  fetch(request: SourceRequest): Promise<FetchedSource>;
}

export interface CachingFetcherOptions {
  /** How long fetched bytes are reused. */
  ttlMs: number;
  /** Bound on the cached bytes, all entries together; a larger body is not cached. */
  maxBytes: number;
  /** Bound on the number of entries. */
  maxEntries: number;
  now?: () => number;
}

interface Entry {
  source: Extract<FetchedSource, { kind: 'ok' }>;
  size: number;
  expiresAt: number;
}

/**
 * Fetched bytes by URL for a short time, least recently used first out, bounded in entries and
 * bytes: verifying the many citations of one filing or page fetches it once. Concurrent requests
 * for the same URL share one fetch. Failures are not kept (the next call tries again).
 */
export class CachingSourceFetcher implements SourceFetcher {
  private readonly entries = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<FetchedSource>>();
  private bytes = 0;
  private readonly now: () => number;

  constructor(
    private readonly inner: SourceFetcher,
    private readonly options: CachingFetcherOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** Entries and bytes held now (for tests and metrics). */
  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  async fetch(request: SourceRequest): Promise<FetchedSource> {
    const key = `${request.provider} ${request.url}`;
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      if (hit.expiresAt > this.now()) {
        this.entries.set(key, hit);
        return hit.source;
      }
      this.bytes -= hit.size;
    }
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.inner.fetch(request).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
      const result = await pending;
      if (result.kind === 'ok') this.store(key, result);
      return result;
    }
    return pending;
  }

  private store(key: string, source: Extract<FetchedSource, { kind: 'ok' }>): void {
    const size = source.bytes.byteLength;
    if (size > this.options.maxBytes || this.options.maxEntries < 1) return;
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.size;
    }
    this.entries.set(key, { source, size, expiresAt: this.now() + this.options.ttlMs });
    this.bytes += size;
    // Map iteration is insertion order: the first key is the least recently used.
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.options.maxBytes && this.entries.size <= this.options.maxEntries) break;
      this.entries.delete(k);
      this.bytes -= e.size;
    }
  }
}
