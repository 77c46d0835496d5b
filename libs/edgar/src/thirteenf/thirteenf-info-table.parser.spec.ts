import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultFixturesDir } from '@app/testing';
import { EdgarParseError } from '../edgar.parse-error';
import { parseThirteenFInfoTable } from './thirteenf-info-table.parser';
import type { ThirteenFHolding } from './thirteenf.types';

const read = (file: string): string => readFileSync(join(defaultFixturesDir(), '13f', file), 'utf8');
const BARD = read('BARD-0001850858-21-000004-bard13fq32021.xml');
const withoutQuote = ({ quote: _q, ...rest }: ThirteenFHolding) => rest;

/** The `ns1:` prefix dropped everywhere (the namespace made the default). */
const unprefixed = (xml: string) => xml.replace(/<(\/?)ns1:/g, '<$1').replace('xmlns:ns1=', 'xmlns=');

describe('parseThirteenFInfoTable', () => {
  const holdings = parseThirteenFInfoTable(BARD);

  it('BARD: 278 rows in order, all fields; foreign CUSIPs and ISINs inside the issuer name kept as filed', () => {
    expect(holdings).toHaveLength(278);
    expect(holdings.map((h) => h.index)).toEqual([...Array(278).keys()]);
    expect(holdings.find((h) => h.cusip === 'Q3394D101')).toBeDefined();
    expect(holdings.find((h) => h.issuer === '88 ENERGY LTD SHS ISIN#AU00000088E2')).toBeDefined();
    // otherManager 0 on every row means none.
    expect(holdings.every((h) => h.otherManagers.length === 0)).toBe(true);
    expect(withoutQuote(holdings[0]!)).toEqual({
      index: 0,
      issuer: '3M CO COM',
      classTitle: 'COM',
      cusip: '88579Y101',
      figi: null,
      valueFiled: 584,
      shares: 3326,
      shareType: 'SH',
      putCall: null,
      discretion: 'SOLE',
      otherManagers: [],
      votingSole: 0,
      votingShared: 0,
      votingNone: 3326,
    });
  });

  it('quote: each <infoTable> element exactly as written, the quotes following each other through the file', () => {
    let from = 0;
    for (const h of holdings) {
      expect(h.quote).toMatch(/^<ns1:infoTable>[\s\S]*<\/ns1:infoTable>$/);
      const at = BARD.indexOf(h.quote, from);
      expect(at).toBeGreaterThanOrEqual(from);
      from = at + h.quote.length;
      expect(h.quote).toContain(`<ns1:cusip>${h.cusip}</ns1:cusip>`);
    }
  });

  it('unprefixed tables read the same', () => {
    const plain = parseThirteenFInfoTable(unprefixed(BARD));
    expect(plain.map(withoutQuote)).toEqual(holdings.map(withoutQuote));
    expect(plain[0]!.quote).toMatch(/^<infoTable>/);
  });

  it('puts, calls, lower-case CUSIPs, entities and other managers as "1,2" or repeated (ACTIAM rows rewritten)', () => {
    const actiam = read('ACTIAM-0001619124-21-000002.txt');
    const table = actiam.slice(actiam.indexOf('<ns1:informationTable'), actiam.indexOf('</ns1:informationTable>') + '</ns1:informationTable>'.length);
    const rows = table.split('</ns1:infoTable>');
    // Row 0: a put with managers "1,2"; row 1: a call, managers repeated; row 2: its CUSIP in lower case and an escaped name.
    rows[0] = rows[0]!.replace('</ns1:shrsOrPrnAmt>', '</ns1:shrsOrPrnAmt><ns1:putCall>Put</ns1:putCall>').replace('</ns1:investmentDiscretion>', '</ns1:investmentDiscretion><ns1:otherManager>1,2</ns1:otherManager>');
    rows[1] = rows[1]!.replace('</ns1:shrsOrPrnAmt>', '</ns1:shrsOrPrnAmt><ns1:putCall>CALL</ns1:putCall>').replace('</ns1:investmentDiscretion>', '</ns1:investmentDiscretion><ns1:otherManager>2</ns1:otherManager><ns1:otherManager>3</ns1:otherManager>');
    rows[2] = rows[2]!.replace(/<ns1:cusip>([^<]*)</, (_m, c: string) => `<ns1:cusip>${c.toLowerCase()}<`).replace(/<ns1:nameOfIssuer>([^<]*)</, '<ns1:nameOfIssuer>$1 &amp; CO<');
    const parsed = parseThirteenFInfoTable(rows.join('</ns1:infoTable>'));
    expect(parsed.map((h) => [h.putCall, h.otherManagers])).toEqual([['put', [1, 2]], ['call', [2, 3]], [null, []], [null, []], [null, []]]);
    const original = parseThirteenFInfoTable(table);
    expect(parsed[2]!.cusip).toBe(original[2]!.cusip);
    expect(parsed[2]!.issuer).toBe(`${original[2]!.issuer} & CO`);
    expect(parsed[0]!.quote).toContain('<ns1:putCall>Put</ns1:putCall>');
  });

  it('other managers as a range "1-3", values with an exponent (BARD rows rewritten)', () => {
    const rows = BARD.split('</ns1:infoTable>');
    rows[0] = rows[0]!.replace(/<ns1:otherManager>0<\/ns1:otherManager>/, '<ns1:otherManager>1-3, 5</ns1:otherManager>');
    rows[1] = rows[1]!.replace(/<ns1:value>(\d+)<\/ns1:value>/, (_m, v: string) => `<ns1:value>${Number(v) / 1000}E+3</ns1:value>`);
    const parsed = parseThirteenFInfoTable(rows.join('</ns1:infoTable>'));
    expect(parsed[0]!.otherManagers).toEqual([1, 2, 3, 5]);
    expect(parsed[1]!.valueFiled).toBe(holdings[1]!.valueFiled);
  });

  it('throws EdgarParseError for another document or a row without its numbers', () => {
    expect(() => parseThirteenFInfoTable(read('BARD-0001850858-21-000004-primary_doc.xml'))).toThrow(EdgarParseError);
    expect(() => parseThirteenFInfoTable(BARD.replace(/<ns1:value>\d+<\/ns1:value>/, '<ns1:value>n/a</ns1:value>'))).toThrow(/infoTable 0: value/);
    expect(() => parseThirteenFInfoTable(BARD.replace(/<ns1:sshPrnamtType>SH</, '<ns1:sshPrnamtType>XX<'))).toThrow(/sshPrnamtType is XX/);
  });
});
