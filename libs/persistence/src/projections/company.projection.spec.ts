import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CompanyRecordV1 } from '@app/contracts';
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
