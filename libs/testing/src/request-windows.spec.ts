import { busiestSecond, maxRequestsInAnyWindow, median } from './request-windows';

const at = (...times: number[]) => times.map((t) => ({ at: t }));

describe('maxRequestsInAnyWindow', () => {
  it('finds the busiest window wherever it starts, unsorted input included', () => {
    expect(maxRequestsInAnyWindow([], 1000)).toBe(0);
    expect(maxRequestsInAnyWindow(at(0, 500, 999), 1000)).toBe(3);
    // 1000 is a full window after 0: not in the same one.
    expect(maxRequestsInAnyWindow(at(0, 500, 1000), 1000)).toBe(2);
    expect(maxRequestsInAnyWindow(at(2600, 0, 1500, 1600, 100, 2400), 1000)).toBe(3);
  });

  it('counts requests at the same instant', () => {
    expect(maxRequestsInAnyWindow(at(5, 5, 5, 5, 2000), 1000)).toBe(4);
  });
});

describe('median', () => {
  it('is the middle value, the lower of two for an even count', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2);
    expect(() => median([])).toThrow(RangeError);
  });
});

describe('busiestSecond', () => {
  it('finds the busiest 1,000 ms anywhere, across clock seconds', () => {
    const log = at(10_100, 10_900, 11_050, 13_999, 13_000, 12_999);
    // 10 100, 10 900 and 11 050 are within one second, though in two clock seconds.
    expect(busiestSecond(log)).toBe(3);
  });
});
