import { lookup as dnsLookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { assertPublicUrl, isNonPublicAddress, NonPublicAddressError } from '@app/net';
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
 * are allowed, the URL is checked before the request and every address a new connection resolves
 * to is checked again at connect time (DNS can change between the check and the connection).
 * Never throws: every failure is a result with its error.
 */
export class WebhookSender {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;

  constructor(private readonly options: SendOptions) {
    const lookup: LookupFunction | undefined = options.allowPrivateHosts ? undefined : checkedLookup;
    const agentOptions = { keepAlive: true, maxSockets: options.maxSockets, scheduling: 'lifo' as const };
    this.httpAgent = new http.Agent({ ...agentOptions, ...(lookup ? { lookup } : {}) });
    this.httpsAgent = new https.Agent({ ...agentOptions, ...(lookup ? { lookup } : {}) });
  }

  async send(url: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const started = performance.now();
    const failed = (error: string): SendResult => ({ statusCode: null, body: Buffer.alloc(0), retryAfter: null, durationMs: Math.round(performance.now() - started), error });
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return failed(`invalid URL ${url}`);
    }
    if (target.protocol !== 'https:' && !(target.protocol === 'http:' && this.options.allowHttp)) {
      return failed(`refused: ${target.protocol} URLs are not allowed (https only)`);
    }
    // The name lookup counts against the attempt's timeout (the claim's lease covers one timeout).
    let lookupTimer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        assertPublicUrl(url, { allowPrivate: this.options.allowPrivateHosts }),
        new Promise<never>((_, reject) => {
          lookupTimer = setTimeout(() => reject(new Error(`lookup took longer than the ${this.options.timeoutMs} ms timeout`)), this.options.timeoutMs);
        }),
      ]);
    } catch (e) {
      return failed(e instanceof NonPublicAddressError ? `refused: ${e.message}` : `dns: ${(e as Error).message}`);
    } finally {
      clearTimeout(lookupTimer);
    }
    const remainingMs = Math.max(1, this.options.timeoutMs - (performance.now() - started));
    const payload = Buffer.from(body, 'utf8');
    return new Promise<SendResult>((resolve) => {
      let settled = false;
      const finish = (r: Omit<SendResult, 'durationMs'>): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...r, durationMs: Math.round(performance.now() - started) });
      };
      const client = target.protocol === 'https:' ? https : http;
      const req = client.request(target, {
        method: 'POST',
        agent: target.protocol === 'https:' ? this.httpsAgent : this.httpAgent,
        headers: { ...headers, 'content-length': String(payload.length) },
      });
      const timeoutError = `timeout after ${this.options.timeoutMs} ms`;
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        req.destroy(new Error(timeoutError));
      }, remainingMs);
      req.on('error', (err) => finish({ statusCode: null, body: Buffer.alloc(0), retryAfter: null, error: err.message }));
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
      req.end(payload);
    });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
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
