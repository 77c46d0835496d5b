import { edgarAccepting, feedIntervalAfter } from './feed-interval';

const pace = { FILINGS_FEED_MIN_INTERVAL_MS: 1000, FILINGS_FEED_MAX_INTERVAL_MS: 2000, FILINGS_FEED_QUIET_INTERVAL_MS: 30_000 };
// Monday 2026-01-12: 16:30 EST is 21:30 UTC; 23:00 EST is 04:00 UTC the next day.
const mondayAfternoon = Date.parse('2026-01-12T21:30:00Z');
const mondayNight = Date.parse('2026-01-13T04:00:00Z');
const saturdayNoon = Date.parse('2026-01-17T17:00:00Z');

describe('feed pace', () => {
  it('knows when EDGAR accepts filings, in New York time across DST', () => {
    expect(edgarAccepting(mondayAfternoon)).toBe(true);
    expect(edgarAccepting(mondayNight)).toBe(false);
    expect(edgarAccepting(saturdayNoon)).toBe(false);
    // 21:59 EDT on a July Tuesday is 01:59 UTC Wednesday; 22:00 is closed.
    expect(edgarAccepting(Date.parse('2026-07-15T01:59:00Z'))).toBe(true);
    expect(edgarAccepting(Date.parse('2026-07-15T02:00:00Z'))).toBe(false);
    expect(edgarAccepting(Date.parse('2026-07-14T10:00:00Z'))).toBe(true); // 06:00 EDT
  });

  it('polls at the minimum while new filings come, doubles when none, up to the daytime ceiling', () => {
    expect(feedIntervalAfter(2000, true, mondayAfternoon, pace)).toBe(1000);
    expect(feedIntervalAfter(1000, false, mondayAfternoon, pace)).toBe(2000);
    expect(feedIntervalAfter(2000, false, mondayAfternoon, pace)).toBe(2000);
  });

  it('slows to the quiet interval while EDGAR accepts nothing, and comes back at once', () => {
    let ms = 1000;
    const seen: number[] = [];
    for (let i = 0; i < 6; i++) seen.push((ms = feedIntervalAfter(ms, false, mondayNight, pace)));
    expect(seen).toEqual([2000, 4000, 8000, 16_000, 30_000, 30_000]);
    expect(feedIntervalAfter(30_000, false, mondayAfternoon, pace)).toBe(2000);
    expect(feedIntervalAfter(30_000, true, saturdayNoon, pace)).toBe(1000);
  });
});
