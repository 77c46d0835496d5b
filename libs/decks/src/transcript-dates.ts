/*
 * The call's date as printed: "January 15, 2025", "15 January 2025", "30th January 2025",
 * "29 April 2025, 7.45am BST", "Jan. 15, 2025", "2025-01-15".
 */

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH = `(${MONTHS.join('|')}|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\\.?`;
const MONTH_DAY_YEAR = new RegExp(`\\b${MONTH}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'i');
const DAY_MONTH_YEAR = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH},?\\s+(\\d{4})\\b`, 'i');
const ISO_DATE = /\b(\d{4})-(\d{2})-(\d{2})\b/;

function isoDate(year: string, month: number, day: string): string | null {
  const d = Number(day);
  const date = new Date(Date.UTC(Number(year), month - 1, d));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== d) return null;
  return `${year}-${String(month).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

const monthNumber = (word: string): number => MONTHS.findIndex((m) => m.startsWith(word.toLowerCase().slice(0, 3))) + 1;

/** The first date written in a text, as YYYY-MM-DD; null when none (or not a real day). */
export function dateIn(text: string): string | null {
  const found = [
    { m: MONTH_DAY_YEAR.exec(text), date: (m: RegExpExecArray) => isoDate(m[3]!, monthNumber(m[1]!), m[2]!) },
    { m: DAY_MONTH_YEAR.exec(text), date: (m: RegExpExecArray) => isoDate(m[3]!, monthNumber(m[2]!), m[1]!) },
    { m: ISO_DATE.exec(text), date: (m: RegExpExecArray) => isoDate(m[1]!, Number(m[2]), m[3]!) },
  ].filter((f): f is { m: RegExpExecArray; date: (m: RegExpExecArray) => string | null } => f.m !== null);
  found.sort((a, b) => a.m.index - b.m.index);
  return found.length > 0 ? found[0]!.date(found[0]!.m) : null;
}
