import { advanceMark, NoSuchRecordError, planRequeue, type RequeueMark } from './dead-letter.requeue';

const ends = [
  { partition: 0, low: '0', high: '3' },
  { partition: 1, low: '2', high: '4' },
  { partition: 2, low: '0', high: '0' },
];

describe('planRequeue', () => {
  it('--all on a fresh group: every record, from the low end of each partition', () => {
    const plan = planRequeue(ends, new Map(), { all: true });
    expect(plan.ranges).toEqual([
      { partition: 0, from: '0', to: '3' },
      { partition: 1, from: '2', to: '4' },
    ]);
    expect([...plan.wanted.get(0)!]).toEqual(['0', '1', '2']);
    expect(plan.already).toEqual([]);
  });

  it('--all again: nothing below the watermark, nothing requeued one by one', () => {
    const marks = new Map<number, RequeueMark>([
      [0, { partition: 0, watermark: '3', done: [] }],
      [1, { partition: 1, watermark: '2', done: ['3'] }],
    ]);
    const plan = planRequeue(ends, marks, { all: true });
    expect(plan.ranges).toEqual([{ partition: 1, from: '2', to: '4' }]);
    expect([...plan.wanted.get(1)!]).toEqual(['2']);
    expect(plan.already).toEqual([{ partition: 1, offset: '3' }]);
  });

  it('one offset: requeued unless the group has passed it or done it', () => {
    expect(planRequeue(ends, new Map(), { partition: 1, offset: '3' }).ranges).toEqual([{ partition: 1, from: '3', to: '4' }]);
    const marks = new Map<number, RequeueMark>([[0, { partition: 0, watermark: '2', done: [] }]]);
    const plan = planRequeue(ends, marks, { partition: 0, offset: '1' });
    expect(plan.ranges).toEqual([]);
    expect(plan.already).toEqual([{ partition: 0, offset: '1' }]);
  });

  it('an offset or partition the DLQ does not hold is an error naming what it holds', () => {
    expect(() => planRequeue(ends, new Map(), { partition: 1, offset: '0' })).toThrow(NoSuchRecordError);
    expect(() => planRequeue(ends, new Map(), { partition: 1, offset: '9' })).toThrow(/offsets 2\.\.3/);
    expect(() => planRequeue(ends, new Map(), { partition: 5, offset: '0' })).toThrow(/no partition 5/);
  });
});

describe('advanceMark', () => {
  it('contiguous offsets raise the watermark; others are remembered above it', () => {
    const start: RequeueMark = { partition: 0, watermark: '2', done: [] };
    const a = advanceMark(start, ['4']);
    expect(a).toEqual({ partition: 0, watermark: '2', done: ['4'] });
    const b = advanceMark(a, ['2']);
    expect(b).toEqual({ partition: 0, watermark: '3', done: ['4'] });
    expect(advanceMark(b, ['3'])).toEqual({ partition: 0, watermark: '5', done: [] });
  });
});
