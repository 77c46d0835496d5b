import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FundHoldingsData, RecordEnvelope } from '@app/contracts';
import { fundHoldingRows } from './fund-holdings.projection';

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
