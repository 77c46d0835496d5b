import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FundHoldingsData, RecordEnvelope } from '@app/contracts';
import { fundHoldingRows, identifierRows, planFund, plannedRows, type FundChunk } from './fund-holdings.projection';

const adx = JSON.parse(readFileSync(join(resolve(__dirname, '../../../contracts/src/examples'), 'fund-holdings@1.adx.json'), 'utf8')) as RecordEnvelope<FundHoldingsData>;

describe('fundHoldingRows', () => {
  const rows = fundHoldingRows(adx);

  it('makes one row per holding, keyed by accession and holding index', () => {
    expect(rows).toHaveLength(95);
    expect(new Set(rows.map((r) => `${r.accession}/${r.holding_index}`)).size).toBe(95);
  });

  it("keeps the Microsoft holding's figures, match and its own quote in the provenance", () => {
    const msft = rows.find((r) => r.cusip === '594918104')!;
    expect(msft).toMatchObject({
      fund_key: 'CIK0000002230',
      report_date: '2023-06-30',
      balance: 517700,
      units: 'NS',
      val_usd: 176297558,
      pct_val: 7.2998,
      asset_cat: 'EC',
      match_cik: '0000789019',
      match_symbol: 'MSFT:US',
      match_method: 'ticker',
      provenance: { ...adx.provenance, quote: '<name>Microsoft Corporation</name>' },
      record_id: adx.id,
    });
  });

  it('hashes each holding, so an unchanged holding is not rewritten', () => {
    expect(fundHoldingRows(adx).map((r) => r.data_hash)).toEqual(rows.map((r) => r.data_hash));
    expect(new Set(rows.map((r) => r.data_hash)).size).toBe(95);
  });
});

const examples = resolve(__dirname, '../../../contracts/src/examples');
const gsApple = JSON.parse(readFileSync(join(examples, 'fund-holdings@1.gs-apple-bond.json'), 'utf8')) as RecordEnvelope<FundHoldingsData>;

describe('identifierRows (ISIN and LEI candidates of a batch\'s holdings)', () => {
  const rows = identifierRows([adx]);

  it("gives MSFT:US the ISIN computed from ADX's CUSIP, citing the filing and the holding", () => {
    const msft = rows.filter((r) => r.subject === 'MSFT:US');
    expect(msft).toEqual([
      {
        scheme: 'isin',
        subject: 'MSFT:US',
        value: 'US5949181045',
        cik: '0000789019',
        derivation: 'cusip',
        fund_key: 'CIK0000002230',
        fund_name: 'Adams Diversified Equity Fund, Inc.',
        accession: '0000002230-23-990001',
        holding_index: adx.data.holdings.find((h) => h.cusip === '594918104')!.index,
        report_date: '2023-06-30',
        cusip: '594918104',
        provenance: {
          ...adx.provenance,
          quote: '<name>Microsoft Corporation</name>\n        <lei>INR2EJN1ERAN0W5ZP974</lei>\n        <title>Microsoft Corporation</title>\n        <cusip>594918104</cusip>',
        },
      },
    ]);
    expect(rows.find((r) => r.scheme === 'lei' && r.subject === '0000789019')).toMatchObject({ value: 'INR2EJN1ERAN0W5ZP974', provenance: { quote: '<name>Microsoft Corporation</name>\n        <lei>INR2EJN1ERAN0W5ZP974</lei>' } });
  });

  it('takes no identifier from a name match (the GS Bond Fund\'s APPLE INC bonds), nor an ISIN from anything but common equity', () => {
    const apple = gsApple.data.holdings.filter((h) => h.match.cik === '0000320193');
    expect(apple.length).toBeGreaterThan(0);
    expect(identifierRows([gsApple]).filter((r) => r.cik === '0000320193')).toEqual([]);
    // Every ISIN candidate of ADX is a common share on a known listing.
    const isins = rows.filter((r) => r.scheme === 'isin');
    for (const r of isins) expect(adx.data.holdings[r.holding_index]!.asset_cat).toBe('EC');
    expect(new Set(isins.map((r) => r.subject)).size).toBe(isins.length);
  });

  it('keeps one row per value, citing the newest filing that gave it', () => {
    const older = { ...adx, data: { ...adx.data, accession: '0000002230-23-000001', fund: { ...adx.data.fund, report_date: '2023-03-31' } } };
    const twice = identifierRows([adx, older]).filter((r) => r.subject === 'MSFT:US');
    expect(twice.map((r) => [r.accession, r.report_date])).toEqual([['0000002230-23-990001', '2023-06-30']]);
    expect(identifierRows([older, adx])).toEqual(identifierRows([adx, older]));
  });
});

describe('planFund (a fund\'s chunks of a batch, applied one at a time in memory)', () => {
  const chunk = (accession: string, report_date: string, indexes: number[], total: number, fund_hash = accession): FundChunk => ({
    accession,
    report_date,
    holdings_total: total,
    indexes,
    fund_hash,
  });
  const none = new Map<string, Set<number>>();

  it('makes a complete first filing current and writes the funds row from it', () => {
    expect(planFund([chunk('A', '2023-06-30', [0, 1], 2)], undefined, undefined, none)).toEqual({
      accepted: [true],
      current: { accession: 'A', report_date: '2023-06-30' },
      switched: true,
      fundSource: 0,
    });
  });

  it('counts stored rows and earlier chunks of the batch toward completion', () => {
    const plan = planFund([chunk('B', '2023-09-30', [1], 3), chunk('B', '2023-09-30', [2], 3)], { accession: 'A', report_date: '2023-06-30' }, 'A', new Map([['B', new Set([0])]]));
    expect(plan).toEqual({ accepted: [true, true], current: { accession: 'B', report_date: '2023-09-30' }, switched: true, fundSource: 1 });
  });

  it('drops the chunks of an older filing, also once a newer one completed in the batch', () => {
    const current = { accession: 'B', report_date: '2023-09-30' };
    expect(planFund([chunk('A', '2023-06-30', [0], 1)], current, 'B', none).accepted).toEqual([false]);
    const plan = planFund([chunk('A', '2023-06-30', [0], 2), chunk('C', '2023-12-31', [0], 1), chunk('A', '2023-06-30', [1], 2)], undefined, undefined, none);
    expect(plan.accepted).toEqual([true, true, false]);
    expect(plan.current).toEqual({ accession: 'C', report_date: '2023-12-31' });
  });

  it('keeps a newer incomplete filing pending and rewrites the funds row only when its hash changes', () => {
    const current = { accession: 'A', report_date: '2023-06-30' };
    const plan = planFund([chunk('B', '2023-09-30', [0], 2), chunk('A', '2023-06-30', [0], 1, 'A')], current, 'A', none);
    expect(plan).toEqual({ accepted: [true, true], current, switched: false, fundSource: undefined });
  });
});

describe('plannedRows', () => {
  it('keeps the last chunk\'s row per holding, none of a superseded filing, current when its filing is', () => {
    const older = { ...adx, data: { ...adx.data, accession: '0000002230-23-000001', fund: { ...adx.data.fund, report_date: '2023-03-31' }, chunk: { index: 0, count: 1, holdings_total: 96 } } };
    const again = { ...adx, id: 'rec_again' };
    const plan = planFund(
      [older, adx, again].map((e) => ({ accession: e.data.accession, report_date: e.data.fund.report_date, holdings_total: e.data.chunk.holdings_total, indexes: e.data.holdings.map((h) => h.index), fund_hash: e.data.accession })),
      undefined,
      undefined,
      new Map(),
    );
    const rows = plannedRows([older, adx, again], plan);
    expect(rows).toHaveLength(95);
    expect(rows.every((r) => r.accession === adx.data.accession && r.is_current && r.record_id === 'rec_again' && r.chunk === 2)).toBe(true);
    expect(rows.map((r) => r.holding_index)).toEqual([...rows.map((r) => r.holding_index)].sort((a, b) => a - b));
  });
});
