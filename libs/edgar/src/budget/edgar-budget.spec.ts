import { PriorityQueues, spacingWaitMs, startSpacingMs } from './edgar-budget';

describe('startSpacingMs', () => {
  it('spaces starts so that maxRps fit in a second of 1000 ms plus the margin', () => {
    expect(startSpacingMs(10, 100)).toBe(110);
    expect(startSpacingMs(10, 0)).toBe(100);
    expect(startSpacingMs(0.5, 100)).toBe(2200);
  });

  it('refuses rates above SEC fair access', () => {
    expect(() => startSpacingMs(11, 100)).toThrow(RangeError);
    expect(() => startSpacingMs(0, 100)).toThrow(RangeError);
  });

  it('never lets maxRps + 1 starts into one sliding second', () => {
    // N + 1 starts a spacing apart span N spacings: more than the 1000 ms of a second.
    for (const rps of [10, 7, 2.5, 1]) expect(Math.floor(rps) * startSpacingMs(rps, 100)).toBeGreaterThan(1000 * (Math.floor(rps) / rps));
    expect(10 * startSpacingMs(10, 100)).toBeGreaterThan(1000);
  });
});

describe('spacingWaitMs', () => {
  it('is 0 for the first start and once a spacing has passed', () => {
    expect(spacingWaitMs(null, 5000, 110)).toBe(0);
    expect(spacingWaitMs(4890, 5000, 110)).toBe(0);
    expect(spacingWaitMs(4000, 5000, 110)).toBe(0);
  });

  it('waits out the rest of the spacing', () => {
    expect(spacingWaitMs(4950, 5000, 110)).toBe(60);
    expect(spacingWaitMs(5000, 5000, 110)).toBe(110);
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
