import { PriorityQueues, windowOf, windowWaitMs } from './edgar-budget';

describe('windowOf', () => {
  it('turns a rate into whole starts per window', () => {
    expect(windowOf(10)).toEqual({ perWindow: 10, windowMs: 1000 });
    expect(windowOf(2.5)).toEqual({ perWindow: 2, windowMs: 800 });
    expect(windowOf(0.5)).toEqual({ perWindow: 1, windowMs: 2000 });
  });

  it('refuses rates above SEC fair access', () => {
    expect(() => windowOf(11)).toThrow(RangeError);
    expect(() => windowOf(0)).toThrow(RangeError);
  });
});

describe('windowWaitMs', () => {
  it('is 0 while fewer than perWindow starts are in the window', () => {
    expect(windowWaitMs([], 5000, 3, 1000)).toBe(0);
    expect(windowWaitMs([4100, 4500], 5000, 3, 1000)).toBe(0);
  });

  it('waits until the start that would be one too many leaves the window', () => {
    // 4100, 4500, 4900 in the window at 5000: the next fits when 4100 is 1000 ms old.
    expect(windowWaitMs([4100, 4500, 4900], 5000, 3, 1000)).toBe(100);
    // With 2 per window, the second newest decides.
    expect(windowWaitMs([4100, 4500, 4900], 5000, 2, 1000)).toBe(500);
  });

  it('forgets starts a full window old (a start counts while it is less than a window old)', () => {
    expect(windowWaitMs([4000, 4500, 4900], 5000, 3, 1000)).toBe(0);
    expect(windowWaitMs([4001, 4500, 4900], 5000, 3, 1000)).toBe(1);
  });
});

describe('PriorityQueues', () => {
  it('serves discovery, then documents, then backfill, each in arrival order', () => {
    const q = new PriorityQueues<string>();
    q.push('backfill', 'b1');
    q.push('documents', 'd1');
    q.push('backfill', 'b2');
    q.push('discovery', 'x1');
    q.push('documents', 'd2');
    const served: string[] = [];
    for (let p = q.headPriority(); p !== null; p = q.headPriority()) served.push(q.shift(p)!);
    expect(served).toEqual(['x1', 'd1', 'd2', 'b1', 'b2']);
    expect(q.size).toBe(0);
  });

  it('counts waiters per priority', () => {
    const q = new PriorityQueues<number>();
    q.push('documents', 1);
    q.push('documents', 2);
    expect(q.count('documents')).toBe(2);
    expect(q.count('discovery')).toBe(0);
    expect(q.headPriority()).toBe('documents');
  });
});
