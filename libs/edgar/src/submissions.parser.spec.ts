import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseRecentFilings, parseSubmissions, submissionsPath } from './submissions.parser';

const FIXTURES = process.env.FIXTURES_DIR ?? resolve(__dirname, '../../../../shared/fixtures');
const read = (file: string) => readFileSync(join(FIXTURES, 'submissions', file));

describe('parseSubmissions', () => {
  it('reads Microsoft (newer format, padded "cik":"0000789019")', () => {
    const bytes = read('CIK0000789019.json');
    const msft = parseSubmissions(bytes);
    expect(msft).toMatchObject({
      cik: '0000789019',
      name: 'MICROSOFT CORP',
      entityType: 'operating',
      sic: '7372',
      sicDescription: 'Services-Prepackaged Software',
      ownerOrg: '06 Technology',
      category: 'Large accelerated filer',
      fiscalYearEnd: '0630',
      stateOfIncorporation: 'WA',
      ein: '911144442',
      lei: null,
      description: null,
      website: null,
      investorWebsite: null,
      phone: '425-882-8080',
      tickers: ['MSFT'],
      exchanges: ['Nasdaq'],
      country: 'US',
      formerNames: [],
      insiderTransactionForIssuerExists: true,
    });
    expect(msft.addresses.business).toEqual({
      street1: 'ONE MICROSOFT WAY',
      street2: null,
      city: 'REDMOND',
      stateOrCountry: 'WA',
      stateOrCountryDescription: 'WA',
      zipCode: '98052-6399',
      country: null,
      countryCode: null,
      isForeignLocation: null,
    });
    expect(msft.filingFiles.map((f) => f.name)).toEqual(['CIK0000789019-submissions-001.json', 'CIK0000789019-submissions-002.json']);
    expect(msft.nameQuote).toBe('"name": "MICROSOFT CORP"');
    expect(bytes.toString('utf8')).toContain(msft.nameQuote);
  });

  it('reads Murphy Oil (raw minified SEC output, unpadded "cik":"717423")', () => {
    const mur = parseSubmissions(read('CIK0000717423.json'));
    expect(mur).toMatchObject({
      cik: '0000717423',
      name: 'MURPHY OIL CORP',
      tickers: ['MUR'],
      exchanges: ['NYSE'],
      website: null,
      country: 'US',
      formerNames: [{ name: 'MURPHY OIL CORP /DE', from: '1994-02-14T00:00:00.000Z', to: '2019-07-12T00:00:00.000Z' }],
      nameQuote: '"name":"MURPHY OIL CORP"',
    });
    expect(mur.addresses.business?.city).toBe('HOUSTON');
  });

  it('reads Tesla (pretty-printed, unpadded cik, a former name)', () => {
    const tsla = parseSubmissions(read('CIK0001318605.json'));
    expect(tsla).toMatchObject({
      cik: '0001318605',
      name: 'Tesla, Inc.',
      fiscalYearEnd: '1231',
      stateOfIncorporation: 'DE',
      country: 'US',
      formerNames: [{ name: 'TESLA MOTORS INC', from: '2005-02-17T00:00:00.000Z', to: '2017-01-27T00:00:00.000Z' }],
      nameQuote: '"name": "Tesla, Inc."',
    });
  });

  it('maps foreign EDGAR codes and the newer countryCode', () => {
    const base = { cik: '1', name: 'X', addresses: { business: { stateOrCountry: 'X0', city: 'LONDON' } } };
    expect(parseSubmissions(JSON.stringify(base)).country).toBe('GB');
    const unknown = { ...base, addresses: { business: { stateOrCountry: 'Q9', countryCode: null } } };
    expect(parseSubmissions(JSON.stringify(unknown)).country).toBeNull();
    const iso = { ...base, addresses: { business: { stateOrCountry: 'Q9', countryCode: 'NZ' } } };
    expect(parseSubmissions(JSON.stringify(iso)).country).toBe('NZ');
  });

  it('gives null for exchanges SEC leaves empty', () => {
    const s = parseSubmissions('{"cik":"5","name":"A","tickers":["A","A-P"],"exchanges":["NYSE",""]}');
    expect(s.exchanges).toEqual(['NYSE', null]);
    expect(s.country).toBeNull();
  });
});

describe('parseRecentFilings', () => {
  it('zips the column arrays of the real files', () => {
    const msft = parseRecentFilings(read('CIK0000789019.json'));
    expect(msft).toHaveLength(1010);
    expect(msft[0]).toEqual({
      accessionNumber: '0000950170-25-100235',
      filingDate: '2025-07-30',
      reportDate: '2025-06-30',
      acceptanceDateTime: '2025-07-30T20:11:40.000Z',
      act: '34',
      form: '10-K',
      fileNumber: '001-37845',
      filmNumber: '251167157',
      items: null,
      coreType: 'XBRL',
      size: 34889671,
      isXBRL: true,
      isInlineXBRL: true,
      primaryDocument: 'msft-20250630.htm',
      primaryDocDescription: '10-K',
    });
    expect(parseRecentFilings(read('CIK0000717423.json'))).toHaveLength(1005);
    expect(parseRecentFilings(read('CIK0001318605.json'))).toHaveLength(1001);
  });
});

describe('submissionsPath', () => {
  it('zero-pads the CIK', () => {
    expect(submissionsPath('789019')).toBe('/submissions/CIK0000789019.json');
    expect(submissionsPath('0000717423')).toBe('/submissions/CIK0000717423.json');
  });
});
