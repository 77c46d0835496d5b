import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { silentLogger, type EdgarLogger } from '../edgar.logger';
import { RequestLimiter } from '../request.limiter';
import { ARRIVAL_MARGIN_MS, EDGAR_PRIORITIES, emptyStats, PriorityQueues, startSpacingMs, type EdgarBudget, type EdgarBudgetStats, type EdgarPriority } from './edgar-budget';

/**
 * One atomic step of the shared budget, on Redis' own clock (TIME), so the processes' clocks never
 * matter. Starts are spaced (see startSpacingMs), so the last start is all the window needs: one
 * key, not a sorted set of the second's starts.
 * In order: paused? -> advertise this process's demand at its priority (a member per process, score
 * = expiry) -> yield if any more urgent priority has live demand -> too soon after the last start?
 * -> record the start, and drop this process's demand when it has no more waiting at the priority.
 * KEYS: last-start, paused-until, demand:discovery, demand:documents, demand:backfill.
 * ARGV: rank (1 discovery .. 3 backfill), spacing µs, process id, demand ttl µs, more waiting (0|1).
 * Returns {0, 0} granted; {1, µs left} paused; {2, 0} a more urgent priority waits; {3, µs} too soon.
 * Numbers go to Redis through %.0f: Lua's default formatting would round 16-digit µs.
 */
const ACQUIRE_LUA = `
local function n(x) return string.format('%.0f', x) end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local paused = tonumber(redis.call('GET', KEYS[2]) or '0')
if paused > now then return {1, paused - now} end
local rank = tonumber(ARGV[1])
local ttl = tonumber(ARGV[4])
redis.call('ZADD', KEYS[2 + rank], n(now + ttl), ARGV[3])
redis.call('PEXPIRE', KEYS[2 + rank], math.ceil(ttl / 1000))
for r = 1, rank - 1 do
  redis.call('ZREMRANGEBYSCORE', KEYS[2 + r], '-inf', n(now))
  if redis.call('ZCARD', KEYS[2 + r]) > 0 then return {2, 0} end
end
local spacing = tonumber(ARGV[2])
local last = tonumber(redis.call('GET', KEYS[1]) or '0')
if now - last < spacing then return {3, last + spacing - now} end
redis.call('SET', KEYS[1], n(now), 'PX', math.ceil(spacing / 1000) + 1000)
if ARGV[5] == '0' then redis.call('ZREM', KEYS[2 + rank], ARGV[3]) end
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
  /** Rate of this process alone while Redis is unreachable (the others may be running too). */
  fallbackRps?: number;
  /** How often a process polls while a more urgent priority waits elsewhere. */
  yieldPollMs?: number;
  logger?: EdgarLogger;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The EDGAR budget shared by every process of one client through Redis: starts spaced so that at
 * most `maxRps` fall in any sliding second, across processes; a process waiting at a priority
 * advertises it (with a short TTL) and lower priorities yield while it is there, so a lone
 * backfill still gets the whole rate; a 403/429 seen anywhere pauses all. One request at a time per process talks to Redis (the most
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
  private readonly keys: { lastStart: string; pausedUntil: string; demand: Record<EdgarPriority, string> };
  private readonly spacingUs: number;
  private readonly demandTtlUs: number;
  private readonly yieldPollMs: number;
  private readonly logger: EdgarLogger;
  private readonly processId = randomUUID();
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
    this.spacingUs = Math.round(startSpacingMs(options.maxRps, ARRIVAL_MARGIN_MS) * 1000);
    // Longer than a waiting process's longest sleep between two calls (a spacing, or a yield poll), so its demand never lapses while it waits.
    this.demandTtlUs = this.spacingUs + 1_000_000;
    this.yieldPollMs = options.yieldPollMs ?? 20;
    this.fallback = new RequestLimiter(options.fallbackRps ?? 1);
    this.logger = options.logger ?? silentLogger;
    // One hash tag: every key of the budget on one cluster slot, as a script needs.
    const p = `${options.keyPrefix}{budget}:`;
    this.keys = {
      lastStart: `${p}last-start`,
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
        this.keys.lastStart,
        this.keys.pausedUntil,
        this.keys.demand.discovery,
        this.keys.demand.documents,
        this.keys.demand.backfill,
        EDGAR_PRIORITIES.indexOf(priority) + 1,
        this.spacingUs,
        this.processId,
        this.demandTtlUs,
        this.waiters.count(priority) > 1 ? 1 : 0,
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
