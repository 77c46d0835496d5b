import { createHash } from 'node:crypto';
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
  /** Longest Crawl-delay honoured, in seconds (a larger one is capped, and logged). */
  maxCrawlDelaySeconds?: number;
  timeoutMs?: number;
  /** Attempts on 5xx and network errors, the first included. */
  maxAttempts?: number;
  backoffBaseMs?: number;
  /** Bodies larger than this are refused. */
  maxBytes?: number;
  logger?: FetchLogger;
}

export type PageFetchResult =
  | {
      kind: 'ok';
      url: string;
      /** After redirects. */
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

export type IrFetchErrorCode = 'UNAVAILABLE' | 'HTTP_ERROR' | 'TOO_LARGE';

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

const silent: FetchLogger = { info: () => undefined, warn: () => undefined, debug: () => undefined };
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The I/O edge of IR crawling: a polite HTTP client for issuer sites.
 * - robots.txt is fetched once per origin and obeyed (4xx: allow all; 5xx or unreachable:
 *   disallow all for this fetcher's life, as RFC 9309 asks);
 * - requests to one host start at most `maxRpsPerHost` per second (or the Crawl-delay, if slower);
 * - conditional GET from the validators the caller passes (304 -> `not_modified`), and the
 *   content hash tells `unchanged` bodies apart;
 * - timeouts, retries with exponential backoff on 5xx and network errors, a body size limit.
 */
export class PoliteFetcher {
  private readonly robots = new Map<string, Promise<RobotsRules>>();
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

  /** GET a page, politely. `previous` turns it into a conditional GET. */
  async fetch(url: string, previous: PageValidators = {}): Promise<PageFetchResult> {
    const target = new URL(url);
    const rules = await this.robotsFor(target.origin);
    if (!rules.isAllowed(`${target.pathname}${target.search}`, this.options.userAgent)) {
      this.logger.info({ url }, 'robots.txt disallows this page: skipped');
      return { kind: 'disallowed', url };
    }
    const headers: Record<string, string> = { 'User-Agent': this.options.userAgent, Accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5' };
    if (previous.etag) headers['If-None-Match'] = previous.etag;
    if (previous.lastModified) headers['If-Modified-Since'] = previous.lastModified;
    const crawlDelay = Math.min(rules.crawlDelaySeconds(this.options.userAgent) ?? 0, this.maxCrawlDelaySeconds);
    return this.request(url, headers, previous, Math.max(this.minIntervalMs, crawlDelay * 1000));
  }

  private async request(url: string, headers: Record<string, string>, previous: PageValidators, intervalMs: number): Promise<PageFetchResult> {
    for (let attempt = 1; ; attempt += 1) {
      await this.turn(new URL(url).host, intervalMs);
      let response: Response;
      try {
        response = await fetch(url, { headers, signal: AbortSignal.timeout(this.timeoutMs), redirect: 'follow' });
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
      if (status < 200 || status >= 300) {
        await response.body?.cancel();
        throw new IrFetchError('HTTP_ERROR', url, status, `GET ${url} answered ${status}`);
      }
      const bytes = await this.readBody(url, response);
      const contentHash = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
      const validators: PageValidators = { contentHash };
      const etag = response.headers.get('etag');
      const lastModified = response.headers.get('last-modified');
      if (etag) validators.etag = etag;
      if (lastModified) validators.lastModified = lastModified;
      return {
        kind: 'ok',
        url,
        finalUrl: response.url || url,
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

  /** robots.txt of an origin, fetched once (concurrent callers share the one request). */
  private robotsFor(origin: string): Promise<RobotsRules> {
    let rules = this.robots.get(origin);
    if (!rules) {
      rules = this.loadRobots(origin);
      this.robots.set(origin, rules);
    }
    return rules;
  }

  private async loadRobots(origin: string): Promise<RobotsRules> {
    const url = `${origin}/robots.txt`;
    try {
      const result = await this.request(url, { 'User-Agent': this.options.userAgent }, {}, this.minIntervalMs);
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
