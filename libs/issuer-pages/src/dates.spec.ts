import { findDates, firstDate } from './dates';

describe('dates printed on IR pages', () => {
  it('reads numeric US dates, month-name dates and ISO dates', () => {
    expect(firstDate('9/28/2017-FRP Holdings Inc.')).toEqual({ date: '2017-09-28', text: '9/28/2017', index: 0 });
    expect(firstDate('09/28/2017-FRP')?.date).toBe('2017-09-28');
    expect(firstDate('Call on November 5, 2024 at 10am')?.date).toBe('2024-11-05');
    expect(firstDate('Held 5 Nov 2024')?.date).toBe('2024-11-05');
    expect(firstDate('2024-11-05 release')?.date).toBe('2024-11-05');
  });

  it('gives nothing for a month without a day, phone numbers or impossible dates', () => {
    expect(firstDate('Investor Presentation September 2017')).toBeNull();
    expect(firstDate('(877) 704-1776 and +1 212-655-0924')).toBeNull();
    expect(firstDate('13/45/2017')).toBeNull();
  });

  it('refuses years before 1900 (year 0000 is no date Postgres can store)', () => {
    expect(firstDate('0000-01-01')).toBeNull();
    expect(firstDate('1/2/0000')).toBeNull();
    expect(firstDate('March 3, 0099')).toBeNull();
    expect(firstDate('1899-12-31')).toBeNull();
    expect(firstDate('1900-01-01')?.date).toBe('1900-01-01');
  });

  it('keeps every date of a line in order (a release date, then the fiscal year end)', () => {
    expect(findDates('11/22/2016-RESULTS FOR THE FISCAL YEAR ENDED 09/30/2016').map((d) => d.date)).toEqual(['2016-11-22', '2016-09-30']);
  });
});
