import { RequestLimiter, sharedEdgarLimiter } from './request.limiter';

describe('RequestLimiter', () => {
  beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => jest.useRealTimers());

  /** Acquires `n` slots at once and records the fake time each is granted. */
  function grantTimes(limiter: RequestLimiter, n: number): number[] {
    const times: number[] = [];
    for (let i = 0; i < n; i += 1) void limiter.acquire().then(() => times.push(Date.now() - 1_000_000));
    return times;
  }

  it('grants at most maxRps starts in any one-second window', async () => {
    const limiter = new RequestLimiter(10);
    const times = grantTimes(limiter, 25);
    await jest.advanceTimersByTimeAsync(0);
    expect(times).toHaveLength(10);
    await jest.advanceTimersByTimeAsync(999);
    expect(times).toHaveLength(10);
    await jest.advanceTimersByTimeAsync(1);
    expect(times).toHaveLength(20);
    await jest.advanceTimersByTimeAsync(1000);
    expect(times).toHaveLength(25);
    for (let i = 10; i < times.length; i += 1) expect(times[i]! - times[i - 10]!).toBeGreaterThanOrEqual(1000);
  });

  it('spreads fractional rates over a longer window', async () => {
    const limiter = new RequestLimiter(0.5);
    const times = grantTimes(limiter, 3);
    await jest.advanceTimersByTimeAsync(5000);
    expect(times).toEqual([0, 2000, 4000]);
  });

  it('holds queued and new requests during a pause', async () => {
    const limiter = new RequestLimiter(10);
    limiter.pauseFor(600_000);
    const times = grantTimes(limiter, 3);
    await jest.advanceTimersByTimeAsync(599_999);
    expect(times).toHaveLength(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(times).toEqual([600_000, 600_000, 600_000]);
  });

  it('rejects rates above SEC fair access', () => {
    expect(() => new RequestLimiter(11)).toThrow(RangeError);
    expect(() => new RequestLimiter(0)).toThrow(RangeError);
  });

  it('shares one limiter per process; later callers can only lower its rate', () => {
    const a = sharedEdgarLimiter(10);
    const b = sharedEdgarLimiter(5);
    expect(b).toBe(a);
    expect(a.rate).toBe(5);
    expect(sharedEdgarLimiter(10).rate).toBe(5);
  });
});
