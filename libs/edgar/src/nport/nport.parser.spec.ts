import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { EdgarParseError } from '../edgar.parse-error';
import { HoldingMatcher, cusipOfIsin, normalizeIssuerName } from './nport.matcher';
import { NportStreamParser, feedNport, nportPrimaryDocPath, parseNport } from './nport.parser';
import type { NportHolding } from './nport.types';

const FIXTURES = process.env.FIXTURES_DIR ?? resolve(__dirname, '../../../../../shared/fixtures');
const adxBytes = readFileSync(join(FIXTURES, 'nport/ADX-CIK0000002230-primary_doc.xml'));
const gsBytes = readFileSync(join(FIXTURES, 'nport/GSTRUST-S000013795-NPORT_Sample_7.xml'));

// Values below were read from the XML files by eye (ADX lines 2122-2146, GS lines 38929-38962).
describe('NPORT-P parser on ADX (Adams Diversified Equity Fund, 2023-06-30)', () => {
  const { fund, holdings } = parseNport(adxBytes);

  it('reads the fund header', () => {
    expect(fund).toEqual({
      submissionType: 'NPORT-P',
      registrantCik: '0000002230',
      registrantName: 'Adams Diversified Equity Fund, Inc.',
      registrantLei: '5493005W7G81BNPP7M23',
      seriesId: null,
      seriesName: null,
      seriesLei: null,
      classIds: [],
      classTickers: {},
      reportPeriodEnd: '2023-12-31',
      reportDate: '2023-06-30',
      totalAssets: 2431892306,
      netAssets: 2415114408,
    });
  });

  it('reads all 95 holdings', () => {
    expect(holdings).toHaveLength(95);
    expect(holdings.map((h) => h.index)).toEqual([...Array(95).keys()]);
  });

  it("reads the Microsoft holding exactly", () => {
    const msft = holdings.find((h) => h.cusip === '594918104');
    expect(msft).toEqual<Omit<NportHolding, 'index'> & { index: number }>({
      index: expect.any(Number) as number,
      name: 'Microsoft Corporation',
      title: 'Microsoft Corporation',
      lei: 'INR2EJN1ERAN0W5ZP974',
      cusip: '594918104',
      isin: null,
      ticker: 'MSFT',
      otherIds: [],
      balance: 517700,
      units: 'NS',
      curCd: 'USD',
      valUsd: 176297558,
      pctVal: 7.2998,
      payoffProfile: 'Long',
      assetCat: 'EC',
      assetConditional: null,
      issuerCat: 'CORP',
      issuerConditional: null,
      invCountry: 'US',
      fairValLevel: '1',
      isRestricted: false,
      quote: '<name>Microsoft Corporation</name>',
      leiQuote: '<name>Microsoft Corporation</name>\n        <lei>INR2EJN1ERAN0W5ZP974</lei>',
      cusipQuote:
        '<name>Microsoft Corporation</name>\n        <lei>INR2EJN1ERAN0W5ZP974</lei>\n        <title>Microsoft Corporation</title>\n        <cusip>594918104</cusip>',
      isinQuote: null,
    });
    for (const q of [msft!.quote, msft!.leiQuote, msft!.cusipQuote]) expect(adxBytes.toString('utf8')).toContain(q);
  });

  it('reads Apple (7.6661 %) and the assetConditional of the affiliated LLC', () => {
    expect(holdings.find((h) => h.ticker === 'AAPL')).toMatchObject({ name: 'Apple Inc.', pctVal: 7.6661, assetCat: 'EC' });
    const afa = holdings.find((h) => h.ticker === 'AFA');
    expect(afa).toMatchObject({ balance: 1, units: 'OU', valUsd: 466000, pctVal: 0.0193, assetCat: null, assetConditional: { assetCat: 'OTHER', description: 'Affiliated LLC' }, fairValLevel: '3' });
    expect(holdings.filter((h) => h.assetCat === 'EC')).toHaveLength(92);
  });
});

describe('NPORT-P parser on the Goldman Sachs Bond Fund (S000013795, 2023-03-31)', () => {
  const { fund, holdings } = parseNport(gsBytes);

  it('reads the series, its classes and net assets', () => {
    expect(fund).toMatchObject({
      registrantCik: '0000822977',
      registrantName: 'GOLDMAN SACHS TRUST',
      seriesId: 'S000013795',
      seriesName: 'Goldman Sachs Bond Fund',
      seriesLei: 'K5ZYN8ZUQE8S5OUPBU26',
      reportDate: '2023-03-31',
      netAssets: 361898455.93,
      classIds: ['C000037818', 'C000037819', 'C000058985', 'C000041010', 'C000058984', 'C000037820', 'C000202041', 'C000161293'],
    });
  });

  it('reads all 1,685 holdings, only direct children of each invstOrSec', () => {
    expect(holdings).toHaveLength(1685);
    expect(holdings.filter((h) => h.assetCat === 'DBT')).toHaveLength(603);
    expect(holdings.filter((h) => h.assetCat === 'EC')).toHaveLength(2);
  });

  it('reads an APPLE INC bond', () => {
    const apple = holdings.find((h) => h.cusip === '037833EK2');
    expect(apple).toMatchObject({
      name: 'APPLE INC',
      title: 'Apple Inc',
      lei: 'HWUPKR0MPOU8FGXBT394',
      isin: 'US037833EK23',
      balance: 75000,
      units: 'PA',
      curCd: 'USD',
      valUsd: 52817.25,
      pctVal: 0.014594494431,
      assetCat: 'DBT',
      issuerCat: 'CORP',
      fairValLevel: '2',
      isRestricted: false,
      isinQuote:
        '<name>APPLE INC</name>\n        <lei>HWUPKR0MPOU8FGXBT394</lei>\n        <title>Apple Inc</title>\n        <cusip>037833EK2</cusip>\n        <identifiers>\n          <isin value="US037833EK23"/>',
    });
    expect(gsBytes.toString('utf8')).toContain(apple!.isinQuote);
  });

  it('decodes entities but quotes them as filed; reads other identifiers and the issuerConditional', () => {
    const fx = holdings.find((h) => h.otherIds.some((o) => o.value === '23CVKBBWRW2'));
    expect(fx).toMatchObject({ name: 'MORGAN STANLEY & CO. LLC', quote: '<name>MORGAN STANLEY &amp; CO. LLC</name>', otherIds: [{ value: '23CVKBBWRW2', description: 'Trade Identifier' }] });
    expect(gsBytes.toString('utf8')).toContain(fx!.quote);
    expect(holdings.filter((h) => h.issuerConditional?.description === 'REIT')).toHaveLength(27);
  });

  it('gives the same holdings whatever the chunk size (split multi-byte characters included)', () => {
    const small: NportHolding[] = [];
    feedNport(gsBytes, { onHolding: (h) => small.push(h) }, 997);
    expect(small).toEqual(holdings);
  });
});

describe('NPORT-P parser: liberal input', () => {
  const doc = (body: string) =>
    Buffer.from(`\n  \t<?xml version="1.0" encoding="UTF-8"?>\n<nport:edgarSubmission xmlns:nport="http://www.sec.gov/edgar/nport"><nport:formData><nport:genInfo><nport:regName>Ünïcode Fund</nport:regName><nport:regCik>123</nport:regCik><nport:repPdDate>2024-01-31</nport:repPdDate></nport:genInfo>${body}</nport:formData></nport:edgarSubmission>`);

  it('accepts whitespace before <?xml, namespace prefixes and zero holdings', () => {
    const seen: string[] = [];
    const summary = feedNport(doc('<nport:invstOrSecs></nport:invstOrSecs>'), { onFund: () => seen.push('fund'), onHolding: () => seen.push('holding') }, 7);
    expect(seen).toEqual(['fund']);
    expect(summary).toMatchObject({ holdingCount: 0, fund: { registrantName: 'Ünïcode Fund', registrantCik: '0000000123', reportDate: '2024-01-31' } });
  });

  it('accepts a holding with only a name, and quotes it with its prefix', () => {
    const { holdings } = parseNport(doc('<nport:invstOrSecs><nport:invstOrSec><nport:name>X</nport:name></nport:invstOrSec></nport:invstOrSecs>'));
    expect(holdings).toHaveLength(1);
    expect(holdings[0]).toMatchObject({ name: 'X', cusip: null, balance: null, isRestricted: null, quote: '<nport:name>X</nport:name>' });
  });

  it('refuses what is not an N-PORT document', () => {
    expect(() => parseNport(Buffer.from('<html><body>nope</body></html>'))).toThrow(EdgarParseError);
    expect(() => new NportStreamParser({ onHolding: () => undefined }).end()).toThrow(EdgarParseError);
  });

  it('builds the archive path', () => {
    expect(nportPrimaryDocPath('0000002230', '0000002230-23-000034')).toBe('/Archives/edgar/data/2230/000000223023000034/primary_doc.xml');
  });
});

describe('HoldingMatcher', () => {
  const matcher = new HoldingMatcher([
    { cik: '0000789019', ticker: 'MSFT', name: 'MICROSOFT CORP' },
    { cik: '0000320193', ticker: 'AAPL', name: 'Apple Inc.' },
    { cik: '0001652044', ticker: 'GOOGL', name: 'Alphabet Inc.' },
    { cik: '0001652044', ticker: 'GOOG', name: 'Alphabet Inc.' },
    { cik: '0000000001', ticker: 'DUPA', name: 'Dup Co' },
    { cik: '0000000002', ticker: 'DUPB', name: 'DUP Corporation' },
    { cik: '0000000003', ticker: 'LEIC', name: 'Lei Holder', lei: 'LEI0000000000000000X' },
  ], new Map([['037833', '0000320193']]));
  const none = { isin: null, cusip: null, lei: null, ticker: null, name: null, invCountry: null };

  it('normalizes issuer names', () => {
    expect(normalizeIssuerName('Microsoft Corporation')).toBe('MICROSOFT');
    expect(normalizeIssuerName('MICROSOFT CORP')).toBe('MICROSOFT');
    expect(normalizeIssuerName('Alphabet Inc. Class A')).toBe('ALPHABET');
    expect(normalizeIssuerName('COSTCO WHOLESALE CORP /NEW')).toBe('COSTCO WHOLESALE');
    expect(normalizeIssuerName('JOHNSON & JOHNSON')).toBe('JOHNSON AND JOHNSON');
    expect(cusipOfIsin('US037833EK23')).toBe('037833EK2');
    expect(cusipOfIsin('GB0002374006')).toBeNull();
  });

  it('matches by ticker, LEI, ISIN/CUSIP through a CUSIP map, and name; records the method', () => {
    expect(matcher.match({ ...none, ticker: 'MSFT', name: 'Microsoft Corporation', invCountry: 'US' })).toEqual({ cik: '0000789019', symbol: 'MSFT:US', method: 'ticker', confidence: 0.9 });
    expect(matcher.match({ ...none, isin: 'US037833EK23', name: 'APPLE INC' })).toMatchObject({ cik: '0000320193', symbol: 'AAPL:US', method: 'isin', confidence: 1 });
    expect(matcher.match({ ...none, cusip: '037833EF3' })).toMatchObject({ method: 'cusip' });
    expect(matcher.match({ ...none, lei: 'LEI0000000000000000X' })).toMatchObject({ cik: '0000000003', method: 'lei' });
    expect(matcher.match({ ...none, name: 'Alphabet Inc. Class C' })).toMatchObject({ cik: '0001652044', symbol: 'GOOGL:US', method: 'name', confidence: 0.75 });
  });

  it('leaves ambiguous names, foreign tickers and unknowns unmatched', () => {
    expect(matcher.match({ ...none, name: 'Dup Company' })).toBeNull();
    expect(matcher.match({ ...none, ticker: 'MSFT', isin: 'GB0000000000' })).toBeNull();
    expect(matcher.match({ ...none, name: 'Nobody Ltd' })).toBeNull();
    expect(matcher.match({ ...none, cusip: '000000000' })).toBeNull();
  });
});
