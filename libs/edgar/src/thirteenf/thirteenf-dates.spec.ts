import { quarterOf, thirteenFDate } from './thirteenf-dates';

describe('13F dates', () => {
  it('quarterOf gives the calendar quarter of a period', () => {
    expect(quarterOf('2025-06-30')).toBe('2025Q2');
    expect(quarterOf('2020-12-31')).toBe('2020Q4');
    expect(quarterOf('2021-03-31')).toBe('2021Q1');
    expect(quarterOf('2021-09-30')).toBe('2021Q3');
    expect(() => quarterOf('06-30-2025')).toThrow(RangeError);
    expect(() => quarterOf('2025-13-01')).toThrow(RangeError);
  });

  it('thirteenFDate turns MM-DD-YYYY into YYYY-MM-DD and passes ISO dates through', () => {
    expect(thirteenFDate('09-30-2021')).toBe('2021-09-30');
    expect(thirteenFDate('2021-09-30')).toBe('2021-09-30');
    expect(thirteenFDate('Sept 30')).toBeNull();
    expect(thirteenFDate(null)).toBeNull();
  });
});
