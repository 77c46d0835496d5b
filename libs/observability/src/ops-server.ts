import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';

export interface Readiness {
  ready: boolean;
  /** One line per check: "ok" or what is wrong. */
  checks: Record<string, string>;
}

export interface OpsServerOptions {
  host: string;
  /** 0: any free port (tests). */
  port: number;
  logger: Pick<Logger, 'info' | 'warn'>;
  /** Can the app do its work now (its consumer running, its database answering)? */
  ready(): Promise<Readiness>;
  /** The Prometheus exposition text. */
  metrics(): Promise<string>;
}

export interface OpsServer {
  port: number;
  close(): Promise<void>;
}

const READY_TIMEOUT_MS = 5_000;

/**
 * A worker app's operations port: `GET /healthz` (the process answers), `GET /readyz` (200 when
 * ready, 503 with the failing checks otherwise), `GET /metrics` (Prometheus). Apart from the API's
 * port: no auth, meant for the orchestrator and the scraper, bound to OPS_HOST.
 */
export async function startOpsServer(options: OpsServerOptions): Promise<OpsServer> {
  const server: Server = createServer((req, res) => {
    const send = (status: number, type: string, body: string): void => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...(status === 405 ? { allow: 'GET, HEAD' } : {}) }).end(body);
    };
    const json = (status: number, body: unknown): void => send(status, 'application/json', `${JSON.stringify(body)}\n`);
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return json(405, { error: 'method not allowed' });
    if (path === '/healthz') return json(200, { status: 'ok' });
    if (path === '/readyz') {
      void withTimeout(options.ready(), READY_TIMEOUT_MS, 'readiness checks').then(
        (r) => json(r.ready ? 200 : 503, { status: r.ready ? 'ready' : 'not_ready', checks: r.checks }),
        (err: unknown) => json(503, { status: 'not_ready', checks: { error: (err as Error).message } }),
      );
      return;
    }
    if (path === '/metrics') {
      void options.metrics().then(
        (text) => send(200, 'text/plain; version=0.0.4; charset=utf-8', text),
        (err: unknown) => {
          options.logger.warn({ err }, 'collecting metrics failed');
          json(500, { error: 'collecting metrics failed' });
        },
      );
      return;
    }
    json(404, { error: 'not found', routes: ['/healthz', '/readyz', '/metrics'] });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  options.logger.info({ host: options.host, port }, 'ops server listening (/healthz, /readyz, /metrics)');
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `p`, or a rejection naming `what` after `ms`. */
export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * Runs readiness checks at once, each bounded by `timeoutMs`: a check is ok when it returns
 * (or resolves), failing with its error's message when it throws (or rejects).
 */
export async function runChecks(checks: Record<string, () => unknown>, timeoutMs = 2_000): Promise<Readiness> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]): Promise<[string, string]> => {
      try {
        await withTimeout(Promise.resolve().then(check), timeoutMs, name);
        return [name, 'ok'];
      } catch (err) {
        return [name, err instanceof Error ? err.message : String(err)];
      }
    }),
  );
  return { ready: entries.every(([, v]) => v === 'ok'), checks: Object.fromEntries(entries) };
}
