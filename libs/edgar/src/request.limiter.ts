/**
 * A process-wide request limiter for SEC EDGAR: at most `maxRps` request starts in any
 * one-second window, granted in FIFO order, plus a global pause (SEC answers 403/429 when a
 * client goes over 10 requests/s and then blocks it for about ten minutes, so every caller
 * must stop, not only the one that saw the status).
 */
export class RequestLimiter {
  private readonly starts: number[] = [];
  private readonly waiters: Array<() => void> = [];
  private pausedUntil = 0;
  private timer: NodeJS.Timeout | null = null;
  private maxRps: number;

  constructor(maxRps: number) {
    this.maxRps = RequestLimiter.checkRate(maxRps);
  }

  get rate(): number {
    return this.maxRps;
  }

  /** Lowers the rate (never raises it): several clients sharing the limiter get the strictest. */
  lowerRate(maxRps: number): void {
    this.maxRps = Math.min(this.maxRps, RequestLimiter.checkRate(maxRps));
  }

  /** Resolves when the caller may start one request. */
  acquire(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.waiters.push(resolve);
      this.pump();
    });
  }

  /** Holds every request (queued and future) until `ms` from now. */
  pauseFor(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, Date.now() + ms);
    this.pump();
  }

  /** Epoch ms until which requests are held (0 or past when not paused). */
  get pausedUntilMs(): number {
    return this.pausedUntil;
  }

  private pump(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    while (this.waiters.length > 0) {
      const wait = this.waitMs(Date.now());
      if (wait > 0) {
        this.timer = setTimeout(() => {
          this.timer = null;
          this.pump();
        }, wait);
        return;
      }
      this.starts.push(Date.now());
      this.waiters.shift()?.();
    }
  }

  private waitMs(now: number): number {
    // `perWindow` starts per `windowMs`: 10/s -> 10 per 1000 ms; 2.5/s -> 2 per 800 ms; 0.5/s -> 1 per 2000 ms.
    const perWindow = Math.max(1, Math.floor(this.maxRps));
    const windowMs = (1000 * perWindow) / this.maxRps;
    while (this.starts.length > 0 && (this.starts[0] ?? 0) <= now - windowMs) this.starts.shift();
    const pause = this.pausedUntil - now;
    const oldest = this.starts.length >= perWindow ? this.starts[this.starts.length - perWindow] : undefined;
    const window = oldest === undefined ? 0 : oldest + windowMs - now;
    return Math.max(pause, window, 0);
  }

  private static checkRate(maxRps: number): number {
    if (!Number.isFinite(maxRps) || maxRps <= 0 || maxRps > 10) {
      throw new RangeError(`maxRps must be in (0, 10], got ${maxRps}`);
    }
    return maxRps;
  }
}

let shared: RequestLimiter | null = null;

/**
 * The one limiter of this process. Every EdgarClient uses it unless a test injects its own, so
 * SEC's 10 requests/s budget holds across clients. The first caller sets the rate; later callers
 * can only lower it.
 */
export function sharedEdgarLimiter(maxRps: number): RequestLimiter {
  if (!shared) shared = new RequestLimiter(maxRps);
  else shared.lowerRate(maxRps);
  return shared;
}
