/** The feed poller's pace settings (FilingsConfig). */
export interface FeedPace {
  FILINGS_FEED_MIN_INTERVAL_MS: number;
  FILINGS_FEED_MAX_INTERVAL_MS: number;
  FILINGS_FEED_QUIET_INTERVAL_MS: number;
}

const NY_WEEKDAY_HOUR = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', weekday: 'short', hour: '2-digit', hourCycle: 'h23' });

/**
 * EDGAR accepts filings 6:00 a.m. to 10:00 p.m. Eastern on weekdays (federal holidays aside, which
 * this does not know: a holiday is polled at the daytime pace, the cost of a few idle requests).
 */
export function edgarAccepting(nowMs: number): boolean {
  const parts = Object.fromEntries(NY_WEEKDAY_HOUR.formatToParts(new Date(nowMs)).map((p) => [p.type, p.value]));
  const hour = Number(parts.hour);
  return parts.weekday !== 'Sat' && parts.weekday !== 'Sun' && hour >= 6 && hour < 22;
}

/**
 * The wait before the next feed poll: the minimum as soon as a poll found new filings (a burst
 * keeps coming), doubling after each poll that found none, up to the daytime maximum, or the quiet
 * one while EDGAR accepts nothing. Pure.
 */
export function feedIntervalAfter(previousMs: number, foundNew: boolean, nowMs: number, pace: FeedPace): number {
  if (foundNew) return pace.FILINGS_FEED_MIN_INTERVAL_MS;
  const daytime = Math.max(pace.FILINGS_FEED_MIN_INTERVAL_MS, pace.FILINGS_FEED_MAX_INTERVAL_MS);
  const ceiling = edgarAccepting(nowMs) ? daytime : Math.max(daytime, pace.FILINGS_FEED_QUIET_INTERVAL_MS);
  return Math.min(ceiling, Math.max(pace.FILINGS_FEED_MIN_INTERVAL_MS, previousMs * 2));
}
