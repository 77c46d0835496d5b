/**
 * Periods of segment facts, always from the context's dates.
 *
 * - `kind`: `instant` (an instant context); `quarter` for a 75..105-day duration; `ytd` for a
 *   165..195-day (six months) or 255..285-day (nine months) duration; `annual` for 350..380 days;
 *   `other` for anything else (kept, never called a quarter).
 * - `calendar`: `<year>-Q<n>`, the calendar quarter holding end_date − 45 days, i.e. the middle of
 *   the last three months of the period. Fiscal quarters that end a few weeks into a calendar
 *   quarter (NVIDIA's 2025-07-27) are thereby called by the quarter most of their days fall in
 *   (2025-Q2), and quarters ending on a calendar quarter end keep it (2025-06-30 -> 2025-Q2).
 * - `fiscal`: `FY<year>-Q<n>` (`-YTD` appended for year-to-date, bare `FY<year>` for annual). The
 *   quarter index is the number of ~91-day quarters from the fiscal year start to end_date; the
 *   fiscal year start is one year before the fiscal year end the period falls in (from
 *   dei:CurrentFiscalYearEndDate, ±10 days of slack for 52/53-week years). The year number is
 *   anchored to the filer's own naming: dei:DocumentFiscalYearFocus names the fiscal year of
 *   dei:DocumentPeriodEndDate, and other periods are counted from there.
 */

export type PeriodKind = 'quarter' | 'ytd' | 'annual' | 'instant' | 'other';

export interface ContextPeriod {
  /** YYYY-MM-DD, null for instants. XBRL end dates are inclusive as SEC filers write them. */
  startDate: string | null;
  /** YYYY-MM-DD: the end date of a duration, or the instant. */
  endDate: string;
}

export interface FiscalCalendar {
  /** Month and day of the fiscal year end (`--09-27` -> [9, 27]). */
  yearEnd: { month: number; day: number } | null;
  /** dei:DocumentFiscalYearFocus. */
  documentFiscalYear: number | null;
  /** dei:DocumentPeriodEndDate. */
  documentPeriodEnd: string | null;
}

const DAY = 86_400_000;

export function toUtc(date: string): number {
  return Date.parse(`${date}T00:00:00Z`);
}

export function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Days covered by a duration, both ends inclusive. */
export function durationDays(p: ContextPeriod): number | null {
  if (!p.startDate) return null;
  return Math.round((toUtc(p.endDate) - toUtc(p.startDate)) / DAY) + 1;
}

export function periodKind(p: ContextPeriod): PeriodKind {
  const days = durationDays(p);
  if (days === null) return 'instant';
  if (days >= 75 && days <= 105) return 'quarter';
  if ((days >= 165 && days <= 195) || (days >= 255 && days <= 285)) return 'ytd';
  if (days >= 350 && days <= 380) return 'annual';
  return 'other';
}

export function calendarQuarter(endDate: string): string {
  const d = new Date(toUtc(endDate) - 45 * DAY);
  return `${d.getUTCFullYear()}-Q${Math.floor(d.getUTCMonth() / 3) + 1}`;
}

/** Reads dei:CurrentFiscalYearEndDate in its printed forms: `--09-27`, `12-31`, `1/25`, `--12-31`. */
export function parseFiscalYearEnd(text: string | null | undefined): { month: number; day: number } | null {
  if (!text) return null;
  const m = /^\s*(?:--)?(\d{1,2})[-/](\d{1,2})\s*$/.exec(text);
  if (!m) return null;
  const month = Number(m[1]);
  const day = Number(m[2]);
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  return { month, day };
}

/** The calendar year in which the fiscal year holding `date` ends (slack for 52/53-week years). */
function fiscalYearEndYear(date: string, yearEnd: { month: number; day: number }): number {
  const t = toUtc(date);
  const year = new Date(t).getUTCFullYear();
  for (const y of [year - 1, year, year + 1]) {
    const fye = Date.UTC(y, yearEnd.month - 1, yearEnd.day);
    if (t <= fye + 10 * DAY) return y;
  }
  return year + 1;
}

/** Fiscal label of a period (see the file comment), or null when the filer's calendar is unknown. */
export function fiscalLabel(p: ContextPeriod, kind: PeriodKind, cal: FiscalCalendar): string | null {
  if (!cal.yearEnd) return null;
  const endYear = fiscalYearEndYear(p.endDate, cal.yearEnd);
  let offset = 0;
  if (cal.documentFiscalYear !== null && cal.documentPeriodEnd) {
    offset = cal.documentFiscalYear - fiscalYearEndYear(cal.documentPeriodEnd, cal.yearEnd);
  }
  const fy = endYear + offset;
  if (kind === 'annual') return `FY${fy}`;
  const fyStart = Date.UTC(endYear - 1, cal.yearEnd.month - 1, cal.yearEnd.day) + DAY;
  const q = Math.min(4, Math.max(1, Math.round((toUtc(p.endDate) - fyStart + DAY) / (91.3 * DAY))));
  if (kind === 'ytd') return `FY${fy}-Q${q}-YTD`;
  return `FY${fy}-Q${q}`;
}
