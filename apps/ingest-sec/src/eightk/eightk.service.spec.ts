import { EightKService } from './eightk.service';

describe('EightKService.wants', () => {
  it('reads 8-Ks and 6-Ks, never the filing records it published itself', () => {
    expect(EightKService.wants({ form: '8-K', source: 'daily_index' })).toBe(true);
    expect(EightKService.wants({ form: '8-K/A', source: 'submissions' })).toBe(true);
    expect(EightKService.wants({ form: '8-K12B', source: 'current_events' })).toBe(true);
    expect(EightKService.wants({ form: '6-K', source: 'daily_index' })).toBe(true);
    expect(EightKService.wants({ form: '8-K', source: 'submission_text' })).toBe(false);
    expect(EightKService.wants({ form: '10-K', source: 'daily_index' })).toBe(false);
    expect(EightKService.wants({ form: '4', source: 'daily_index' })).toBe(false);
  });
});

describe('EightKService.isHistory', () => {
  it("takes a backfill's filing three days old or more, and a quarter's full index, as history (read at backfill priority), never what the poller found", () => {
    const record = (filed_date: string, source: 'submissions' | 'daily_index', source_url: string | null = null) => ({ data: { filed_date, source }, provenance: { source_url } as never });
    expect(EightKService.isHistory(record('2026-11-28', 'submissions'), '2026-11-28')).toBe(false);
    expect(EightKService.isHistory(record('2026-11-26', 'submissions'), '2026-11-28')).toBe(false);
    expect(EightKService.isHistory(record('2026-11-25', 'submissions'), '2026-11-28')).toBe(true);
    expect(EightKService.isHistory(record('2023-03-15', 'submissions'), '2026-11-28')).toBe(true);
    expect(EightKService.isHistory(record('2020-03-18', 'daily_index', 'https://www.sec.gov/Archives/edgar/full-index/2020/QTR1/form.idx'), '2026-11-28')).toBe(true);
    // A simulated or late day of the daily index is still what the poller found now.
    expect(EightKService.isHistory(record('2020-03-18', 'daily_index', 'https://www.sec.gov/Archives/edgar/daily-index/2020/QTR1/form.20200318.idx'), '2026-11-28')).toBe(false);
  });
});
