import { thirteenFDate } from './thirteenf-dates';

describe('13F dates', () => {
  it('thirteenFDate turns MM-DD-YYYY into YYYY-MM-DD and passes ISO dates through', () => {
    expect(thirteenFDate('09-30-2021')).toBe('2021-09-30');
    expect(thirteenFDate('2021-09-30')).toBe('2021-09-30');
    expect(thirteenFDate('Sept 30')).toBeNull();
    expect(thirteenFDate(null)).toBeNull();
  });
});
