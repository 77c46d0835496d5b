/**
 * Q4 = annual − nine-month year-to-date, for the same metric, member and fiscal year start. A 10-K
 * reports the annual figure and the 10-Q of the third quarter the nine months: the difference is a
 * derived fourth quarter, never a reported one, so it carries the tier `derived_q4`.
 */

export interface PeriodValue {
  start_date: string;
  end_date: string;
  value: number;
}

export interface DerivedQ4 {
  start_date: string;
  end_date: string;
  value: number;
}

const DAY = 86_400_000;
const utc = (d: string) => Date.parse(`${d}T00:00:00Z`);
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The derived Q4, or null unless `annual` is a ~12-month and `nineMonths` a ~9-month duration that
 * both start on the same day. Exact in integers (reported values carry whole units of currency);
 * the quarter runs from the day after the nine months end to the annual end date.
 */
export function deriveQ4(annual: PeriodValue, nineMonths: PeriodValue): DerivedQ4 | null {
  if (annual.start_date !== nineMonths.start_date) return null;
  const annualDays = (utc(annual.end_date) - utc(annual.start_date)) / DAY + 1;
  const ytdDays = (utc(nineMonths.end_date) - utc(nineMonths.start_date)) / DAY + 1;
  if (annualDays < 350 || annualDays > 380 || ytdDays < 255 || ytdDays > 285) return null;
  if (nineMonths.end_date >= annual.end_date) return null;
  // Subtract at the precision of the inputs: both have at most `decimals` fraction digits.
  const places = Math.max(fractionDigits(annual.value), fractionDigits(nineMonths.value));
  const f = 10 ** places;
  const value = (Math.round(annual.value * f) - Math.round(nineMonths.value * f)) / f;
  return { start_date: iso(utc(nineMonths.end_date) + DAY), end_date: annual.end_date, value };
}

function fractionDigits(n: number): number {
  const s = String(n);
  const i = s.indexOf('.');
  return i < 0 || s.includes('e') ? 0 : s.length - i - 1;
}
