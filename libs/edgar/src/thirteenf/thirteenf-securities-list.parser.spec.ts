import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultFixturesDir } from '@app/testing';
import { EdgarParseError } from '../edgar.parse-error';
import { isValidCusip } from '../nport/security-identifiers';
import { parseThirteenFSecuritiesList } from './thirteenf-securities-list.parser';
import type { ThirteenFListedSecurity } from './thirteenf.types';

const read = (file: string): Buffer => readFileSync(join(defaultFixturesDir(), '13f', file));

describe('parseThirteenFSecuritiesList: SEC-13flist2020q3.pdf (541 pages)', () => {
  let rows: ThirteenFListedSecurity[];
  beforeAll(async () => {
    rows = await parseThirteenFSecuritiesList(read('SEC-13flist2020q3.pdf'));
  }, 120_000);

  it('reads every row: 18,298, as the last page\'s "Total Count: 18,298" says (and the count of CUSIP-shaped lines in the text)', () => {
    expect(rows).toHaveLength(18298);
    expect(rows[0]).toEqual({ cusip: 'B38564108', hasOptions: true, issuer: 'EURONAV NV', description: 'SHS', status: null });
    expect(rows.at(-1)).toEqual({ cusip: '98986X959', hasOptions: false, issuer: 'ZYNERBA PHARMACEUTICALS INC', description: 'PUT', status: null });
  });

  it('known rows: Apple with its options, additions and deletions', () => {
    const byCusip = new Map(rows.map((r) => [r.cusip, r]));
    expect(byCusip.get('037833100')).toEqual({ cusip: '037833100', hasOptions: true, issuer: 'APPLE INC', description: 'COM', status: null });
    expect(byCusip.get('037833900')).toMatchObject({ issuer: 'APPLE INC', description: 'CALL', hasOptions: false });
    expect(byCusip.get('037833950')).toMatchObject({ issuer: 'APPLE INC', description: 'PUT', hasOptions: false });
    expect(byCusip.get('C15396AB7')).toEqual({ cusip: 'C15396AB7', hasOptions: false, issuer: 'CANADIAN SOLAR INC', description: 'DEBT 2.500%10/0', status: 'ADDED' });
    expect(byCusip.get('G0335L201')).toEqual({ cusip: 'G0335L201', hasOptions: true, issuer: 'AMIRA NATURE FOODS LTD', description: 'SHS NEW', status: 'DELETED' });
    // As many as the text's "ADDED" / "DELETED" in the status column (640 and 538).
    expect(rows.filter((r) => r.status === 'ADDED')).toHaveLength(640);
    expect(rows.filter((r) => r.status === 'DELETED')).toHaveLength(538);
    expect(rows.every((r) => r.status === null || r.status === 'ADDED' || r.status === 'DELETED')).toBe(true);
  });

  it('every asterisked security is followed by its CALL and PUT rows', () => {
    rows.forEach((r, i) => {
      if (!r.hasOptions) return;
      expect([rows[i + 1]?.description, rows[i + 2]?.description]).toEqual(['CALL', 'PUT']);
      expect(rows[i + 1]!.cusip.slice(0, 6)).toBe(r.cusip.slice(0, 6));
    });
    const optioned = rows.filter((r) => r.hasOptions).length;
    expect(optioned).toBe(4582);
    expect(rows.filter((r) => r.description === 'CALL')).toHaveLength(optioned);
  });

  it('every CUSIP has 9 characters; all but option rows carry a valid check digit; option rows repeat their security\'s', () => {
    expect(rows.every((r) => /^[0-9A-Z]{9}$/.test(r.cusip))).toBe(true);
    const invalid = rows.map((r, i) => ({ r, i })).filter(({ r }) => !isValidCusip(r.cusip));
    // The list prints an option's CUSIP (issue 90 call, 95 put) with the check digit of the
    // optioned security: 9,017 of the 9,164 option rows fail the check (the rest match by chance).
    expect(invalid).toHaveLength(9017);
    for (const { r, i } of invalid) {
      expect(r.description === 'CALL' || r.description === 'PUT').toBe(true);
      const security = rows.slice(Math.max(0, i - 2), i).reverse().find((s) => s.hasOptions);
      expect(security?.cusip[8]).toBe(r.cusip[8]);
    }
  });

  it('throws EdgarParseError for bytes that are not the list', async () => {
    await expect(parseThirteenFSecuritiesList(read('SEC-Sample_13F-NT.xml'))).rejects.toThrow(EdgarParseError);
  });
});
