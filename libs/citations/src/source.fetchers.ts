import { EdgarClient, EdgarError } from '@app/edgar';
import { IrFetchError, PoliteFetcher, type PoliteFetcherOptions } from '@app/issuer-pages';
import { secPathOf, type SecEndpoints } from './source-hosts';
import type { FetchedSource, SourceFetcher, SourceRequest } from './source.fetcher';

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * EDGAR sources through the project's EDGAR client: the declared User-Agent, the process-wide
 * 10 requests/s limiter, retries on 5xx, at most `maxBytes` read (streamed, the rest not downloaded). Throttling (403/429) fails the request at once and
 * holds every SEC fetch of this fetcher for `throttlePauseMs`, as SEC asks, instead of keeping an
 * API request waiting through the pause. Null client: no EDGAR_USER_AGENT was configured.
 */
export class SecSourceFetcher implements SourceFetcher {
  private blockedUntil = 0;

  constructor(
    private readonly client: EdgarClient | null,
    private readonly endpoints: SecEndpoints,
    private readonly throttlePauseMs: number,
    /** Largest body read (EDGAR_TOO_LARGE past it: source_unavailable); bulk files run to gigabytes. */
    private readonly maxBytes: number,
    private readonly now: () => number = Date.now,
  ) {}

  async fetch(request: SourceRequest): Promise<FetchedSource> {
    const path = secPathOf(request.url, this.endpoints);
    if (!path) return { kind: 'unavailable', url: request.url, detail: 'not an EDGAR URL', fetchedAt: null };
    const target = path.host === 'www' ? this.endpoints.wwwBaseUrl : this.endpoints.dataBaseUrl;
    if (!this.client) {
      return { kind: 'unavailable', url: request.url, detail: 'EDGAR sources cannot be fetched: EDGAR_USER_AGENT is not configured (SEC requires a declared User-Agent)', fetchedAt: null };
    }
    if (this.now() < this.blockedUntil) {
      return { kind: 'unavailable', url: request.url, detail: `SEC throttled this service: EDGAR is not asked again before ${new Date(this.blockedUntil).toISOString()}`, fetchedAt: null };
    }
    try {
      const options = { maxBytes: this.maxBytes };
      const r = path.host === 'www' ? await this.client.getWww(path.path, options) : await this.client.getData(path.path, options);
      if (r.kind === 'not_found') return { kind: 'unavailable', url: r.url, detail: `EDGAR answered 404 for ${r.url}`, fetchedAt: r.fetchedAt };
      return { kind: 'ok', url: r.url, bytes: r.bytes, contentType: null, fetchedAt: r.fetchedAt };
    } catch (error) {
      if (error instanceof EdgarError && error.code === 'EDGAR_THROTTLED') this.blockedUntil = this.now() + this.throttlePauseMs;
      const url = error instanceof EdgarError ? error.url : `${target}${path.path}`;
      return { kind: 'unavailable', url, detail: errorText(error), fetchedAt: null };
    }
  }
}

/**
 * Issuer sources through the project's polite IR fetcher: declared User-Agent, robots.txt,
 * per-host rate limit, size limit, and no request (redirect hops included) to a loopback, private
 * or link-local address unless allowed (libs/net), and no redirect hop the options' allowRedirect
 * refuses (source_unavailable, REFUSED in the detail). The fetcher is renewed every `renewMs`, so a
 * robots.txt that could not be read (which bars its host for a fetcher's life) is asked again later.
 */
export class IssuerSourceFetcher implements SourceFetcher {
  private fetcher: PoliteFetcher;
  private createdAt: number;

  constructor(
    private readonly options: PoliteFetcherOptions,
    private readonly renewMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.fetcher = new PoliteFetcher(options);
    this.createdAt = now();
  }

  async fetch(request: SourceRequest): Promise<FetchedSource> {
    if (this.now() - this.createdAt > this.renewMs) {
      this.fetcher = new PoliteFetcher(this.options);
      this.createdAt = this.now();
    }
    try {
      const r = await this.fetcher.fetch(request.url);
      switch (r.kind) {
        case 'ok':
          return { kind: 'ok', url: r.url, bytes: r.bytes, contentType: r.contentType, fetchedAt: r.fetchedAt };
        case 'not_found':
          return { kind: 'unavailable', url: r.url, detail: `the site answered ${r.status} for ${r.url}`, fetchedAt: r.fetchedAt };
        case 'disallowed':
          return { kind: 'unavailable', url: r.url, detail: `the site's robots.txt disallows ${r.url}`, fetchedAt: null };
        case 'not_modified':
          return { kind: 'unavailable', url: r.url, detail: `the site answered 304 to an unconditional GET of ${r.url}`, fetchedAt: r.fetchedAt };
      }
    } catch (error) {
      if (error instanceof IrFetchError) return { kind: 'unavailable', url: error.url, detail: `${error.code}: ${error.message}`, fetchedAt: null };
      throw error;
    }
  }
}

/** Sends each request to the fetcher of its provider. */
export class ProviderSourceFetcher implements SourceFetcher {
  constructor(private readonly byProvider: { sec: SourceFetcher; issuer_page: SourceFetcher }) {}

  fetch(request: SourceRequest): Promise<FetchedSource> {
    return this.byProvider[request.provider].fetch(request);
  }
}

export type { PoliteFetcherOptions };
