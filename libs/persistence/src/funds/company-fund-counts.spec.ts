import { fundCountDeltas, mergeFundCountDeltas } from './company-fund-counts';

describe('fundCountDeltas', () => {
  it('counts a company a fund starts or stops holding, and ETF holders apart, in CIK order', () => {
    const before = { ciks: new Set(['0000000003', '0000000001', '0000000002']), isEtf: false };
    const after = { ciks: new Set(['0000000002', '0000000004']), isEtf: false };
    expect(fundCountDeltas(before, after)).toEqual([
      { cik: '0000000001', funds: -1, etfFunds: 0 },
      { cik: '0000000003', funds: -1, etfFunds: 0 },
      { cik: '0000000004', funds: 1, etfFunds: 0 },
    ]);
  });

  it('moves only the ETF counts when a fund turns exchange-traded, and nothing when nothing changed', () => {
    const ciks = new Set(['0000000001', '0000000002']);
    expect(fundCountDeltas({ ciks, isEtf: false }, { ciks, isEtf: true })).toEqual([
      { cik: '0000000001', funds: 0, etfFunds: 1 },
      { cik: '0000000002', funds: 0, etfFunds: 1 },
    ]);
    expect(fundCountDeltas({ ciks, isEtf: true }, { ciks, isEtf: true })).toEqual([]);
  });

  it('merges several funds\' deltas per company, in CIK order, without zeros', () => {
    expect(
      mergeFundCountDeltas([
        { cik: '0000000002', funds: 1, etfFunds: 1 },
        { cik: '0000000001', funds: -1, etfFunds: 0 },
        { cik: '0000000002', funds: -1, etfFunds: -1 },
        { cik: '0000000001', funds: -1, etfFunds: 0 },
      ]),
    ).toEqual([{ cik: '0000000001', funds: -2, etfFunds: 0 }]);
  });
});
