import { createHash } from 'node:crypto';
import { assertPublicUrl, NonPublicAddressError } from '@app/net';
import { ALLOW_ALL, DISALLOW_ALL, parseRobotsTxt, type RobotsRules } from './robots.parser';

/** Minimal structured logger (pino-compatible), so this lib needs no logging dependency. */
export interface FetchLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

/** What a previous fetch of a URL left behind: validators for conditional GET and the bytes' hash. */
export interface PageValidators {
  etag?: string;
  lastModified?: string;
  /** `sha256:<hex>` of the bytes last fetched. */
  contentHash?: string;
}

export interface PoliteFetcherOptions {
  /** Declared User-Agent, sent on every request and matched against robots.txt groups. */
  userAgent: string;
  /** Requests per second to one host (default 1). robots.txt Crawl-delay can only slow it down. */
  maxRpsPerHost?: number;
  /**
   * How long a host's robots.txt (or its absence or failure) is kept before it is read again;
   * default: for the fetcher's life. A long-running crawler sets 24 hours (RFC 9309 2.4), so a
   * changed robots.txt, or one that failed once, is read again.
   */
  robotsTtlMs?: number;
  /** Longest Crawl-delay honoured, in seconds (a larger one is capped, and logged). */
  maxCrawlDelaySeconds?: number;
  timeoutMs?: number;
  /** Attempts on 5xx and network errors, the first included. */
  maxAttempts?: number;
  backoffBaseMs?: number;
  /** Bodies larger than this are refused. */
  maxBytes?: number;
  /**
   * Allow loopback, private and other special-use addresses (default false). Only for tests and
   * local runs that serve fixtures on 127.0.0.1: IR pages and their redirects are third-party input.
   */
  allowPrivateHosts?: boolean;
  /**
   * Host policy for redirect hops of a page (robots.txt's own redirects are not asked): a hop it
   * refuses is not requested, and the fetch fails with REFUSED. Unset: any hop passing the address
   * check is followed. `from` is the URL the caller asked for.
   */
  allowRedirect?: (target: URL, from: URL) => boolean | Promise<boolean>;
  logger?: FetchLogger;
}

export type PageFetchResult =
  | {
      kind: 'ok';
      url: string;
      /** After redirects (each hop checked: public address, its host's robots.txt and rate limit). */
      finalUrl: string;
      status: number;
      bytes: Buffer;
      contentType: string | null;
      contentHash: string;
      fetchedAt: string;
      validators: PageValidators;
      /** Same bytes as the previous fetch (same content hash). */
      unchanged: boolean;
    }
  /** 304 to a conditional GET: the page is as it was; no body. */
  | { kind: 'not_modified'; url: string; fetchedAt: string; validators: PageValidators }
  | { kind: 'not_found'; url: string; status: number; fetchedAt: string }
  | { kind: 'disallowed'; url: string };

/**
 * UNAVAILABLE: network error, timeout, body cut off, 5xx/429 after retries. HTTP_ERROR: another
 * non-2xx answer, or a broken redirect chain. TOO_LARGE: body over the limit. REFUSED: the URL
 * (or a redirect hop) is not http(s) or resolves to a non-public address.
 */
export type IrFetchErrorCode = 'UNAVAILABLE' | 'HTTP_ERROR' | 'TOO_LARGE' | 'REFUSED';

export class IrFetchError extends Error {
  constructor(
    readonly code: IrFetchErrorCode,
    readonly url: string,
    readonly status: number | null,
    message: string,
  ) {
    super(message);
    this.name = 'IrFetchError';
  }
}

/** Redirects followed per request (RFC 9309 asks at least five for robots.txt). */
export const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** One HTTP exchange: a page outcome, or a redirect for `fetch` to check and follow. */
type Exchange = Exclude<PageFetchResult, { kind: 'disallowed' }> | { kind: 'redirect'; url: string; status: number; location: string };

const silent: FetchLogger = { info: () => undefined, warn: () => undefined, debug: () => undefined };
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The I/O edge of IR crawling: a polite HTTP client for issuer sites.
 * - robots.txt is fetched once per origin (per robotsTtlMs) and obeyed (4xx: allow all; 5xx or
 *   unreachable: disallow all until it is read again, as RFC 9309 asks);
 * - requests to one host start at most `maxRpsPerHost` per second (or the Crawl-delay, if slower);
 * - conditional GET from the validators the caller passes (304 -> `not_modified`), and the
 *   content hash tells `unchanged` bodies apart;
 * - timeouts, retries with exponential backoff on 5xx, network and body-read errors, a body size limit;
 * - no request to a non-public address (unless allowPrivateHosts). Redirects are followed by hand,
 *   at most MAX_REDIRECTS hops, and every hop is a request of its own: address checked, its
 *   origin's robots.txt obeyed, its host's rate limit kept. Off-host redirects are followed
 *   (http -> https and www -> apex are common on IR sites) under those same checks.
 *   The address is checked before connecting, not pinned: DNS rebinding between the check and the
 *   connection is not covered.
 */
export class PoliteFetcher {
  private readonly robots = new Map<string, { rules: Promise<RobotsRules>; at: number }>();
  private readonly nextStart = new Map<string, number>();
  private readonly minIntervalMs: number;
  private readonly logger: FetchLogger;
  private readonly timeoutMs: number;
  private readonly maxAttempts: number;
  private readonly backoffBaseMs: number;
  private readonly maxBytes: number;
  private readonly maxCrawlDelaySeconds: number;

  constructor(private readonly options: PoliteFetcherOptions) {
    if (!options.userAgent.trim()) throw new RangeError('userAgent is required');
    const rps = options.maxRpsPerHost ?? 1;
    if (!(rps > 0)) throw new RangeError(`maxRpsPerHost must be > 0, got ${rps}`);
    this.minIntervalMs = 1000 / rps;
    this.logger = options.logger ?? silent;
    this.timeoutMs = options.timeoutMs ?? 20_000;
    this.maxAttempts = options.maxAttempts ?? 3;
    this.backoffBaseMs = options.backoffBaseMs ?? 1000;
    this.maxBytes = options.maxBytes ?? 5 * 1024 * 1024;
    this.maxCrawlDelaySeconds = options.maxCrawlDelaySeconds ?? 30;
  }

  /** GET a page, politely. `previous` turns it into a conditional GET (sent on every hop, as fetch's own redirect mode does). */
  async fetch(url: string, previous: PageValidators = {}): Promise<PageFetchResult> {
    const headers: Record<string, string> = { 'User-Agent': this.options.userAgent, Accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5' };
    if (previous.etag) headers['If-None-Match'] = previous.etag;
    if (previous.lastModified) headers['If-Modified-Since'] = previous.lastModified;
    let hop = url;
    for (let hops = 0; ; hops += 1) {
      await this.assertAllowedAddress(hop);
      const target = new URL(hop);
      const rules = await this.robotsFor(target.origin);
      if (!rules.isAllowed(`${target.pathname}${target.search}`, this.options.userAgent)) {
        this.logger.info({ url, ...(hop !== url ? { redirectedTo: hop } : {}) }, 'robots.txt disallows this page: skipped');
        return { kind: 'disallowed', url };
      }
      const crawlDelay = Math.min(rules.crawlDelaySeconds(this.options.userAgent) ?? 0, this.maxCrawlDelaySeconds);
      const result = await this.request(hop, headers, previous, Math.max(this.minIntervalMs, crawlDelay * 1000));
      if (result.kind !== 'redirect') return result.kind === 'ok' ? { ...result, url, finalUrl: hop } : { ...result, url };
      hop = this.nextHop(url, result, hops);
      if (this.options.allowRedirect && !(await this.options.allowRedirect(new URL(hop), new URL(url)))) {
        throw new IrFetchError('REFUSED', hop, result.status, `GET ${url}: redirected (${result.status}) to ${hop}, a host the redirect policy does not allow: not requested`);
      }
    }
  }

  /** The redirect's target, absolute; throws when the chain is too long or the target is not http(s). */
  private nextHop(url: string, redirect: Extract<Exchange, { kind: 'redirect' }>, hops: number): string {
    if (hops >= MAX_REDIRECTS) throw new IrFetchError('HTTP_ERROR', url, redirect.status, `GET ${url}: more than ${MAX_REDIRECTS} redirects`);
    const next = new URL(redirect.location, redirect.url);
    next.hash = '';
    this.logger.debug({ url, from: redirect.url, to: next.toString(), status: redirect.status }, 'IR page redirected');
    return next.toString();
  }

  /** Refuses non-http(s) URLs and hosts resolving to non-public addresses (unless allowed). */
  private async assertAllowedAddress(url: string): Promise<void> {
    const { protocol } = new URL(url);
    if (protocol !== 'http:' && protocol !== 'https:') throw new IrFetchError('REFUSED', url, null, `GET ${url}: only http(s) is fetched`);
    try {
      await assertPublicUrl(url, { allowPrivate: this.options.allowPrivateHosts ?? false });
    } catch (error) {
      if (error instanceof NonPublicAddressError) throw new IrFetchError('REFUSED', url, null, error.message);
      throw new IrFetchError('UNAVAILABLE', url, null, `GET ${url}: cannot resolve the host: ${errorText(error)}`);
    }
  }

  /** One URL, no redirect followed: retries 5xx/429, network errors and bodies cut off. */
  private async request(url: string, headers: Record<string, string>, previous: PageValidators, intervalMs: number): Promise<Exchange> {
    for (let attempt = 1; ; attempt += 1) {
      await this.turn(new URL(url).host, intervalMs);
      let response: Response;
      try {
        response = await fetch(url, { headers, signal: AbortSignal.timeout(this.timeoutMs), redirect: 'manual' });
      } catch (error) {
        if (attempt >= this.maxAttempts) throw new IrFetchError('UNAVAILABLE', url, null, `GET ${url} failed after ${attempt} attempts: ${errorText(error)}`);
        await this.backoff(url, attempt, null, errorText(error));
        continue;
      }
      const fetchedAt = new Date().toISOString();
      const { status } = response;
      if (status >= 500 || status === 429) {
        await response.body?.cancel();
        if (attempt >= this.maxAttempts) throw new IrFetchError('UNAVAILABLE', url, status, `GET ${url} answered ${status} after ${attempt} attempts`);
        await this.backoff(url, attempt, status, `HTTP ${status}`);
        continue;
      }
      if (status === 304) {
        await response.body?.cancel();
        return { kind: 'not_modified', url, fetchedAt, validators: previous };
      }
      if (status === 404 || status === 410) {
        await response.body?.cancel();
        return { kind: 'not_found', url, status, fetchedAt };
      }
      const location = response.headers.get('location');
      if (REDIRECT_STATUSES.has(status) && location) {
        await response.body?.cancel();
        return { kind: 'redirect', url, status, location };
      }
      if (status < 200 || status >= 300) {
        await response.body?.cancel();
        throw new IrFetchError('HTTP_ERROR', url, status, `GET ${url} answered ${status}`);
      }
      let bytes: Buffer;
      try {
        bytes = await this.readBody(url, response);
      } catch (error) {
        // A timeout or a reset while the body streams is as transient as one before the headers.
        if (error instanceof IrFetchError) throw error;
        if (attempt >= this.maxAttempts) throw new IrFetchError('UNAVAILABLE', url, status, `GET ${url}: body cut off after ${attempt} attempts: ${errorText(error)}`);
        await this.backoff(url, attempt, status, `body cut off: ${errorText(error)}`);
        continue;
      }
      const contentHash = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
      const validators: PageValidators = { contentHash };
      const etag = response.headers.get('etag');
      const lastModified = response.headers.get('last-modified');
      if (etag) validators.etag = etag;
      if (lastModified) validators.lastModified = lastModified;
      return {
        kind: 'ok',
        url,
        finalUrl: url,
        status,
        bytes,
        contentType: response.headers.get('content-type'),
        contentHash,
        fetchedAt,
        validators,
        unchanged: previous.contentHash === contentHash,
      };
    }
  }

  /** Reads the body, refusing more than maxBytes (announced by Content-Length or counted). */
  private async readBody(url: string, response: Response): Promise<Buffer> {
    const announced = Number(response.headers.get('content-length') ?? NaN);
    if (announced > this.maxBytes) {
      await response.body?.cancel();
      throw new IrFetchError('TOO_LARGE', url, response.status, `GET ${url}: ${announced} bytes is over the ${this.maxBytes}-byte limit`);
    }
    if (!response.body) return Buffer.alloc(0);
    const chunks: Buffer[] = [];
    let size = 0;
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > this.maxBytes) {
        await reader.cancel();
        throw new IrFetchError('TOO_LARGE', url, response.status, `GET ${url}: body over the ${this.maxBytes}-byte limit`);
      }
      chunks.push(Buffer.from(value));
    }
    return Buffer.concat(chunks);
  }

  /** robots.txt of an origin, fetched once per robotsTtlMs (concurrent callers share the one request). */
  private robotsFor(origin: string): Promise<RobotsRules> {
    const held = this.robots.get(origin);
    if (held && Date.now() - held.at < (this.options.robotsTtlMs ?? Infinity)) return held.rules;
    const rules = this.loadRobots(origin);
    this.robots.set(origin, { rules, at: Date.now() });
    return rules;
  }

  /** robots.txt of an origin; its redirects are followed (at most MAX_REDIRECTS, each hop's address checked, RFC 9309 2.3.1.2). */
  private async loadRobots(origin: string): Promise<RobotsRules> {
    const url = `${origin}/robots.txt`;
    try {
      let result = await this.request(url, { 'User-Agent': this.options.userAgent }, {}, this.minIntervalMs);
      for (let hops = 0; result.kind === 'redirect'; hops += 1) {
        const hop = this.nextHop(url, result, hops);
        await this.assertAllowedAddress(hop);
        result = await this.request(hop, { 'User-Agent': this.options.userAgent }, {}, this.minIntervalMs);
      }
      if (result.kind === 'ok') {
        this.logger.debug({ url }, 'robots.txt read');
        return parseRobotsTxt(result.bytes.toString('utf8'));
      }
      this.logger.debug({ url, result: result.kind }, 'no robots.txt: everything allowed');
      return ALLOW_ALL;
    } catch (error) {
      if (error instanceof IrFetchError && error.code === 'HTTP_ERROR' && error.status !== null && error.status < 500) return ALLOW_ALL;
      this.logger.warn({ url, error: errorText(error) }, 'robots.txt unreachable: the whole host is treated as disallowed');
      return DISALLOW_ALL;
    }
  }

  /** Waits for this host's next request slot. */
  private async turn(host: string, intervalMs: number): Promise<void> {
    const now = Date.now();
    const at = Math.max(now, this.nextStart.get(host) ?? 0);
    this.nextStart.set(host, at + intervalMs);
    if (at > now) await sleep(at - now);
  }

  private async backoff(url: string, attempt: number, status: number | null, reason: string): Promise<void> {
    const delayMs = this.backoffBaseMs * 2 ** (attempt - 1);
    this.logger.warn({ url, status, attempt, delayMs, reason }, 'IR page request failed, retrying');
    await sleep(delayMs);
  }
}

function errorText(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}
