import { InMemoryRateLimiter } from './rate-limiter';

const limits = { burstPerSecond: 3, dailyQuota: 5 };
const T0 = Date.UTC(2025, 0, 1, 12, 0, 0, 100);

describe('InMemoryRateLimiter', () => {
  it('allows up to the burst limit within one second, then refuses with Retry-After 1', async () => {
    const rl = new InMemoryRateLimiter();
    for (let i = 0; i < 3; i++) expect((await rl.consume('k', limits, T0)).allowed).toBe(true);
    const refused = await rl.consume('k', limits, T0 + 10);
    expect(refused).toMatchObject({ allowed: false, refusedBy: 'burst', retryAfter: 1, limit: 5, remaining: 2 });
  });

  it('does not spend daily quota on burst refusals', async () => {
    const rl = new InMemoryRateLimiter();
    for (let i = 0; i < 10; i++) await rl.consume('k', limits, T0);
    expect((await rl.peek('k', limits, T0)).remaining).toBe(2);
    const next = await rl.consume('k', limits, T0 + 1000);
    expect(next).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('refuses on the daily quota until the next UTC midnight', async () => {
    const rl = new InMemoryRateLimiter();
    for (let i = 0; i < 5; i++) expect((await rl.consume('k', limits, T0 + i * 1000)).allowed).toBe(true);
    const refused = await rl.consume('k', limits, T0 + 10_000);
    expect(refused).toMatchObject({ allowed: false, refusedBy: 'daily', remaining: 0 });
    const midnight = Date.UTC(2025, 0, 2) / 1000;
    expect(refused.resetAt).toBe(midnight);
    expect(refused.retryAfter).toBe(Math.ceil(midnight - (T0 + 10_000) / 1000));
    expect((await rl.consume('k', limits, Date.UTC(2025, 0, 2, 0, 0, 1))).allowed).toBe(true);
  });

  it('refund gives a daily token back (not the burst one), but not one of an earlier day', async () => {
    const rl = new InMemoryRateLimiter();
    for (let i = 0; i < 3; i++) await rl.consume('k', limits, T0);
    await rl.refund('k', T0, T0);
    expect((await rl.peek('k', limits, T0)).remaining).toBe(3);
    expect((await rl.consume('k', limits, T0)).refusedBy).toBe('burst');
    // Spent before midnight, refunded after: the new day's count is not touched.
    const nextDay = Date.UTC(2025, 0, 2, 0, 0, 0, 10);
    await rl.consume('k', limits, nextDay);
    await rl.refund('k', T0, nextDay);
    expect((await rl.peek('k', limits, nextDay)).remaining).toBe(4);
  });

  it('keeps keys apart', async () => {
    const rl = new InMemoryRateLimiter();
    for (let i = 0; i < 3; i++) await rl.consume('a', limits, T0);
    expect((await rl.consume('b', limits, T0)).allowed).toBe(true);
  });
});
