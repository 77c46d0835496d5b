import { withTimeout, type Logger } from '@app/observability';

export type Dependency = 'postgres' | 'redis';

/** Seconds a client is told to wait (Retry-After) while a dependency is down. */
export const OUTAGE_RETRY_AFTER_S = 5;

/** Connection-level SQLSTATEs: class 08 (connection exception), shutdowns, too many connections. */
const PG_UNAVAILABLE_STATES = /^(08...|57P01|57P02|57P03|53300)$/;
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);
const PG_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection is not established/i;
const REDIS_MESSAGES = /^(Connection is closed\.|Stream isn't writeable)/;

/**
 * Which dependency an error says is unreachable, or undefined when it is some other failure.
 * TypeORM wraps the pg error (`driverError`); ioredis gives up on a command with
 * MaxRetriesPerRequestError (or "Connection is closed.") and never surfaces a socket error itself,
 * so a bare socket error on a request is the database's.
 */
export function unavailableDependency(err: unknown): Dependency | undefined {
  if (err === null || typeof err !== 'object') return undefined;
  const e = err as { name?: unknown; message?: unknown; code?: unknown; driverError?: unknown; cause?: unknown };
  const message = typeof e.message === 'string' ? e.message : '';
  if (e.name === 'MaxRetriesPerRequestError' || REDIS_MESSAGES.test(message)) return 'redis';
  if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || PG_UNAVAILABLE_STATES.test(e.code))) return 'postgres';
  if (PG_MESSAGES.test(message)) return 'postgres';
  if (e.driverError !== undefined && e.driverError !== err) return unavailableDependency(e.driverError);
  if (e.cause !== undefined && e.cause !== err) return unavailableDependency(e.cause);
  return undefined;
}

interface Outage {
  since: number;
  refused: number;
  timer: NodeJS.Timeout;
}

/**
 * Outages of the api's dependencies, logged once per transition: the first request that finds a
 * dependency down logs it (error), later ones only count; a probe then asks the dependency every
 * `probeEveryMs` and logs its return (info) with how long it was down and how many requests were
 * refused meanwhile. Without it an outage logged one stack per request.
 */
export class DependencyOutages {
  private readonly outages = new Map<Dependency, Outage>();
  private closed = false;

  constructor(
    private readonly probes: Partial<Record<Dependency, () => Promise<unknown>>>,
    private readonly logger: Pick<Logger, 'error' | 'info'>,
    private readonly probeEveryMs = 1_000,
  ) {}

  /** A request failed because `dependency` is unreachable. */
  failed(dependency: Dependency, err: unknown): void {
    const outage = this.outages.get(dependency);
    if (outage) {
      outage.refused += 1;
      return;
    }
    const e = err as { message?: unknown; code?: unknown };
    this.logger.error({ dependency, error: String(e.message), code: e.code }, `${dependency} unavailable: answering 503 until it is back`);
    this.outages.set(dependency, { since: Date.now(), refused: 1, timer: this.schedule(dependency) });
  }

  /** The dependencies currently down. */
  get down(): Dependency[] {
    return [...this.outages.keys()];
  }

  close(): void {
    this.closed = true;
    for (const outage of this.outages.values()) clearTimeout(outage.timer);
    this.outages.clear();
  }

  private schedule(dependency: Dependency): NodeJS.Timeout {
    const timer = setTimeout(() => void this.probe(dependency), this.probeEveryMs);
    timer.unref();
    return timer;
  }

  private async probe(dependency: Dependency): Promise<void> {
    const probe = this.probes[dependency];
    let up = probe === undefined;
    if (probe) up = await withTimeout(probe(), 2_000, `${dependency} probe`).then(() => true, () => false);
    const outage = this.outages.get(dependency);
    if (this.closed || !outage) return;
    if (!up) {
      outage.timer = this.schedule(dependency);
      return;
    }
    this.outages.delete(dependency);
    this.logger.info({ dependency, down_ms: Date.now() - outage.since, refused: outage.refused }, `${dependency} available again`);
  }
}
