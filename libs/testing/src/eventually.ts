export interface EventuallyOptions {
  /** Give up after this long; default 15 s. */
  timeoutMs?: number;
  /** Pause between attempts; default 100 ms. */
  intervalMs?: number;
}

/**
 * Polls `fn` until it stops throwing (an assertion that holds) and returns its result; after the
 * timeout rethrows its last error. Use it instead of sleeps.
 */
export async function expectEventually<T>(fn: () => T | Promise<T>, options: EventuallyOptions = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const intervalMs = options.intervalMs ?? 100;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await fn();
    } catch (e) {
      if (Date.now() + intervalMs > deadline) throw e;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}
