import { lookup as dnsLookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isNonPublicAddress, NonPublicAddressError } from '@app/net';
import { redactSecrets } from '@app/observability';
import { RESPONSE_EXCERPT_BYTES } from '@app/webhooks';

export interface SendOptions {
  timeoutMs: number;
  allowHttp: boolean;
  allowPrivateHosts: boolean;
  /** Sockets kept open per receiver host (keep-alive). */
  maxSockets: number;
}

export interface SendResult {
  statusCode: number | null;
  /** The first KB of the response body. */
  body: Buffer;
  retryAfter: string | null;
  durationMs: number;
  /** Why there is no status (network error, timeout, refused URL), or null. */
  error: string | null;
}

/** Bodies past this are not read (and the socket is dropped): the log keeps 1 KB anyway. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * POSTs one delivery. No redirects are followed (a 3xx is a failed attempt). Unless private hosts
 * are allowed, every address a new connection resolves to is checked at connect time (DNS can
 * change between registration and delivery), and an IP-literal URL before the request.
 * Never throws: every failure is a result with its error.
 */
export class WebhookSender {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;
  private readonly targets = new Map<string, Target | string>();

  constructor(private readonly options: SendOptions) {
    const lookup: LookupFunction | undefined = options.allowPrivateHosts ? undefined : checkedLookup;
    const agentOptions = { keepAlive: true, maxSockets: options.maxSockets, scheduling: 'lifo' as const };
    this.httpAgent = new http.Agent({ ...agentOptions, ...(lookup ? { lookup } : {}) });
    this.httpsAgent = new https.Agent({ ...agentOptions, ...(lookup ? { lookup } : {}) });
  }

  async send(url: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const started = performance.now();
    const failed = (error: string): SendResult => ({ statusCode: null, body: Buffer.alloc(0), retryAfter: null, durationMs: Math.round(performance.now() - started), error });
    const target = this.targetOf(url);
    if (typeof target === 'string') return failed(target);
    return new Promise<SendResult>((resolve) => {
      let settled = false;
      const finish = (r: Omit<SendResult, 'durationMs'>): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...r, durationMs: Math.round(performance.now() - started) });
      };
      const req = (target.https ? https : http).request({
        ...target.options,
        method: 'POST',
        agent: target.https ? this.httpsAgent : this.httpAgent,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      });
      const timeoutError = `timeout after ${this.options.timeoutMs} ms`;
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        req.destroy(new Error(timeoutError));
      }, this.options.timeoutMs);
      req.on('error', (err) => {
        const error = err instanceof NonPublicAddressError ? `refused: ${err.message}` : err.message;
        finish({ statusCode: null, body: Buffer.alloc(0), retryAfter: null, error });
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        let seen = 0;
        res.on('data', (chunk: Buffer) => {
          seen += chunk.length;
          if (kept < RESPONSE_EXCERPT_BYTES) {
            chunks.push(chunk);
            kept += chunk.length;
          }
          if (seen > MAX_RESPONSE_BYTES) res.destroy();
        });
        const done = (): void => {
          // Headers in time but the body not: the receiver did not answer within the timeout.
          if (timedOut) return finish({ statusCode: null, body: Buffer.alloc(0), retryAfter: null, error: timeoutError });
          const retryAfter = res.headers['retry-after'];
          finish({
            statusCode: res.statusCode ?? null,
            body: Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES),
            retryAfter: typeof retryAfter === 'string' ? retryAfter : null,
            error: null,
          });
        };
        res.on('end', done);
        // A body cut short (or dropped past MAX_RESPONSE_BYTES) still has its status.
        res.on('close', done);
        res.on('error', () => undefined);
      });
      // A string body goes out in the same write as the headers (a Buffer would be a second one).
      req.end(body);
    });
  }

  /**
   * Where a URL points, parsed once per URL, or why it is refused. A name is checked at connect
   * time (checkedLookup: every new connection, within the attempt's timeout; a kept-alive one was
   * checked when it was made); an IP literal never reaches a lookup, so it is checked here.
   */
  private targetOf(url: string): Target | string {
    let target = this.targets.get(url);
    if (target === undefined) {
      target = parseTarget(url, this.options);
      // Bounded: endpoints are few; a flood of distinct URLs is not kept.
      if (this.targets.size >= 10_000) this.targets.clear();
      this.targets.set(url, target);
    }
    return target;
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}

interface Target {
  https: boolean;
  options: { hostname: string; port: string; path: string };
}

/**
 * Where a URL points, or why it is refused: the reason (kept as the attempt's error, listed by the
 * api's deliveries route) names the URL without the secrets a subscriber may have put in it.
 */
function parseTarget(url: string, options: Pick<SendOptions, 'allowHttp' | 'allowPrivateHosts'>): Target | string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `invalid URL ${redactSecrets(url)}`;
  }
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && options.allowHttp)) {
    return `refused: ${parsed.protocol} URLs are not allowed (https only)`;
  }
  const hostname = parsed.hostname.replace(/^\[|\]$/g, '');
  if (!options.allowPrivateHosts && isIP(hostname) && isNonPublicAddress(hostname)) return `refused: ${new NonPublicAddressError(redactSecrets(url), hostname).message}`;
  return { https: parsed.protocol === 'https:', options: { hostname, port: parsed.port, path: `${parsed.pathname}${parsed.search}` } };
}

/** dns.lookup that refuses non-public addresses: the check at connect time. */
const checkedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 4);
    const list = addresses as unknown as Array<{ address: string; family: number }>;
    const bad = list.find((a) => isNonPublicAddress(a.address));
    if (bad) return callback(new NonPublicAddressError(hostname, bad.address), '', 4);
    if (options.all) return (callback as unknown as (e: null, a: typeof list) => void)(null, list);
    const first = list[0];
    if (!first) return callback(new Error(`${hostname} has no address`), '', 4);
    callback(null, first.address, first.family);
  });
};
