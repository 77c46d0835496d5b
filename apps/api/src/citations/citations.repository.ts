import type { DataSource } from 'typeorm';
import type { IssuerOriginRegistry } from '@app/citations';

/*
 * An origin is an issuer's when some issuer page or document the projector stored lives there:
 * a document (its URL, the IR page that links it, the URL its text was read from), an issuer-page
 * roster entry, or an issuer description. One statement reads the distinct origins of all of them
 * (a few hundred sites, however many rows), so a verification never scans per origin.
 */
const ORIGINS_SQL = `
  SELECT DISTINCT substring(u FROM '^https?://[^/?#]+') AS origin
    FROM (
      SELECT url AS u FROM documents
      UNION ALL SELECT found_on FROM documents
      UNION ALL SELECT text_source_url FROM documents
      UNION ALL SELECT source_url FROM roster_entries WHERE source_provider = 'issuer_page'
      UNION ALL SELECT source_url FROM company_descriptions
    ) urls
   WHERE u IS NOT NULL
   LIMIT $1`;

export interface IssuerOriginsOptions {
  /** How long a loaded set is used before it is read again. */
  refreshMs?: number;
  /** Most origins held; more (never expected: one or two per covered issuer) are left out, and logged. */
  maxOrigins?: number;
  now?: () => number;
  onTruncated?: (held: number) => void;
}

/** `origin` as URL.origin writes it (lowercase host, default port dropped), or null. */
function originOf(raw: string): string | null {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * Issuer origins from the read models: the whole set, loaded by one query and refreshed every
 * `refreshMs` (a site the projector stores appears within that). Concurrent callers share one
 * load; when a refresh fails the previous set is kept (and the next call tries again).
 */
export class IssuerOriginsRepository implements IssuerOriginRegistry {
  private origins: ReadonlySet<string> | null = null;
  private loadedAt = 0;
  private loading: Promise<ReadonlySet<string>> | null = null;
  private readonly refreshMs: number;
  private readonly maxOrigins: number;
  private readonly now: () => number;

  constructor(
    private readonly dataSource: Pick<DataSource, 'query'>,
    private readonly options: IssuerOriginsOptions = {},
  ) {
    this.refreshMs = options.refreshMs ?? 3 * 60_000;
    this.maxOrigins = options.maxOrigins ?? 50_000;
    this.now = options.now ?? Date.now;
  }

  async isKnownIssuerOrigin(origin: string): Promise<boolean> {
    return (await this.current()).has(origin);
  }

  private async current(): Promise<ReadonlySet<string>> {
    if (this.origins && this.now() - this.loadedAt < this.refreshMs) return this.origins;
    this.loading ??= this.load().finally(() => (this.loading = null));
    try {
      return await this.loading;
    } catch (error) {
      if (this.origins) return this.origins;
      throw error;
    }
  }

  private async load(): Promise<ReadonlySet<string>> {
    const rows = await this.dataSource.query<Array<{ origin: string | null }>>(ORIGINS_SQL, [this.maxOrigins + 1]);
    const origins = new Set<string>();
    for (const row of rows.slice(0, this.maxOrigins)) {
      const origin = row.origin === null ? null : originOf(row.origin);
      if (origin) origins.add(origin);
    }
    if (rows.length > this.maxOrigins) this.options.onTruncated?.(this.maxOrigins);
    this.origins = origins;
    this.loadedAt = this.now();
    return origins;
  }
}
