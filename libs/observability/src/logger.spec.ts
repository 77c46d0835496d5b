import { isoTimeField } from './logger';

describe('isoTimeField', () => {
  it('writes what pino.stdTimeFunctions.isoTime writes, across milliseconds, seconds and days', () => {
    const start = Date.UTC(2026, 10, 21, 23, 59, 58, 990);
    for (let t = start; t < start + 2_500; t += 7) {
      expect(isoTimeField(t)).toBe(`,"time":"${new Date(t).toISOString()}"`);
    }
    // Going back in time (a clock step) is not served from the cache of a later second.
    for (const t of [Date.UTC(2030, 0, 1, 0, 0, 0, 0), Date.UTC(2001, 8, 9, 1, 46, 40, 5), Date.UTC(2030, 0, 1, 0, 0, 0, 999)]) {
      expect(isoTimeField(t)).toBe(`,"time":"${new Date(t).toISOString()}"`);
    }
    const now = Date.now();
    expect(isoTimeField(now)).toBe(`,"time":"${new Date(now).toISOString()}"`);
  });
});
