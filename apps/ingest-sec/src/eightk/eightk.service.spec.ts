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
  it("takes a backfill's filing three days old or more as history (read at backfill priority), never what the poller found", () => {
    const backfill = (filed_date: string) => ({ filed_date, source: 'submissions' as const });
    expect(EightKService.isHistory(backfill('2026-11-28'), '2026-11-28')).toBe(false);
    expect(EightKService.isHistory(backfill('2026-11-26'), '2026-11-28')).toBe(false);
    expect(EightKService.isHistory(backfill('2026-11-25'), '2026-11-28')).toBe(true);
    expect(EightKService.isHistory(backfill('2023-03-15'), '2026-11-28')).toBe(true);
    // A simulated or late day of the daily index is still what the poller found now.
    expect(EightKService.isHistory({ filed_date: '2020-03-18', source: 'daily_index' }, '2026-11-28')).toBe(false);
  });
});
