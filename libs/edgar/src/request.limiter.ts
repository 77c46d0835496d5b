import { ARRIVAL_MARGIN_MS, emptyStats, PriorityQueues, spacingWaitMs, startSpacingMs, type EdgarBudget, type EdgarBudgetStats, type EdgarPriority } from './budget/edgar-budget';

/**
 * The EDGAR budget of one process: request starts spaced so that at most `maxRps` fall in any
 * sliding second (see startSpacingMs), granted by priority (FIFO within one), plus a global pause
 * (SEC answers 403/429 when a client goes over 10 requests/s and then blocks it for about ten
 * minutes, so every caller must stop, not only the one that saw the status). Enough for a single
 * process; several processes of one client share RedisEdgarBudget instead.
 */
export class RequestLimiter implements EdgarBudget {
  private lastStart: number | null = null;
  private readonly waiters = new PriorityQueues<() => void>();
  private pausedUntil = 0;
  private timer: NodeJS.Timeout | null = null;
  private maxRps: number;
  readonly stats: EdgarBudgetStats = emptyStats();

  constructor(maxRps: number) {
    startSpacingMs(maxRps, 0);
    this.maxRps = maxRps;
  }

  get rate(): number {
    return this.maxRps;
  }

  /** Lowers the rate (never raises it): several clients sharing the limiter get the strictest. */
  lowerRate(maxRps: number): void {
    startSpacingMs(maxRps, 0);
    this.maxRps = Math.min(this.maxRps, maxRps);
  }

  acquire(priority: EdgarPriority): Promise<void> {
    return new Promise<void>((resolve) => {
      this.waiters.push(priority, resolve);
      this.pump();
    });
  }

  pauseFor(ms: number): void {
    this.stats.throttles += 1;
    this.holdUntil(Date.now() + ms);
  }

  /** Holds requests until `epochMs` without counting a throttle (the shared budget's fallback mirrors a pause seen elsewhere). */
  holdUntil(epochMs: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, epochMs);
    this.pump();
  }

  get pausedUntilMs(): number {
    return this.pausedUntil;
  }

  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private pump(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    for (let priority = this.waiters.headPriority(); priority !== null; priority = this.waiters.headPriority()) {
      const now = Date.now();
      const wait = Math.max(this.pausedUntil - now, spacingWaitMs(this.lastStart, now, startSpacingMs(this.maxRps, ARRIVAL_MARGIN_MS)));
      if (wait > 0) {
        this.timer = setTimeout(() => {
          this.timer = null;
          this.pump();
        }, wait);
        return;
      }
      this.lastStart = now;
      this.stats.grants[priority] += 1;
      this.waiters.shift(priority)?.();
    }
  }
}
