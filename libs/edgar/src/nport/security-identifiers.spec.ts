import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseNport } from './nport.parser';
import { cusipCheckDigit, isValidCusip, isValidIsin, securityIsinOf, usIsinOfCusip } from './security-identifiers';

const FIXTURES = process.env.FIXTURES_DIR ?? resolve(__dirname, '../../../../../shared/fixtures');
const adx = parseNport(readFileSync(join(FIXTURES, 'nport/ADX-CIK0000002230-primary_doc.xml'))).holdings;
const gs = parseNport(readFileSync(join(FIXTURES, 'nport/GSTRUST-S000013795-NPORT_Sample_7.xml'))).holdings;

describe('CUSIP and ISIN check digits', () => {
  it("derives Microsoft's ISIN US5949181045 from the CUSIP ADX files (594918104)", () => {
    const msft = adx.find((h) => h.ticker === 'MSFT')!;
    expect(msft.cusip).toBe('594918104');
    expect(cusipCheckDigit('59491810')).toBe(4);
    expect(usIsinOfCusip(msft.cusip!)).toBe('US5949181045');
    expect(securityIsinOf(msft)).toEqual({ isin: 'US5949181045', from: 'cusip' });
  });

  it('agrees with every ISIN the GS Bond Fund files next to a US CUSIP (the filer computed them, not us)', () => {
    const pairs = gs.filter((h) => h.isin?.startsWith('US') && h.cusip && /^\d/.test(h.cusip) && h.cusip !== '000000000');
    expect(pairs.length).toBeGreaterThan(100);
    // One holding files a placeholder CUSIP of zeros next to ISIN USG6108MAB84 (a CINS number): the filed ISIN is taken as is.
    const zero = gs.find((h) => h.cusip === '000000000' && h.isin === 'USG6108MAB84')!;
    expect(securityIsinOf(zero)).toEqual({ isin: 'USG6108MAB84', from: 'filed' });
    expect(usIsinOfCusip('000000000')).toBeNull();
    for (const h of pairs) expect([h.cusip, usIsinOfCusip(h.cusip!)]).toEqual([h.cusip, h.isin]);
    // Every filed ISIN's own check digit holds, foreign ones (XS..., GB...) included.
    const filed = gs.filter((h) => h.isin !== null).map((h) => h.isin!);
    expect(filed.filter((i) => !isValidIsin(i))).toEqual([]);
  });

  it("takes the filing's own ISIN first, and refuses what it cannot check", () => {
    const bond = gs.find((h) => h.cusip === '037833EK2')!;
    expect(securityIsinOf(bond)).toEqual({ isin: 'US037833EK23', from: 'filed' });
    // A wrong check digit (one character changed) is not a CUSIP; a placeholder of zeros neither.
    expect(isValidCusip('594918105')).toBe(false);
    expect(isValidCusip('000000000')).toBe(false);
    expect(securityIsinOf({ isin: null, cusip: '594918105', invCountry: 'US' })).toBeNull();
    // Not said to be a US security: no US prefix is assumed.
    expect(securityIsinOf({ isin: null, cusip: '594918104', invCountry: null })).toBeNull();
    expect(securityIsinOf({ isin: null, cusip: '594918104', invCountry: 'CA' })).toBeNull();
  });

  it('gives an ISIN for every US common stock ADX holds with a CUSIP, except the two CINS numbers of Irish issuers', () => {
    const us = adx.filter((h) => h.assetCat === 'EC' && h.invCountry === 'US' && h.cusip !== null);
    expect(us).toHaveLength(88);
    const refused = us.filter((h) => securityIsinOf(h) === null);
    // Allegion plc and Willis Towers Watson file CINS numbers (a letter first, G = Ireland/UK...): their ISINs are not US + CUSIP.
    expect(refused.map((h) => [h.name, h.cusip])).toEqual([
      ['Allegion plc', 'G0176J109'],
      ['Willis Towers Watson International, Inc.', 'G96629103'],
    ]);
    const derived = us.filter((h) => !refused.includes(h)).map((h) => securityIsinOf(h)!);
    expect(derived.every((d) => d.from === 'cusip' && isValidIsin(d.isin))).toBe(true);
  });
});
