import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultFixturesDir } from '@app/testing';
import { fundExposureAsOfGaps, percentToFraction } from './fund-exposure.resource';

/** The fraction a decimal text names, parsed from its own digits with the point moved two places left. */
function shiftedByHand(text: string): number {
  const [, sign = '', int = '', frac = ''] = /^(-?)(\d*)(?:\.(\d*))?$/.exec(text)!;
  const digits = int.padStart(3, '0') + frac;
  const point = digits.length - frac.length - 2;
  return Number(`${sign}${digits.slice(0, point)}.${digits.slice(point)}`);
}

describe('percentToFraction', () => {
  it('divides every pctVal of the real N-PORT filings by 100 without binary rounding', () => {
    const dir = join(defaultFixturesDir(), 'nport');
    const values = ['ADX-CIK0000002230-primary_doc.xml', 'GSTRUST-S000013795-NPORT_Sample_7.xml'].flatMap((file) =>
      [...readFileSync(join(dir, file), 'utf8').matchAll(/<pctVal>([^<]+)<\/pctVal>/g)].map((m) => m[1]!),
    );
    expect(values.length).toBeGreaterThan(100);
    for (const v of values) expect(percentToFraction(v)).toBe(shiftedByHand(v));
    // Where dividing the parsed double by 100 rounds twice and misses.
    expect(percentToFraction('7.2998')).toBe(0.072998);
    expect(7.2998 / 100).not.toBe(0.072998);
  });

  it('reads what Postgres numeric text can also be', () => {
    expect(percentToFraction(' 7.5 ')).toBe(0.075);
    expect(Object.is(percentToFraction('-0.0000'), -0)).toBe(true);
    expect(percentToFraction('NaN')).toBeNaN();
    expect(percentToFraction('Infinity')).toBe(Infinity);
  });
});

describe('fundExposureAsOfGaps', () => {
  it('says only the latest report is kept, and counts the funds left out by reason', () => {
    const gaps = fundExposureAsOfGaps('2023-08-24', { funds: 0, replaced: 1, undated: 2 });
    expect(gaps[0]!.code).toBe('as_of_rule');
    expect(gaps[0]!.detail).toMatch(/^as_of 2023-08-24: each fund's latest N-PORT report filed on or before the day, but only each fund's latest report is kept/);
    expect(gaps.slice(1)).toEqual([
      { code: 'as_of_report_not_kept', detail: 'as_of 2023-08-24: 1 fund left out: their latest report came after the day and the one before it is not kept' },
      {
        code: 'as_of_report_undated',
        detail: "as_of 2023-08-24: 2 funds left out: N-PORT records carry no filing date, and the filings read model does not hold their report's accession",
      },
    ]);
    expect(fundExposureAsOfGaps('2023-08-25', { funds: 1, replaced: 0, undated: 0 })).toHaveLength(1);
  });
});
