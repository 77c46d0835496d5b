import type { EdgarPriority } from './budget/edgar-budget';
import { sharedEdgarBudget } from './budget/shared-edgar-budget';
import { RequestLimiter } from './request.limiter';

describe('RequestLimiter', () => {
  beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => jest.useRealTimers());

  /** Acquires `n` slots at once and records the fake time each is granted. */
  function grantTimes(limiter: RequestLimiter, n: number, priority: EdgarPriority = 'documents'): number[] {
    const times: number[] = [];
    for (let i = 0; i < n; i += 1) void limiter.acquire(priority).then(() => times.push(Date.now() - 1_000_000));
    return times;
  }

  it('spaces starts 110 ms apart at 10/s: at most 10 in any sliding second, with 100 ms to spare', async () => {
    const limiter = new RequestLimiter(10);
    const times = grantTimes(limiter, 25);
    await jest.advanceTimersByTimeAsync(0);
    expect(times).toEqual([0]);
    await jest.advanceTimersByTimeAsync(109);
    expect(times).toEqual([0]);
    await jest.advanceTimersByTimeAsync(1);
    expect(times).toEqual([0, 110]);
    await jest.advanceTimersByTimeAsync(3000);
    expect(times).toHaveLength(25);
    expect(times).toEqual(Array.from({ length: 25 }, (_, i) => i * 110));
    for (let i = 10; i < times.length; i += 1) expect(times[i]! - times[i - 10]!).toBeGreaterThan(1000);
  });

  it('spaces fractional rates further apart', async () => {
    const limiter = new RequestLimiter(0.5);
    const times = grantTimes(limiter, 3);
    await jest.advanceTimersByTimeAsync(5000);
    expect(times).toEqual([0, 2200, 4400]);
  });

  it('holds queued and new requests during a pause', async () => {
    const limiter = new RequestLimiter(10);
    limiter.pauseFor(600_000);
    const times = grantTimes(limiter, 3);
    await jest.advanceTimersByTimeAsync(599_999);
    expect(times).toHaveLength(0);
    await jest.advanceTimersByTimeAsync(221);
    expect(times).toEqual([600_000, 600_110, 600_220]);
  });

  it('rejects rates above SEC fair access', () => {
    expect(() => new RequestLimiter(11)).toThrow(RangeError);
    expect(() => new RequestLimiter(0)).toThrow(RangeError);
  });

  it('grants the most urgent waiting priority first, FIFO within one, and counts grants per priority', async () => {
    const limiter = new RequestLimiter(1);
    const order: string[] = [];
    const ask = (priority: EdgarPriority, name: string) => void limiter.acquire(priority).then(() => order.push(name));
    ask('backfill', 'b1');
    ask('backfill', 'b2');
    ask('documents', 'd1');
    ask('discovery', 'x1');
    ask('documents', 'd2');
    await jest.advanceTimersByTimeAsync(4400);
    // b1 took the free slot at once; then discovery, documents in order, backfill last.
    expect(order).toEqual(['b1', 'x1', 'd1', 'd2', 'b2']);
    expect(limiter.stats.grants).toEqual({ discovery: 1, documents: 2, backfill: 2 });
  });

  it('a lone backfill gets the full rate', async () => {
    const times = grantTimes(new RequestLimiter(10), 20, 'backfill');
    await jest.advanceTimersByTimeAsync(1000);
    expect(times).toHaveLength(10);
  });

  it('counts a pause as a throttle; holdUntil holds without counting', async () => {
    const limiter = new RequestLimiter(10);
    limiter.pauseFor(1000);
    limiter.holdUntil(Date.now() + 3000);
    expect(limiter.stats.throttles).toBe(1);
    expect(limiter.pausedUntilMs).toBe(1_003_000);
  });

  it('shares one budget per process without Redis; later callers can only lower its rate', () => {
    const a = sharedEdgarBudget({ maxRps: 10 });
    const b = sharedEdgarBudget({ maxRps: 5 });
    expect(b).toBe(a);
    expect(a).toBeInstanceOf(RequestLimiter);
    expect((a as RequestLimiter).rate).toBe(5);
  });
});
