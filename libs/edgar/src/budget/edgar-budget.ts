/**
 * Who asks for an EDGAR request, most urgent first: the live poller finding new filings, the
 * followers reading the documents of new filings, then history (companies, filings backfill, bulk,
 * named-filing runs). A lower priority never takes a slot while a higher one waits.
 */
export const EDGAR_PRIORITIES = ['discovery', 'documents', 'backfill'] as const;
export type EdgarPriority = (typeof EDGAR_PRIORITIES)[number];

/** What a budget has done in this process (read by the metrics at scrape time). */
export interface EdgarBudgetStats {
  grants: Record<EdgarPriority, number>;
  /** 403/429 answers reported with pauseFor. */
  throttles: number;
  /** True while a shared budget cannot reach its store and runs on its conservative local fallback. */
  degraded: boolean;
}

/**
 * SEC's fair-access budget (at most 10 request starts per second per client, i.e. per IP) as seen
 * by one process. RequestLimiter holds it in the process; RedisEdgarBudget shares it between every
 * process of the client.
 */
export interface EdgarBudget {
  /** Resolves when the caller may start one request. */
  acquire(priority: EdgarPriority): Promise<void>;
  /** Holds every request (queued and future, in every process sharing the budget) for `ms` from now: SEC answered 403/429. */
  pauseFor(ms: number): void;
  /** Epoch ms (this process's clock) until which requests are held; 0 or past when not paused. */
  readonly pausedUntilMs: number;
  readonly stats: EdgarBudgetStats;
  /** Releases timers and connections the budget owns. */
  close(): Promise<void>;
}

export const emptyStats = (): EdgarBudgetStats => ({ grants: { discovery: 0, documents: 0, backfill: 0 }, throttles: 0, degraded: false });

/**
 * Least time between two request starts at `maxRps`, a second being `1000 + marginMs` long. Starts
 * this far apart mean at most `maxRps` in any sliding second, and `marginMs` more before that
 * breaks: SEC counts arrivals, and a request leaves a little after its grant (event loop,
 * connection). Evenly spaced rather than in bursts of N: a burst leaves spread out by the event
 * loop and can bunch up with the next one (measured: 11-14 arrivals in one second of the
 * integration test on a busy machine, with bursts). 10/s with 100 ms: one start per 110 ms.
 */
export function startSpacingMs(maxRps: number, marginMs: number): number {
  if (!Number.isFinite(maxRps) || maxRps <= 0 || maxRps > 10) {
    throw new RangeError(`maxRps must be in (0, 10], got ${maxRps}`);
  }
  return (1000 + marginMs) / maxRps;
}

/** Ms until the next start may go, the last one having started at `lastStart` (null: none yet). The Redis budget's script does the same sum atomically. */
export function spacingWaitMs(lastStart: number | null, now: number, spacingMs: number): number {
  return lastStart === null ? 0 : Math.max(0, lastStart + spacingMs - now);
}

/** The margin both budgets add to each second (see startSpacingMs). */
export const ARRIVAL_MARGIN_MS = 100;

/** FIFO queues of waiters, one per priority; the next waiter is the oldest of the most urgent priority. */
export class PriorityQueues<T> {
  private readonly queues: Record<EdgarPriority, T[]> = { discovery: [], documents: [], backfill: [] };

  push(priority: EdgarPriority, item: T): void {
    this.queues[priority].push(item);
  }

  /** The most urgent priority with a waiter, or null. */
  headPriority(): EdgarPriority | null {
    return EDGAR_PRIORITIES.find((p) => this.queues[p].length > 0) ?? null;
  }

  shift(priority: EdgarPriority): T | undefined {
    return this.queues[priority].shift();
  }

  count(priority: EdgarPriority): number {
    return this.queues[priority].length;
  }

  get size(): number {
    return EDGAR_PRIORITIES.reduce((n, p) => n + this.queues[p].length, 0);
  }
}
