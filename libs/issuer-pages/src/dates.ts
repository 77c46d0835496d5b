/**
 * Dates printed on IR pages. Only a full date (day, month and year) becomes a date: "September 2017"
 * names a month, not a day, so it yields null rather than an invented first of the month.
 * Numeric dates are read US-style (M/D/YYYY), as the US issuers' pages print them.
 */

const MONTHS: Record<string, number> = {
  jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, sept: 9, oct: 10, nov: 11, dec: 12,
};
const MONTH_NAME = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';

const NUMERIC = /(?<![\d/])(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})(?![\d/])/;
const ISO = /(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)/;
const MONTH_DAY_YEAR = new RegExp(`\\b${MONTH_NAME}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'i');
const DAY_MONTH_YEAR = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+${MONTH_NAME},?\\s+(\\d{4})\\b`, 'i');

export interface FoundDate {
  /** YYYY-MM-DD */
  date: string;
  /** The date as printed. */
  text: string;
  index: number;
}

/** Years before this are misreadings (Date.UTC maps 0-99 to 1900-1999; Postgres has no year 0). */
const MIN_YEAR = 1900;

function iso(year: number, month: number, day: number): string | null {
  if (year < MIN_YEAR) return null;
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCMonth() !== month - 1) return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

function monthNumber(name: string): number {
  return MONTHS[name.toLowerCase().replace(/\.$/, '').slice(0, name.toLowerCase().startsWith('sept') ? 4 : 3)] ?? 0;
}

/** Every full date in `text`, in order of appearance. */
export function findDates(text: string): FoundDate[] {
  const found: FoundDate[] = [];
  const scan = (pattern: RegExp, toDate: (m: RegExpExecArray) => string | null) => {
    const global = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
    for (let m = global.exec(text); m; m = global.exec(text)) {
      const date = toDate(m);
      if (date) found.push({ date, text: m[0], index: m.index });
    }
  };
  scan(ISO, (m) => iso(Number(m[1]), Number(m[2]), Number(m[3])));
  scan(NUMERIC, (m) => {
    const year = m[3]!.length === 2 ? 2000 + Number(m[3]) : Number(m[3]);
    return iso(year, Number(m[1]), Number(m[2]));
  });
  scan(MONTH_DAY_YEAR, (m) => iso(Number(m[3]), monthNumber(m[1]!), Number(m[2])));
  scan(DAY_MONTH_YEAR, (m) => iso(Number(m[3]), monthNumber(m[2]!), Number(m[1])));
  // Overlapping matches (an ISO date also read as numeric) keep the earliest, longest one.
  found.sort((a, b) => a.index - b.index || b.text.length - a.text.length);
  return found.filter((d, i) => i === 0 || d.index >= found[i - 1]!.index + found[i - 1]!.text.length);
}

/** The first full date printed in `text`, as YYYY-MM-DD; null when there is none. */
export function firstDate(text: string): FoundDate | null {
  return findDates(text)[0] ?? null;
}
