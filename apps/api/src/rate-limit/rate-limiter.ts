import type Redis from 'ioredis';

/**
 * Two windows per key: a burst window (fixed one-second windows) and a daily quota (UTC day).
 * The burst limit is checked first; a request refused by either window spends nothing, so a client
 * hammering past its burst limit does not burn its daily quota.
 * The X-RateLimit-* headers describe the daily quota (`limit`, `remaining`, `resetAt`); a 429 adds
 * Retry-After for whichever window refused.
 */
export interface RateLimitDecision {
  allowed: boolean;
  /** Which window refused (when not allowed). */
  refusedBy: 'burst' | 'daily' | null;
  /** Daily quota. */
  limit: number;
  /** Daily requests left after this one. */
  remaining: number;
  /** Epoch seconds of the next daily reset (UTC midnight). */
  resetAt: number;
  /** Seconds to wait before retrying (when not allowed). */
  retryAfter: number;
}

export interface RateLimitWindowLimits {
  burstPerSecond: number;
  dailyQuota: number;
}

export interface RateLimiter {
  /**
   * The decision from this process's own counters when it needs no store (the in-memory limiter:
   * always; Redis: while a lease lasts), spending the token; else undefined, and `consume` decides.
   */
  consumeLocal(keyId: string, limits: RateLimitWindowLimits, now?: number): RateLimitDecision | undefined;
  consume(keyId: string, limits: RateLimitWindowLimits, now?: number): Promise<RateLimitDecision>;
  /**
   * Gives one daily token back, spent at `spentAt` (a request answered 304 Not Modified: a
   * revalidation costs nothing, as on GitHub). The burst window keeps it: it guards the server.
   * A token of an earlier UTC day is not given back.
   */
  refund(keyId: string, spentAt?: number, now?: number): Promise<void>;
  /** The daily state without consuming (for responses to known but refused keys). */
  peek(keyId: string, limits: RateLimitWindowLimits, now?: number): Promise<RateLimitDecision>;
  close(): Promise<void>;
}

const DAY_MS = 86_400_000;

export function windows(now: number): { second: number; day: number; dayResetMs: number; secondResetMs: number } {
  const second = Math.floor(now / 1000);
  const day = Math.floor(now / DAY_MS);
  return { second, day, dayResetMs: (day + 1) * DAY_MS, secondResetMs: (second + 1) * 1000 };
}

function decide(
  outcome: 0 | 1 | 2,
  dailyUsed: number,
  limits: RateLimitWindowLimits,
  now: number,
): RateLimitDecision {
  const w = windows(now);
  const resetAt = Math.ceil(w.dayResetMs / 1000);
  const remaining = Math.max(0, limits.dailyQuota - dailyUsed);
  if (outcome === 0) return { allowed: true, refusedBy: null, limit: limits.dailyQuota, remaining, resetAt, retryAfter: 0 };
  const refusedBy = outcome === 1 ? 'burst' : 'daily';
  const waitMs = refusedBy === 'burst' ? w.secondResetMs - now : w.dayResetMs - now;
  return { allowed: false, refusedBy, limit: limits.dailyQuota, remaining, resetAt, retryAfter: Math.max(1, Math.ceil(waitMs / 1000)) };
}

/** Single-process counters; same semantics as the Redis limiter. For one api process and tests. */
export class InMemoryRateLimiter implements RateLimiter {
  private readonly burst = new Map<string, { second: number; count: number }>();
  private readonly daily = new Map<string, { day: number; count: number }>();

  async consume(keyId: string, limits: RateLimitWindowLimits, now = Date.now()): Promise<RateLimitDecision> {
    return this.consumeLocal(keyId, limits, now);
  }

  consumeLocal(keyId: string, limits: RateLimitWindowLimits, now = Date.now()): RateLimitDecision {
    const w = windows(now);
    let b = this.burst.get(keyId);
    if (!b || b.second !== w.second) {
      b = { second: w.second, count: 0 };
      this.burst.set(keyId, b);
    }
    let d = this.daily.get(keyId);
    if (!d || d.day !== w.day) {
      d = { day: w.day, count: 0 };
      this.daily.set(keyId, d);
    }
    if (b.count >= limits.burstPerSecond) return decide(1, d.count, limits, now);
    if (d.count >= limits.dailyQuota) return decide(2, d.count, limits, now);
    b.count += 1;
    d.count += 1;
    return decide(0, d.count, limits, now);
  }

  async refund(keyId: string, spentAt = Date.now(), now = Date.now()): Promise<void> {
    const d = this.daily.get(keyId);
    const day = windows(now).day;
    if (d && d.day === day && windows(spentAt).day === day && d.count > 0) d.count -= 1;
  }

  async peek(keyId: string, limits: RateLimitWindowLimits, now = Date.now()): Promise<RateLimitDecision> {
    const d = this.daily.get(keyId);
    return decide(0, d && d.day === windows(now).day ? d.count : 0, limits, now);
  }

  async close(): Promise<void> {
    this.burst.clear();
    this.daily.clear();
  }
}

/**
 * One script per Redis call, atomic: first give back the unspent tokens of this process's previous
 * lease (same day), then check burst, then daily, then reserve `g` tokens of both windows, where g is
 * at most the lease size and what is left of either window. A refused request reserves nothing.
 * KEYS: burst counter, daily counter. ARGV: burst limit, daily quota, burst ttl ms, daily ttl ms,
 * lease size, daily tokens to give back. Returns {outcome (0 ok, 1 burst, 2 daily), granted, daily count}.
 */
const CONSUME_LUA = `
local refund = tonumber(ARGV[6])
if refund > 0 then redis.call('DECRBY', KEYS[2], refund) end
local b = tonumber(redis.call('GET', KEYS[1]) or '0')
local d = tonumber(redis.call('GET', KEYS[2]) or '0')
if b >= tonumber(ARGV[1]) then return {1, 0, d} end
if d >= tonumber(ARGV[2]) then return {2, 0, d} end
local g = math.min(tonumber(ARGV[5]), tonumber(ARGV[1]) - b, tonumber(ARGV[2]) - d)
if redis.call('INCRBY', KEYS[1], g) == g then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
d = redis.call('INCRBY', KEYS[2], g)
if d == g then redis.call('PEXPIRE', KEYS[2], ARGV[4]) end
return {0, g, d}
`;

type RedisWithConsume = Redis & {
  rlConsume(
    burstKey: string,
    dailyKey: string,
    burst: number,
    daily: number,
    burstTtl: number,
    dailyTtl: number,
    leaseSize: number,
    refund: number,
  ): Promise<[number, number, number]>;
  rlRefund(dailyKey: string): Promise<number>;
};

// Only a counter that still holds a spent token: DECR on a key gone (Redis restarted, key evicted)
// would create it at -1 with no TTL, a day's extra quota that never expires.
const REFUND_LUA = `
local used = tonumber(redis.call('GET', KEYS[1]))
if used and used > 0 then return redis.call('DECR', KEYS[1]) end
return 0
`;

/** Tokens this process reserved in one Redis call and has not spent yet. */
interface Lease {
  second: number;
  day: number;
  left: number;
  /** The day's global count right after the reservation (includes the whole lease). */
  dailyCount: number;
}

/**
 * Tokens reserved per Redis call: a tenth of the burst limit, at most 50. Plans with small bursts
 * (free: 5/s) get 1, i.e. one exact round trip per request; large plans spare most round trips while
 * holding back at most a tenth of a one-second window from the other processes.
 */
export function leaseSize(limits: RateLimitWindowLimits): number {
  return Math.max(1, Math.min(50, Math.floor(limits.burstPerSecond / 10)));
}

/**
 * Counters in Redis, shared by every api process. Each process reserves small leases of tokens
 * (see leaseSize) and spends them locally; the global counts never exceed the limits, and unspent
 * tokens go back to the daily counter with the next call of the same key and day.
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly redis: RedisWithConsume;
  private readonly leases = new Map<string, Lease>();
  private readonly reserving = new Map<string, Promise<void>>();

  constructor(redis: Redis, private readonly prefix: string) {
    redis.defineCommand('rlConsume', { numberOfKeys: 2, lua: CONSUME_LUA });
    redis.defineCommand('rlRefund', { numberOfKeys: 1, lua: REFUND_LUA });
    this.redis = redis as RedisWithConsume;
  }

  private keys(keyId: string, now: number): [string, string] {
    const w = windows(now);
    // Hash tags keep both counters of a key on one cluster slot.
    return [`${this.prefix}{${keyId}}:s:${w.second}`, `${this.prefix}{${keyId}}:d:${w.day}`];
  }

  consumeLocal(keyId: string, limits: RateLimitWindowLimits, now = Date.now()): RateLimitDecision | undefined {
    const w = windows(now);
    const lease = this.leases.get(keyId);
    if (!lease || lease.left <= 0 || lease.second !== w.second || lease.day !== w.day) return undefined;
    lease.left -= 1;
    return decide(0, lease.dailyCount - lease.left, limits, now);
  }

  async consume(keyId: string, limits: RateLimitWindowLimits, now = Date.now()): Promise<RateLimitDecision> {
    const w = windows(now);
    for (;;) {
      const spent = this.consumeLocal(keyId, limits, now);
      if (spent) return spent;
      // One reservation per key at a time: concurrent requests wait for it and spend its lease,
      // instead of each reserving a lease of its own and leaving most of them idle.
      const pending = this.reserving.get(keyId);
      if (!pending) break;
      await pending;
    }
    const reservation = this.reserve(keyId, limits, now, w);
    this.reserving.set(keyId, reservation.then(() => undefined, () => undefined));
    try {
      return await reservation;
    } finally {
      this.reserving.delete(keyId);
    }
  }

  private async reserve(keyId: string, limits: RateLimitWindowLimits, now: number, w: ReturnType<typeof windows>): Promise<RateLimitDecision> {
    const lease = this.leases.get(keyId);
    // A lease of an earlier second of the same day gives its unspent tokens back to the day.
    const refund = lease && lease.day === w.day && lease.second !== w.second ? lease.left : 0;
    if (refund > 0 && lease) lease.left = 0;
    const [burstKey, dailyKey] = this.keys(keyId, now);
    const [outcome, granted, count] = await this.redis.rlConsume(
      burstKey,
      dailyKey,
      limits.burstPerSecond,
      limits.dailyQuota,
      2_000,
      DAY_MS + 60_000,
      leaseSize(limits),
      refund,
    );
    if (outcome !== 0) return decide(outcome as 1 | 2, count, limits, now);
    this.leases.set(keyId, { second: w.second, day: w.day, left: granted - 1, dailyCount: count });
    return decide(0, count - (granted - 1), limits, now);
  }

  async refund(keyId: string, spentAt = Date.now(), now = Date.now()): Promise<void> {
    if (windows(spentAt).day !== windows(now).day) return;
    // Straight to the day's counter: the token was spent, so no lease holds it any more.
    await this.redis.rlRefund(this.keys(keyId, now)[1]);
  }

  async peek(keyId: string, limits: RateLimitWindowLimits, now = Date.now()): Promise<RateLimitDecision> {
    const [, dailyKey] = this.keys(keyId, now);
    const used = Number((await this.redis.get(dailyKey)) ?? 0);
    return decide(0, used, limits, now);
  }

  async close(): Promise<void> {
    // The Redis connection belongs to whoever created it. Unspent tokens of the day go back.
    const now = Date.now();
    const day = windows(now).day;
    const refunds = [...this.leases.entries()].filter(([, l]) => l.day === day && l.left > 0);
    this.leases.clear();
    await Promise.all(
      refunds.map(([keyId, l]) => this.redis.decrby(this.keys(keyId, now)[1], l.left).catch(() => undefined)),
    );
  }
}
