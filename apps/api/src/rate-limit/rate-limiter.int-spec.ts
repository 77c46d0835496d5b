// The Redis limiter against a real Redis: leases never let several processes exceed a window,
// and unspent daily tokens go back.
// @infra-path: its Lua script runs on the Redis server: docker-compose.yml's redis:7 in containers, the machine's locally.
import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { leaseSize, RedisRateLimiter } from './rate-limiter';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const limits = { burstPerSecond: 100, dailyQuota: 1_000 };

let redis: Redis;
let prefix: string;

beforeAll(async () => {
  redis = new Redis(REDIS_URL);
  prefix = `rl:int:${randomBytes(6).toString('hex')}:`;
});

afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
});

describe('RedisRateLimiter with leases', () => {
  it('reserves a tenth of the burst per call, and never more than the window allows across processes', async () => {
    expect(leaseSize(limits)).toBe(10);
    expect(leaseSize({ burstPerSecond: 5, dailyQuota: 10 })).toBe(1);
    const processA = new RedisRateLimiter(redis, prefix);
    const processB = new RedisRateLimiter(redis, prefix);
    const second = Math.floor(Date.now() / 1000) * 1000 + 5_000; // one fixed second, in the future
    const decisions = await Promise.all(
      Array.from({ length: 150 }, (_, i) => (i % 2 ? processA : processB).consume('key1', limits, second + (i % 100))),
    );
    const allowed = decisions.filter((d) => d.allowed).length;
    expect(allowed).toBeLessThanOrEqual(limits.burstPerSecond);
    expect(allowed).toBeGreaterThanOrEqual(limits.burstPerSecond - 2 * (leaseSize(limits) - 1));
    expect(decisions.filter((d) => !d.allowed).every((d) => d.refusedBy === 'burst' && d.retryAfter === 1)).toBe(true);
  });

  it('gives unspent daily tokens back, so the day counts what was served', async () => {
    const limiter = new RedisRateLimiter(redis, prefix);
    const t0 = Math.floor(Date.now() / 86_400_000) * 86_400_000 + 3_600_000; // 01:00 UTC today
    for (let i = 0; i < 3; i++) expect((await limiter.consume('key2', limits, t0)).allowed).toBe(true);
    // The next second starts a new lease and returns the 7 unspent tokens of the first one.
    const next = await limiter.consume('key2', limits, t0 + 1_000);
    expect(next).toMatchObject({ allowed: true, remaining: 1_000 - 4 });
    await limiter.close();
    expect((await limiter.peek('key2', limits, t0 + 2_000)).remaining).toBe(1_000 - 4);
  });

  it('refund gives one daily token back in Redis, while a lease of the same key is open', async () => {
    const processA = new RedisRateLimiter(redis, prefix);
    const processB = new RedisRateLimiter(redis, prefix);
    const t = Math.floor(Date.now() / 86_400_000) * 86_400_000 + 7_200_000; // 02:00 UTC today
    await processA.consume('key4', limits, t); // reserves a lease of 10, spends 1
    await processA.refund('key4', t, t);
    // The day holds the open lease's 9 unspent tokens, not the refunded one.
    expect((await processB.peek('key4', limits, t)).remaining).toBe(1_000 - 9);
    await processA.close();
    expect((await processB.peek('key4', limits, t)).remaining).toBe(1_000);
  });

  it('refund never creates a day counter that is gone (Redis restarted, key evicted)', async () => {
    const limiter = new RedisRateLimiter(redis, prefix);
    const t = Math.floor(Date.now() / 86_400_000) * 86_400_000 + 10_800_000; // 03:00 UTC today
    await limiter.refund('key5', t, t);
    expect(await redis.keys(`${prefix}{key5}:*`)).toEqual([]);
    expect((await limiter.peek('key5', limits, t)).remaining).toBe(1_000);
  });

  it('decides locally only while a lease lasts: the request path asks Redis once per lease', async () => {
    const limiter = new RedisRateLimiter(redis, prefix);
    const t = Math.floor(Date.now() / 1000) * 1000 + 9_000;
    expect(limiter.consumeLocal('key3', limits, t)).toBeUndefined();
    expect(await limiter.consume('key3', limits, t)).toMatchObject({ allowed: true, remaining: 1_000 - 1 });
    // The other nine tokens of the lease, without Redis; then the lease is spent.
    for (let i = 2; i <= leaseSize(limits); i++) expect(limiter.consumeLocal('key3', limits, t)).toMatchObject({ allowed: true, remaining: 1_000 - i });
    expect(limiter.consumeLocal('key3', limits, t)).toBeUndefined();
    // A lease is good for its own second only.
    expect(await limiter.consume('key3', limits, t + 1_000)).toMatchObject({ allowed: true });
    expect(limiter.consumeLocal('key3', limits, t + 2_000)).toBeUndefined();
    await limiter.close();
  });
});
