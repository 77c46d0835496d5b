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
