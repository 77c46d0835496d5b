import { nextQuarterEnd, previousQuarterEnd, quarterEnd, quarterOf } from './quarters';

describe('quarters', () => {
  it('names the calendar quarter of a date and gives its end back', () => {
    expect(quarterOf('2025-06-30')).toBe('2025Q2');
    expect(quarterOf('2020-12-31')).toBe('2020Q4');
    expect(quarterOf('2021-03-31')).toBe('2021Q1');
    expect(quarterEnd('2021Q3')).toBe('2021-09-30');
    expect(quarterEnd(quarterOf('2024-12-31'))).toBe('2024-12-31');
  });

  it('refuses what is not a date or a quarter', () => {
    expect(() => quarterOf('06-30-2025')).toThrow(RangeError);
    expect(() => quarterOf('2025-13-01')).toThrow(RangeError);
    expect(() => quarterEnd('2025Q5')).toThrow(RangeError);
  });

  it('steps quarter ends across years and short months', () => {
    expect(previousQuarterEnd('2021-03-31')).toBe('2020-12-31');
    expect(previousQuarterEnd('2020-09-30')).toBe('2020-06-30');
    expect(nextQuarterEnd('2020-12-31')).toBe('2021-03-31');
    expect(nextQuarterEnd('2021-03-31')).toBe('2021-06-30');
  });
});
