/**
 * The most requests that arrived in any window of `windowMs` (a request at `at` is in the windows
 * [t, t + windowMs) that hold it). Every busiest window starts at some request, so sliding a window
 * from each arrival in turn finds it.
 */
export function maxRequestsInAnyWindow(requests: ReadonlyArray<{ at: number }>, windowMs: number): number {
  const times = requests.map((r) => r.at).sort((a, b) => a - b);
  let best = 0;
  let end = 0;
  for (let start = 0; start < times.length; start += 1) {
    while (end < times.length && (times[end] ?? 0) < (times[start] ?? 0) + windowMs) end += 1;
    best = Math.max(best, end - start);
  }
  return best;
}

/** The busiest second: the most requests that arrived within any 1,000 ms. */
export const busiestSecond = (requests: ReadonlyArray<{ at: number }>): number => maxRequestsInAnyWindow(requests, 1000);

/** The middle value (the lower one of an even count): for "which kind of request waited less". */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) throw new RangeError('median of no values');
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}
