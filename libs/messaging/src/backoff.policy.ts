export interface RetryPolicy {
  /** Delay before the first retry. */
  initialMs: number;
  /** Ceiling of the delay; retries go on at this pace until they succeed or the runner stops. */
  maxMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { initialMs: 500, maxMs: 30_000 };

/** Delay before retry number `attempt` (0-based): initialMs doubling, capped at maxMs. */
export function backoffDelay(attempt: number, policy: RetryPolicy): number {
  const initial = Math.max(0, policy.initialMs);
  const max = Math.max(initial, policy.maxMs);
  if (attempt <= 0) return initial;
  // 2 ** 31 overflows nothing in JS, but stop doubling well before Infinity.
  const factor = 2 ** Math.min(attempt, 30);
  return Math.min(max, initial * factor);
}
