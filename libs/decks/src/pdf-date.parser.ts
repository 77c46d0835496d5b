/** Earlier years are placeholders, not dates (see pdfDateToIso). */
const MIN_YEAR = 1900;

/**
 * A PDF date string (`D:YYYYMMDDHHmmSSOHH'mm'`, every part after the year optional, PDF 32000-1
 * 7.9.4) as ISO 8601 with its offset kept as written: `D:20150112150142-05'00'` ->
 * `2015-01-12T15:01:42-05:00`. Without an offset the time is taken as UTC (`Z`); the spec leaves
 * it unknown. Null when the string is not a date, names a day that does not exist (Feb 30), or a
 * year before 1900: tools write 0000 for "unknown", and Postgres has no year 0.
 */
export function pdfDateToIso(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const m = /^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(?:([Zz])|([+-])(\d{2})'?(?:(\d{2})'?)?)?/.exec(raw.trim());
  if (!m) return null;
  const [, year, month = '01', day = '01', hour = '00', minute = '00', second = '00', zulu, sign, offsetHours, offsetMinutes = '00'] = m;
  const numbers = [Number(month), Number(day), Number(hour), Number(minute), Number(second), Number(offsetHours ?? 0), Number(offsetMinutes)];
  const [mo, d, h, mi, s, oh, om] = numbers as [number, number, number, number, number, number, number];
  const y = Number(year);
  if (y < MIN_YEAR || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59 || oh > 23 || om > 59) return null;
  // setUTCFullYear takes the year as written (Date.UTC maps 0-99 to 1900-1999); a day past the
  // month's end rolls over into the next month, which the comparison catches.
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  const offset = sign && !zulu ? `${sign}${offsetHours}:${offsetMinutes}` : 'Z';
  return `${year}-${month}-${day}T${hour}:${minute}:${second}${offset}`;
}
