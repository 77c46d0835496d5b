import { ThirteenFService } from './thirteenf.service';

describe('ThirteenFService.wants', () => {
  it('reads 13F reports, notices and their amendments, nothing else', () => {
    for (const form of ['13F-HR', '13F-HR/A', '13F-NT', '13F-NT/A', '13f-hr']) expect(ThirteenFService.wants({ form })).toBe(true);
    for (const form of ['13F-HR/A2', '13H', 'NPORT-P', '8-K', 'SC 13G', '13F-CTR']) expect(ThirteenFService.wants({ form })).toBe(false);
  });
});
