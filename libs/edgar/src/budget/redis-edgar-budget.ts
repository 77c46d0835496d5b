import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { silentLogger, type EdgarLogger } from '../edgar.logger';
import { RequestLimiter } from '../request.limiter';
import { EDGAR_PRIORITIES, emptyStats, PriorityQueues, windowOf, type EdgarBudget, type EdgarBudgetStats, type EdgarPriority } from './edgar-budget';

/**
 * One atomic step of the shared budget, on Redis' own clock (TIME), so the processes' clocks never
 * matter. A sorted set of the starts of the last window (score: µs) makes the window sliding and
 * exact; a fixed per-second counter would let 2N through across a second boundary.
 * In order: paused? -> advertise this process's demand at its priority (a member per process, score
 * = expiry) -> yield if any more urgent priority has live demand -> window full? -> record the start.
 * KEYS: starts, paused-until, demand:discovery, demand:documents, demand:backfill.
 * ARGV: rank (1 discovery .. 3 backfill), starts per window, window µs, process id, demand ttl µs,
 * more waiting at this priority in the process (0|1), start id.
 * Returns {0, 0} granted; {1, µs left} paused; {2, 0} a more urgent priority waits; {3, µs} window full.
 * Numbers go to Redis through %.0f: Lua's default formatting would round 16-digit µs.
 */
const ACQUIRE_LUA = `
local function n(x) return string.format('%.0f', x) end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local paused = tonumber(redis.call('GET', KEYS[2]) or '0')
if paused > now then return {1, paused - now} end
local rank = tonumber(ARGV[1])
local ttl = tonumber(ARGV[5])
redis.call('ZADD', KEYS[2 + rank], n(now + ttl), ARGV[4])
redis.call('PEXPIRE', KEYS[2 + rank], math.ceil(ttl / 1000))
for r = 1, rank - 1 do
  redis.call('ZREMRANGEBYSCORE', KEYS[2 + r], '-inf', n(now))
  if redis.call('ZCARD', KEYS[2 + r]) > 0 then return {2, 0} end
end
local per = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', n(now - window))
local count = redis.call('ZCARD', KEYS[1])
if count >= per then
  local oldest = redis.call('ZRANGE', KEYS[1], count - per, count - per, 'WITHSCORES')
  return {3, tonumber(oldest[2]) + window - now}
end
redis.call('ZADD', KEYS[1], n(now), ARGV[7])
redis.call('PEXPIRE', KEYS[1], math.ceil(window / 1000) + 1000)
if ARGV[6] == '0' then redis.call('ZREM', KEYS[2 + rank], ARGV[4]) end
return {0, 0}
`;

/** Extends (never shortens) the pause of every process. KEYS: paused-until. ARGV: pause ms. */
const PAUSE_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local untilUs = now + tonumber(ARGV[1]) * 1000
if untilUs > tonumber(redis.call('GET', KEYS[1]) or '0') then
  redis.call('SET', KEYS[1], string.format('%.0f', untilUs), 'PX', ARGV[1])
end
return 0
`;

type RedisWithBudget = Redis & {
  edgarBudgetAcquire(...keysAndArgs: Array<string | number>): Promise<[number, number]>;
  edgarBudgetPause(pausedUntilKey: string, ms: number): Promise<number>;
};

export interface RedisEdgarBudgetOptions {
  /** Shared by every process of the client: the same EDGAR_MAX_RPS everywhere. */
  maxRps: number;
  /** Prefix of the budget's keys (tests use their own). */
  keyPrefix: string;
  /**
   * Added to each second: SEC counts arrivals, and a request starts a little after its grant (event
   * loop, connection), so grants a second apart may arrive closer; the margin absorbs that. 100 ms
   * costs a tenth of the rate (10/s -> 9.1/s).
   */
  marginMs?: number;
  /** Rate of this process alone while Redis is unreachable (the others may be running too). */
  fallbackRps?: number;
  /** How often a process polls while a more urgent priority waits elsewhere. */
  yieldPollMs?: number;
  logger?: EdgarLogger;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The EDGAR budget shared by every process of one client through Redis: at most `maxRps` starts in
 * any sliding second (evenly spaced), across processes; a process waiting at a priority advertises it (with a short
 * TTL) and lower priorities yield while it is there, so a lone backfill still gets the whole rate;
 * a 403/429 seen anywhere pauses all. One request at a time per process talks to Redis (the most
 * urgent local waiter), so a process costs one script call per grant.
 * If Redis is unreachable, the process falls back to a local limiter of `fallbackRps` (1/s: safe
 * whatever the number of processes, unlike the full rate), says so once, and goes back to Redis
 * as soon as a call succeeds.
 */
export class RedisEdgarBudget implements EdgarBudget {
  readonly stats: EdgarBudgetStats = emptyStats();
  private readonly redis: RedisWithBudget;
  private readonly waiters = new PriorityQueues<() => void>();
  private readonly fallback: RequestLimiter;
  private readonly keys: { starts: string; pausedUntil: string; demand: Record<EdgarPriority, string> };
  /** Starts per window of the script: 1, the window being the spacing between starts. */
  private readonly perWindow: number;
  private readonly windowUs: number;
  private readonly demandTtlUs: number;
  private readonly yieldPollMs: number;
  private readonly logger: EdgarLogger;
  private readonly processId = randomUUID();
  private startSeq = 0;
  private pausedUntil = 0;
  private pumping = false;
  private closed = false;

  constructor(
    redis: Redis,
    options: RedisEdgarBudgetOptions,
    /** True when the budget opened the connection (connect()): close() then quits it. */
    private readonly ownsConnection = false,
  ) {
    redis.defineCommand('edgarBudgetAcquire', { numberOfKeys: 5, lua: ACQUIRE_LUA });
    redis.defineCommand('edgarBudgetPause', { numberOfKeys: 1, lua: PAUSE_LUA });
    this.redis = redis as RedisWithBudget;
    const { perWindow, windowMs } = windowOf(options.maxRps);
    // Spaced, not in bursts: N grants at once reach SEC spread out by event loops and the network and
    // can bunch up with the next window's, while one start per (window + margin) / N keeps any
    // second at N as long as two arrivals 1.1 s apart do not drift 100 ms closer. (Measured: bursts
    // put 11 to 14 arrivals in a second of the integration test on a busy machine.)
    this.perWindow = 1;
    this.windowUs = Math.round(((windowMs + (options.marginMs ?? 100)) / perWindow) * 1000);
    // Longer than a waiting process's longest sleep between two calls (a window, or a yield poll), so its demand never lapses while it waits.
    this.demandTtlUs = this.windowUs + 1_000_000;
    this.yieldPollMs = options.yieldPollMs ?? 20;
    this.fallback = new RequestLimiter(options.fallbackRps ?? 1);
    this.logger = options.logger ?? silentLogger;
    // One hash tag: every key of the budget on one cluster slot, as a script needs.
    const p = `${options.keyPrefix}{budget}:`;
    this.keys = {
      starts: `${p}starts`,
      pausedUntil: `${p}paused-until`,
      demand: { discovery: `${p}demand:discovery`, documents: `${p}demand:documents`, backfill: `${p}demand:backfill` },
    };
  }

  /** A budget on its own connection, closed with it. Commands time out fast, so an outage turns into the fallback, not a hang. */
  static connect(url: string, options: RedisEdgarBudgetOptions): RedisEdgarBudget {
    const redis = new Redis(url, { commandTimeout: 1000, maxRetriesPerRequest: 1 });
    // Each reconnect attempt emits an error; the budget logs the outage once, when a call fails.
    redis.on('error', () => undefined);
    return new RedisEdgarBudget(redis, options, true);
  }

  acquire(priority: EdgarPriority): Promise<void> {
    return new Promise<void>((resolve) => {
      this.waiters.push(priority, resolve);
      void this.pump();
    });
  }

  pauseFor(ms: number): void {
    this.stats.throttles += 1;
    this.pausedUntil = Math.max(this.pausedUntil, Date.now() + ms);
    this.fallback.holdUntil(this.pausedUntil);
    if (ms <= 0) return;
    // Unreachable Redis: the others find out from their own 403s.
    this.redis.edgarBudgetPause(this.keys.pausedUntil, Math.ceil(ms)).catch(() => undefined);
  }

  get pausedUntilMs(): number {
    return this.pausedUntil;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.fallback.close();
    if (this.ownsConnection) this.redis.disconnect();
  }

  /** Serves local waiters, most urgent first, one Redis call at a time. */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      for (let priority = this.waiters.headPriority(); priority !== null && !this.closed; priority = this.waiters.headPriority()) {
        const waitMs = await this.tryStart(priority);
        if (waitMs > 0) {
          await sleep(waitMs);
          continue;
        }
        this.stats.grants[priority] += 1;
        this.waiters.shift(priority)?.();
      }
    } finally {
      this.pumping = false;
    }
  }

  /** 0 when a request of `priority` may start now (the start is recorded), else ms to wait before asking again. */
  private async tryStart(priority: EdgarPriority): Promise<number> {
    const ownPause = this.pausedUntil - Date.now();
    if (ownPause > 0) return ownPause;
    let reply: [number, number];
    try {
      reply = await this.redis.edgarBudgetAcquire(
        this.keys.starts,
        this.keys.pausedUntil,
        this.keys.demand.discovery,
        this.keys.demand.documents,
        this.keys.demand.backfill,
        EDGAR_PRIORITIES.indexOf(priority) + 1,
        this.perWindow,
        this.windowUs,
        this.processId,
        this.demandTtlUs,
        this.waiters.count(priority) > 1 ? 1 : 0,
        `${this.processId}:${(this.startSeq += 1)}`,
      );
    } catch (error) {
      if (!this.stats.degraded) {
        this.stats.degraded = true;
        this.logger.warn({ error: error instanceof Error ? error.message : String(error), fallbackRps: this.fallback.rate }, 'EDGAR budget: Redis unreachable, this process falls back to a local limiter');
      }
      await this.fallback.acquire(priority);
      return 0;
    }
    if (this.stats.degraded) {
      this.stats.degraded = false;
      this.logger.info({}, 'EDGAR budget: Redis is back, the shared budget applies again');
    }
    const [outcome, waitUs] = reply;
    const waitMs = Math.max(1, Math.ceil(waitUs / 1000));
    switch (outcome) {
      case 0:
        return 0;
      case 1:
        this.noticePause(waitMs);
        return waitMs;
      case 2:
        return this.yieldPollMs;
      default:
        return waitMs;
    }
  }

  /** A pause found in Redis: logged once per pause that this process did not start (its own is logged where the 403 was seen). */
  private noticePause(leftMs: number): void {
    const until = Date.now() + leftMs;
    // A second's slack: the same pause read again, or our own one, ends within it.
    if (until > this.pausedUntil + 1000) {
      this.logger.info({ pausedUntil: new Date(until).toISOString() }, 'EDGAR budget: SEC throttled another process, pausing EDGAR requests here too');
    }
    this.pausedUntil = Math.max(this.pausedUntil, until);
    this.fallback.holdUntil(this.pausedUntil);
  }
}
