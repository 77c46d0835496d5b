import {
  classifyAttempt,
  DEFAULT_RETRY_SCHEDULE,
  MAX_RETRY_AFTER_MS,
  nextStep,
  parseDuration,
  parseRetryAfter,
  parseRetrySchedule,
  withJitter,
} from './delivery.policy';

const now = new Date('2026-11-22T03:00:00.000Z');
const mid = (): number => 0.5;

describe('retry schedule', () => {
  it('parses the default schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h', () => {
    expect(parseRetrySchedule(DEFAULT_RETRY_SCHEDULE)).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    expect(parseRetrySchedule('100ms, 200ms,1.5s')).toEqual([100, 200, 1500]);
    expect(parseDuration('1d')).toBe(86_400_000);
  });

  it('refuses unreadable schedules', () => {
    expect(() => parseRetrySchedule('')).toThrow(/at least one/);
    expect(() => parseRetrySchedule('5s,soon')).toThrow(/invalid duration "soon"/);
    expect(() => parseDuration('5')).toThrow(/unit/);
  });

  it('jitters by at most ±20 %', () => {
    expect(withJitter(1000, () => 0)).toBe(800);
    expect(withJitter(1000, () => 0.999999)).toBe(1200);
    expect(withJitter(1000, mid)).toBe(1000);
    for (let i = 0; i < 200; i += 1) {
      const d = withJitter(300_000);
      expect(d).toBeGreaterThanOrEqual(240_000);
      expect(d).toBeLessThanOrEqual(360_000);
    }
  });
});

describe('Retry-After', () => {
  it('reads delay-seconds and HTTP-dates; a past date is 0; garbage is null', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 03:01:30 GMT', now)).toBe(90_000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 02:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter('-5', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });

  it('caps a very long Retry-After at a day', () => {
    expect(parseRetryAfter(String(90 * 86_400), now)).toBe(MAX_RETRY_AFTER_MS);
  });
});

describe('attempt outcomes', () => {
  it('classifies: any 2xx succeeds, 410 is gone, 429/502/504 slow down, the rest fails', () => {
    expect([200, 201, 204, 299].map(classifyAttempt)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
    expect(classifyAttempt(410)).toBe('gone');
    expect([429, 502, 504].map(classifyAttempt)).toEqual(['slow_down', 'slow_down', 'slow_down']);
    // Redirects are not followed: a 3xx is a failed attempt, like a 500, a 404 or a network error.
    expect([301, 302, 400, 404, 500, 503, null].map(classifyAttempt)).toEqual(['failed', 'failed', 'failed', 'failed', 'failed', 'failed', 'failed']);
  });

  it('retries on the schedule, then is exhausted', () => {
    const schedule = [100, 200, 300];
    expect(nextStep({ statusCode: 500, attempts: 1 }, schedule, now, mid)).toEqual({ kind: 'retry', delayMs: 100 });
    expect(nextStep({ statusCode: null, attempts: 2 }, schedule, now, mid)).toEqual({ kind: 'retry', delayMs: 200 });
    expect(nextStep({ statusCode: 404, attempts: 3 }, schedule, now, mid)).toEqual({ kind: 'retry', delayMs: 300 });
    expect(nextStep({ statusCode: 500, attempts: 4 }, schedule, now, mid)).toEqual({ kind: 'exhausted' });
    expect(nextStep({ statusCode: 204, attempts: 4 }, schedule, now, mid)).toEqual({ kind: 'succeeded' });
    expect(nextStep({ statusCode: 410, attempts: 1 }, schedule, now, mid)).toEqual({ kind: 'gone' });
  });

  it('slows down on 429/502/504 and honours a longer Retry-After, without adding attempts', () => {
    const schedule = [5_000, 300_000];
    expect(nextStep({ statusCode: 429, attempts: 1 }, schedule, now, mid)).toEqual({ kind: 'retry', delayMs: 10_000 });
    expect(nextStep({ statusCode: 503, retryAfter: '60', attempts: 1 }, schedule, now, mid)).toEqual({ kind: 'retry', delayMs: 60_000 });
    expect(nextStep({ statusCode: 429, retryAfter: '1', attempts: 1 }, schedule, now, mid)).toEqual({ kind: 'retry', delayMs: 10_000 });
    expect(nextStep({ statusCode: 429, retryAfter: '60', attempts: 3 }, schedule, now, mid)).toEqual({ kind: 'exhausted' });
  });
});
