import { isFilingHistory } from './complete-submission.fetcher';

describe('isFilingHistory', () => {
  it("takes a backfill's filing three days old or more, and a quarter's full index, as history (read at backfill priority), never what the poller found", () => {
    const record = (filed_date: string, source: 'submissions' | 'daily_index', source_url: string | null = null) => ({ data: { filed_date, source }, provenance: { source_url } as never });
    expect(isFilingHistory(record('2026-11-28', 'submissions'), '2026-11-28')).toBe(false);
    expect(isFilingHistory(record('2026-11-26', 'submissions'), '2026-11-28')).toBe(false);
    expect(isFilingHistory(record('2026-11-25', 'submissions'), '2026-11-28')).toBe(true);
    expect(isFilingHistory(record('2023-03-15', 'submissions'), '2026-11-28')).toBe(true);
    expect(isFilingHistory(record('2020-03-18', 'daily_index', 'https://www.sec.gov/Archives/edgar/full-index/2020/QTR1/form.idx'), '2026-11-28')).toBe(true);
    // A simulated or late day of the daily index is still what the poller found now.
    expect(isFilingHistory(record('2020-03-18', 'daily_index', 'https://www.sec.gov/Archives/edgar/daily-index/2020/QTR1/form.20200318.idx'), '2026-11-28')).toBe(false);
  });
});
