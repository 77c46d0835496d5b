import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { PageValidators } from '@app/issuer-pages';

/** What the crawler keeps per page between fetches: validators, content hash, and the links it led to. */
export interface PageState extends PageValidators {
  /** Same-site pages the page linked to, so a 304 landing page still leads to its pages. */
  next?: Record<string, string[]>;
}

interface StateFile {
  version: 1;
  pages: Record<string, PageState>;
}

/**
 * Per-page crawl state, in memory, mirrored to a small JSON file when a path is given (written
 * whole to a temporary file and renamed, so a crash never leaves half a file). An unreadable file
 * is logged by the caller and the crawl starts fresh: the state only saves requests.
 */
export class CrawlStateStore {
  private readonly pages = new Map<string, PageState>();

  /** Throws when the file exists but cannot be read or parsed, unless `ignoreExisting` (it is then overwritten on save). */
  constructor(
    private readonly path?: string,
    options: { ignoreExisting?: boolean } = {},
  ) {
    if (path && !options.ignoreExisting && existsSync(path)) {
      const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<StateFile>;
      if (parsed.version === 1 && parsed.pages) for (const [url, state] of Object.entries(parsed.pages)) this.pages.set(url, state);
    }
  }

  get(url: string): PageState | undefined {
    return this.pages.get(url);
  }

  set(url: string, state: PageState): void {
    this.pages.set(url, state);
  }

  save(): void {
    if (!this.path) return;
    const file: StateFile = { version: 1, pages: Object.fromEntries(this.pages) };
    const tmp = `${this.path}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(file, null, 1)}\n`);
    renameSync(tmp, this.path);
  }
}
