import { calendarQuarter, fiscalLabel, parseFiscalYearEnd, periodKind } from './ixbrl.periods';
import { deriveQ4 } from './q4.derivation';

describe('periods', () => {
  it('tells quarters, year-to-date, annual and instants apart by the context dates', () => {
    expect(periodKind({ startDate: '2024-12-29', endDate: '2025-03-29' })).toBe('quarter');
    expect(periodKind({ startDate: '2024-09-29', endDate: '2025-03-29' })).toBe('ytd');
    expect(periodKind({ startDate: '2024-01-01', endDate: '2024-09-30' })).toBe('ytd');
    expect(periodKind({ startDate: '2023-10-01', endDate: '2024-09-28' })).toBe('annual');
    expect(periodKind({ startDate: null, endDate: '2025-03-29' })).toBe('instant');
    expect(periodKind({ startDate: '2025-01-01', endDate: '2025-01-31' })).toBe('other');
  });

  it('names the calendar quarter by the middle of the last three months', () => {
    expect(calendarQuarter('2025-03-29')).toBe('2025-Q1');
    expect(calendarQuarter('2025-06-30')).toBe('2025-Q2');
    expect(calendarQuarter('2025-07-27')).toBe('2025-Q2');
    expect(calendarQuarter('2024-12-28')).toBe('2024-Q4');
  });

  it('reads fiscal year ends as printed', () => {
    expect(parseFiscalYearEnd('--09-27')).toEqual({ month: 9, day: 27 });
    expect(parseFiscalYearEnd('1/25')).toEqual({ month: 1, day: 25 });
    expect(parseFiscalYearEnd('12-31')).toEqual({ month: 12, day: 31 });
  });

  it('labels fiscal periods anchored to DocumentFiscalYearFocus', () => {
    const nvda = { yearEnd: { month: 1, day: 25 }, documentFiscalYear: 2026, documentPeriodEnd: '2025-07-27' };
    expect(fiscalLabel({ startDate: '2025-04-28', endDate: '2025-07-27' }, 'quarter', nvda)).toBe('FY2026-Q2');
    expect(fiscalLabel({ startDate: '2024-01-29', endDate: '2024-07-28' }, 'ytd', nvda)).toBe('FY2025-Q2-YTD');
    const aapl = { yearEnd: { month: 9, day: 27 }, documentFiscalYear: 2025, documentPeriodEnd: '2025-03-29' };
    expect(fiscalLabel({ startDate: '2023-10-01', endDate: '2024-09-28' }, 'annual', aapl)).toBe('FY2024');
    expect(fiscalLabel({ startDate: '2024-06-30', endDate: '2024-09-28' }, 'quarter', aapl)).toBe('FY2024-Q4');
  });
});

describe('deriveQ4', () => {
  // Apple's Americas net sales as reported for fiscal 2024 (10-K: $167,045M) and the nine months to 2024-06-29
  // (Q3 10-Q: $125,381M); neither filing is among the fixtures, so this tests the arithmetic only.
  it('is the annual figure minus the nine months from the same start', () => {
    expect(deriveQ4(
      { start_date: '2023-10-01', end_date: '2024-09-28', value: 167_045_000_000 },
      { start_date: '2023-10-01', end_date: '2024-06-29', value: 125_381_000_000 },
    )).toEqual({ start_date: '2024-06-30', end_date: '2024-09-28', value: 41_664_000_000 });
  });

  it('refuses periods that do not line up', () => {
    expect(deriveQ4({ start_date: '2023-10-01', end_date: '2024-09-28', value: 1 }, { start_date: '2023-10-02', end_date: '2024-06-29', value: 1 })).toBeNull();
    expect(deriveQ4({ start_date: '2023-10-01', end_date: '2024-09-28', value: 1 }, { start_date: '2023-10-01', end_date: '2024-03-30', value: 1 })).toBeNull();
  });
});
