import type { EdgarBudget, EdgarPriority } from './budget/edgar-budget';
import { sharedEdgarBudget } from './budget/shared-edgar-budget';
import { EdgarError } from './edgar.errors';
import { silentLogger, type EdgarLogger } from './edgar.logger';

export interface EdgarClientOptions {
  /** Declared User-Agent ("Company contact@company.example"), sent on every request, as SEC requires. */
  userAgent: string;
  wwwBaseUrl: string;
  dataBaseUrl: string;
  /** At most this many requests per second across the budget (SEC's fair-access limit is 10). */
  maxRps: number;
  /** Priority of this client's requests in the budget (a request may override it). Default `documents`. */
  priority?: EdgarPriority;
  /** How long every request (of every process sharing the budget) is held after a 403/429 (SEC blocks for about ten minutes). */
  throttlePauseMs?: number;
  /** Throttle pauses tolerated for one request before it fails with EDGAR_THROTTLED. */
  maxThrottlePauses?: number;
  /** Attempts on 5xx / network errors, the first included. */
  maxAttempts?: number;
  /** First backoff delay; doubled on each further attempt. */
  backoffBaseMs?: number;
  /** Per-request timeout. */
  timeoutMs?: number;
  logger?: EdgarLogger;
  /** Tests inject their own budget; by default the process-wide one (sharedEdgarBudget) is used. */
  budget?: EdgarBudget;
}

export interface EdgarResponse {
  kind: 'ok';
  url: string;
  status: number;
  bytes: Buffer;
  fetchedAt: string;
  etag?: string;
  lastModified?: string;
}

export interface EdgarNotFound {
  kind: 'not_found';
  url: string;
  status: 404;
  fetchedAt: string;
}

export type EdgarFetchResult = EdgarResponse | EdgarNotFound;

/** 304: the resource has not changed since the validators a conditional request sent. */
export interface EdgarNotModified {
  kind: 'not_modified';
  url: string;
  status: 304;
  fetchedAt: string;
}

/** What an earlier response said of its version: sent back as If-None-Match / If-Modified-Since. */
export interface EdgarValidators {
  etag?: string;
  lastModified?: string;
}

/** Per-request options. */
export interface EdgarRequestOptions {
  /**
   * Largest body read, in bytes (after gzip/deflate decoding). A larger one (announced by
   * Content-Length or counted while streaming) is not read further: EDGAR_TOO_LARGE, not retried.
   * Unset: no limit (the ingestors read what SEC serves).
   */
  maxBytes?: number;
  /** This request's priority, instead of the client's. */
  priority?: EdgarPriority;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * HTTP client for www.sec.gov and data.sec.gov. Every request goes through the shared budget at
 * the client's priority; 403/429 pause every request of the budget, 5xx and network errors are retried with
 * exponential backoff, 404 is a `not_found` result. Node's fetch decodes gzip/deflate itself.
 */
export class EdgarClient {
  private readonly budget: EdgarBudget;
  private readonly priority: EdgarPriority;
  private readonly logger: EdgarLogger;
  private readonly throttlePauseMs: number;
  private readonly maxThrottlePauses: number;
  private readonly maxAttempts: number;
  private readonly backoffBaseMs: number;
  private readonly timeoutMs: number;

  constructor(private readonly options: EdgarClientOptions) {
    if (!/\S+ \S+@\S+/.test(options.userAgent)) {
      throw new RangeError('userAgent must name the company and a contact e-mail, as SEC requires');
    }
    this.budget = options.budget ?? sharedEdgarBudget({ maxRps: options.maxRps });
    this.priority = options.priority ?? 'documents';
    this.logger = options.logger ?? silentLogger;
    this.throttlePauseMs = options.throttlePauseMs ?? 600_000;
    this.maxThrottlePauses = options.maxThrottlePauses ?? 3;
    this.maxAttempts = options.maxAttempts ?? 5;
    this.backoffBaseMs = options.backoffBaseMs ?? 500;
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  /** The same client (same budget) asking at `priority`: a worker whose use cases differ in urgency (live poll vs backfill). */
  withPriority(priority: EdgarPriority): EdgarClient {
    return new EdgarClient({ ...this.options, budget: this.budget, priority });
  }

  /** GET a path of www.sec.gov, e.g. `/files/company_tickers_exchange.json`. */
  getWww(path: string, options: EdgarRequestOptions = {}): Promise<EdgarFetchResult> {
    return this.getWhole(joinUrl(this.options.wwwBaseUrl, path), options);
  }

  /**
   * Conditional GET of a path of www.sec.gov: 304 (`not_modified`) when the resource is the version
   * `validators` name, which costs SEC no body (it still takes a slot of the budget). A response without validators is
   * always read whole.
   */
  getWwwIfChanged(path: string, validators: EdgarValidators, options: EdgarRequestOptions = {}): Promise<EdgarFetchResult | EdgarNotModified> {
    return this.get(joinUrl(this.options.wwwBaseUrl, path), options, validators);
  }

  /** GET a path of data.sec.gov, e.g. `/submissions/CIK0000789019.json`. */
  getData(path: string, options: EdgarRequestOptions = {}): Promise<EdgarFetchResult> {
    return this.getWhole(joinUrl(this.options.dataBaseUrl, path), options);
  }

  /** The URL `getWww(path)` fetches (for provenance before or without fetching). */
  wwwUrl(path: string): string {
    return joinUrl(this.options.wwwBaseUrl, path);
  }

  /** The URL `getData(path)` fetches. */
  dataUrl(path: string): string {
    return joinUrl(this.options.dataBaseUrl, path);
  }

  /** An unconditional GET: a 304 can only answer a request that sent validators, so here it is an error. */
  private async getWhole(url: string, options: EdgarRequestOptions): Promise<EdgarFetchResult> {
    const result = await this.get(url, options, {});
    if (result.kind === 'not_modified') throw new EdgarError('EDGAR_HTTP_ERROR', url, 304, `GET ${url} answered 304 to a request without validators`);
    return result;
  }

  private async get(url: string, options: EdgarRequestOptions, validators: EdgarValidators): Promise<EdgarFetchResult | EdgarNotModified> {
    const headers: Record<string, string> = { 'User-Agent': this.options.userAgent, 'Accept-Encoding': 'gzip, deflate' };
    if (validators.etag) headers['If-None-Match'] = validators.etag;
    if (validators.lastModified) headers['If-Modified-Since'] = validators.lastModified;
    let attempt = 0;
    let pauses = 0;
    for (;;) {
      await this.budget.acquire(options.priority ?? this.priority);
      attempt += 1;
      let response: Response;
      try {
        response = await fetch(url, {
          headers,
          signal: AbortSignal.timeout(this.timeoutMs),
        });
      } catch (error) {
        if (attempt >= this.maxAttempts) {
          throw new EdgarError('EDGAR_UNAVAILABLE', url, null, `GET ${url} failed after ${attempt} attempts: ${errorText(error)}`, { cause: error });
        }
        await this.backoff(url, attempt, null, errorText(error));
        continue;
      }
      const fetchedAt = new Date().toISOString();
      const { status } = response;

      if (status === 403 || status === 429) {
        await response.body?.cancel();
        pauses += 1;
        if (pauses > this.maxThrottlePauses) {
          throw new EdgarError('EDGAR_THROTTLED', url, status, `GET ${url} still ${status} after ${this.maxThrottlePauses} throttle pauses`);
        }
        // Pause the whole budget, not only this request: SEC counts every request from this host.
        // Requests already in flight may see the same status: one warn when the pause starts.
        const starting = this.budget.pausedUntilMs <= Date.now();
        this.budget.pauseFor(this.throttlePauseMs);
        const log = { url, status, pauseMs: this.throttlePauseMs, pause: pauses };
        if (starting) this.logger.warn(log, 'SEC throttled us: pausing all EDGAR requests');
        else this.logger.debug(log, 'SEC throttled a request already in flight');
        continue;
      }
      if (status === 304) {
        await response.body?.cancel();
        return { kind: 'not_modified', url, status: 304, fetchedAt };
      }
      if (status === 404) {
        await response.body?.cancel();
        this.logger.debug({ url }, 'EDGAR 404');
        return { kind: 'not_found', url, status: 404, fetchedAt };
      }
      if (status >= 500) {
        await response.body?.cancel();
        if (attempt >= this.maxAttempts) {
          throw new EdgarError('EDGAR_UNAVAILABLE', url, status, `GET ${url} answered ${status} after ${attempt} attempts`);
        }
        await this.backoff(url, attempt, status, `HTTP ${status}`);
        continue;
      }
      if (status < 200 || status >= 300) {
        await response.body?.cancel();
        throw new EdgarError('EDGAR_HTTP_ERROR', url, status, `GET ${url} answered ${status}`);
      }

      let bytes: Buffer;
      try {
        bytes = options.maxBytes === undefined ? Buffer.from(await response.arrayBuffer()) : await readCapped(url, response, options.maxBytes);
      } catch (error) {
        if (error instanceof EdgarError) throw error;
        // The body broke off mid-transfer: a network error, retried like one.
        if (attempt >= this.maxAttempts) {
          throw new EdgarError('EDGAR_UNAVAILABLE', url, status, `GET ${url}: body failed after ${attempt} attempts: ${errorText(error)}`, { cause: error });
        }
        await this.backoff(url, attempt, status, errorText(error));
        continue;
      }
      const result: EdgarResponse = { kind: 'ok', url, status, bytes, fetchedAt };
      const etag = response.headers.get('etag');
      const lastModified = response.headers.get('last-modified');
      if (etag) result.etag = etag;
      if (lastModified) result.lastModified = lastModified;
      return result;
    }
  }

  private async backoff(url: string, attempt: number, status: number | null, reason: string): Promise<void> {
    const delayMs = this.backoffBaseMs * 2 ** (attempt - 1);
    this.logger.warn({ url, status, attempt, delayMs, reason }, 'EDGAR request failed, retrying');
    await sleep(delayMs);
  }
}

/** The body, refusing more than `maxBytes` decoded bytes: announced (uncompressed Content-Length) or counted as it streams. */
async function readCapped(url: string, response: Response, maxBytes: number): Promise<Buffer> {
  const encoded = response.headers.get('content-encoding');
  const announced = Number(response.headers.get('content-length') ?? NaN);
  if ((!encoded || encoded === 'identity') && announced > maxBytes) {
    await response.body?.cancel();
    throw new EdgarError('EDGAR_TOO_LARGE', url, response.status, `GET ${url}: ${announced} bytes is over the ${maxBytes}-byte limit`);
  }
  if (!response.body) return Buffer.alloc(0);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Buffer[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new EdgarError('EDGAR_TOO_LARGE', url, response.status, `GET ${url}: body over the ${maxBytes}-byte limit`);
    }
    chunks.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
  }
  return Buffer.concat(chunks, size);
}

function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

function errorText(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}

/** The EDGAR settings every ingestor reads (libs/config's edgarConfig). */
export interface EdgarEnvironment {
  EDGAR_USER_AGENT: string;
  EDGAR_WWW_BASE_URL: string;
  EDGAR_DATA_BASE_URL: string;
  EDGAR_MAX_RPS: number;
  EDGAR_THROTTLE_PAUSE_MS: number;
  /** Redis holding the budget shared by every process of the client; unset: a budget per process. */
  EDGAR_BUDGET_REDIS_URL?: string;
  EDGAR_BUDGET_KEY_PREFIX?: string;
}

/** An EdgarClient from the validated environment, on the process-wide budget (shared through Redis when configured). */
export function edgarClientOf(config: EdgarEnvironment, logger?: EdgarLogger, priority: EdgarPriority = 'documents'): EdgarClient {
  const budget = sharedEdgarBudget({
    maxRps: config.EDGAR_MAX_RPS,
    ...(config.EDGAR_BUDGET_REDIS_URL ? { redisUrl: config.EDGAR_BUDGET_REDIS_URL } : {}),
    ...(config.EDGAR_BUDGET_KEY_PREFIX ? { keyPrefix: config.EDGAR_BUDGET_KEY_PREFIX } : {}),
    ...(logger ? { logger } : {}),
  });
  return new EdgarClient({
    userAgent: config.EDGAR_USER_AGENT,
    wwwBaseUrl: config.EDGAR_WWW_BASE_URL,
    dataBaseUrl: config.EDGAR_DATA_BASE_URL,
    maxRps: config.EDGAR_MAX_RPS,
    throttlePauseMs: config.EDGAR_THROTTLE_PAUSE_MS,
    budget,
    priority,
    ...(logger ? { logger } : {}),
  });
}
