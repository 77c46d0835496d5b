import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CompanyData, RecordEnvelope, TenkSectionData } from '@app/contracts';
import { irSiteSchema } from './ingest-ir.config';
import { irCompanyOf, tenkIrWebsiteOf } from './ir-site.mapper';
import { chooseTarget } from './ir-target';

const EXAMPLES = join(__dirname, '..', '..', '..', 'libs', 'contracts', 'src', 'examples');
const example = <T>(file: string) => JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as RecordEnvelope<T>;

// Tesla's Item 1 as the sections worker published it from the fixture 10-K, and MSFT's company record
// (empty website fields, as SEC's submissions JSON has them for TSLA too) standing in for Tesla's listing.
const tslaItem1 = example<TenkSectionData>('tenk-section@1.tsla-item-1.json');
const msft = example<CompanyData>('company@1.msft.json');
const tsla = { ...irCompanyOf(msft)!, cik: '0001318605', ticker: 'TSLA', name: 'Tesla, Inc.' };

describe('tenkIrWebsiteOf', () => {
  it('reads the IR website from Tesla\'s Item 1 record, citing the 10-K', () => {
    expect(tenkIrWebsiteOf(tslaItem1)).toMatchObject({
      url: 'https://ir.tesla.com/',
      quote: expect.stringMatching(/investor relations website at ir\.tesla\.com/),
      accession: '0001628280-25-003063',
      periodEnded: '2024-12-31',
      documentUrl: 'https://www.sec.gov/Archives/edgar/data/1318605/000162828025003063/tsla-20241231.htm',
      contentHash: tslaItem1.provenance.content_hash,
    });
    expect(tslaItem1.data.text).toContain(tenkIrWebsiteOf(tslaItem1)!.quote);
  });

  it('other items and items without text name nothing', () => {
    expect(tenkIrWebsiteOf({ ...tslaItem1, data: { ...tslaItem1.data, item: '1A' } })).toBeNull();
    expect(tenkIrWebsiteOf({ ...tslaItem1, data: { ...tslaItem1.data, text: null } })).toBeNull();
  });
});

describe('chooseTarget', () => {
  const mention = tenkIrWebsiteOf(tslaItem1)!;

  it('no website anywhere: no_website, citing the submissions JSON', () => {
    expect(chooseTarget(tsla, [])).toMatchObject({ kind: 'verdict', status: 'no_website', evidence: { provider: 'sec', url: msft.provenance.source_url } });
  });

  it('the 10-K\'s IR website, citing the 10-K sentence', () => {
    expect(chooseTarget({ ...tsla, tenkIrWebsite: mention }, [])).toMatchObject({
      kind: 'crawl',
      source: 'tenk_available_information',
      startUrl: 'https://ir.tesla.com/',
      site: { cik: '0001318605', ticker: 'TSLA', landing_url: 'https://ir.tesla.com/' },
      foundOn: { provider: 'sec', url: mention.documentUrl, quote: mention.quote },
    });
  });

  it('ranks registry, investor_website, 10-K, website in that order', () => {
    const all = { ...tsla, investorWebsite: 'investors.example.com', website: 'www.example.com', tenkIrWebsite: mention };
    const registry = [irSiteSchema.parse({ cik: '1318605', name: 'Tesla, Inc.', landing_url: 'https://ir.tesla.com/investor-relations' })];
    expect(chooseTarget(all, registry)).toMatchObject({ kind: 'crawl', source: 'operator', startUrl: 'https://ir.tesla.com/investor-relations' });
    expect(chooseTarget(all, [])).toMatchObject({ kind: 'crawl', source: 'investor_website', startUrl: 'https://investors.example.com/' });
    expect(chooseTarget({ ...all, investorWebsite: null }, [])).toMatchObject({ source: 'tenk_available_information' });
    expect(chooseTarget({ ...all, investorWebsite: null, tenkIrWebsite: null }, [])).toEqual({ kind: 'homepage', url: 'https://www.example.com/' });
  });
});
