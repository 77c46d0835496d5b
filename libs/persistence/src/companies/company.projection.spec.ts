import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CompanyRecordV1 } from '@app/contracts';
import { batchOutcome, repeatedKeys, survivorsByKey } from '../projections/batch-upsert';
import { companyRow } from './company.projection';

const EXAMPLES = join(__dirname, '..', '..', '..', 'contracts', 'src', 'examples');
const example = (file: string): CompanyRecordV1 => JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as CompanyRecordV1;

describe('companyRow', () => {
  it('maps a record with SEC detail to the read model row', () => {
    const msft = example('company@1.msft.json');
    expect(companyRow(msft)).toMatchObject({
      symbol: 'MSFT:US',
      cik: '0000789019',
      issuer_id: '789019',
      listing_exchange: 'Nasdaq',
      country: 'US',
      website: null,
      is_fund: false,
      status: 'active',
      description: null,
      description_provenance: null,
      provenance: msft.provenance,
      record_id: msft.id,
    });
  });

  it('maps a ticker-map-only record with every detail field empty', () => {
    const row = companyRow(example('company@1.brk-b.json'));
    expect(row).toMatchObject({ symbol: 'BRK-B:US', website: null, country: null, sec_detail: null });
  });

  it('hashes the data, not its key order or the envelope', () => {
    const msft = example('company@1.msft.json');
    const reordered = { ...msft, observed_at: '2030-01-01T00:00:00.000Z', data: Object.fromEntries(Object.entries(msft.data).reverse()) } as CompanyRecordV1;
    expect(companyRow(reordered).data_hash).toBe(companyRow(msft).data_hash);
    const renamed = { ...msft, data: { ...msft.data, name: 'MICROSOFT CORPORATION' } };
    expect(companyRow(renamed).data_hash).not.toBe(companyRow(msft).data_hash);
  });
});

describe('survivorsByKey (the per-key reduction of a batch)', () => {
  const msft = example('company@1.msft.json');
  const t = (iso: string) => Date.parse(iso);
  const v = (key: string, hash: string, observed: string, rank = 1) => ({ key, hash, observedAt: t(observed), rank });

  it('keeps one record of a record sent twice', () => {
    const row = companyRow(msft);
    const version = { key: row.symbol, hash: row.data_hash, observedAt: t(row.observed_at), rank: 1 };
    expect(survivorsByKey([version, version], new Map())).toEqual([0]);
  });

  it('lets the later record of a key win and sorts the survivors by key', () => {
    const records = [v('MSFT:US', 'a', '2025-08-01T00:00:00Z'), v('BRK-B:US', 'x', '2025-08-01T00:00:00Z'), v('MSFT:US', 'b', '2025-08-02T00:00:00Z')];
    expect(survivorsByKey(records, new Map())).toEqual([1, 2]);
  });

  it('never lets an older record or a poorer source regress the key', () => {
    expect(survivorsByKey([v('k', 'a', '2025-08-02T00:00:00Z'), v('k', 'b', '2025-08-01T00:00:00Z')], new Map())).toEqual([0]);
    expect(survivorsByKey([v('k', 'a', '2025-08-01T00:00:00Z', 3), v('k', 'b', '2025-08-02T00:00:00Z', 1)], new Map())).toEqual([0]);
    // an equal observed_at and rank with a new hash writes, as it does one record at a time
    expect(survivorsByKey([v('k', 'a', '2025-08-01T00:00:00Z', 2), v('k', 'b', '2025-08-01T00:00:00Z', 2)], new Map())).toEqual([1]);
  });

  it('folds from the stored row: a record the row rejects does not shadow a later one the row accepts', () => {
    const stored = new Map([['k', { hash: 's', observedAt: t('2025-08-02T00:00:00Z'), rank: 1 }]]);
    const records = [v('k', 'a', '2025-08-01T00:00:00Z'), v('k', 'b', '2025-08-03T00:00:00Z'), v('k', 'c', '2025-07-01T00:00:00Z')];
    expect(survivorsByKey(records, stored)).toEqual([1]);
    const rejected = [v('k', 'a', '2025-08-04T00:00:00Z'), v('k', 'b', '2025-08-03T00:00:00Z')];
    expect(survivorsByKey(rejected, new Map())).toEqual([0]);
    expect(survivorsByKey([v('k', 's', '2025-08-05T00:00:00Z'), v('k', 'a', '2025-08-01T00:00:00Z')], stored)).toEqual([]);
  });

  it('reads stored versions only for keys the batch repeats', () => {
    expect(repeatedKeys([{ key: 'b' }, { key: 'a' }, { key: 'b' }, { key: 'c' }, { key: 'a' }])).toEqual(['a', 'b']);
  });
});

describe('batchOutcome', () => {
  it('lists the written keys once, in offset order, and counts the rest unchanged', () => {
    const envelopes = [{ key: 'B' }, { key: 'A' }, { key: 'B' }, { key: 'C' }];
    const outcome = batchOutcome(envelopes, [1, 2, 3], ['a', 'b', 'c'], [{ key: 'b', inserted: true }, { key: 'a', inserted: false }]);
    expect(outcome).toEqual({ inserted: ['B'], updated: ['A'], unchanged: 2 });
  });
});
