/** Calendar quarters as 13F records name them (`2025Q2`) and the quarter-end dates they report as of. */

/** Calendar quarter of a YYYY-MM-DD date: `quarterOf('2025-06-30') === '2025Q2'`. */
export function quarterOf(date: string): string {
  const m = /^(\d{4})-(\d{2})-\d{2}$/.exec(date);
  const month = m ? Number(m[2]) : NaN;
  if (!m || month < 1 || month > 12) throw new RangeError(`not a YYYY-MM-DD date: ${date}`);
  return `${m[1]}Q${Math.ceil(month / 3)}`;
}

/** The last day of a quarter: `quarterEnd('2025Q2') === '2025-06-30'`. */
export function quarterEnd(quarter: string): string {
  const m = /^(\d{4})Q([1-4])$/.exec(quarter);
  if (!m) throw new RangeError(`not a quarter like 2025Q2: ${quarter}`);
  return `${m[1]}-${['03-31', '06-30', '09-30', '12-31'][Number(m[2]) - 1]}`;
}

/** The month end `months` months from the month of `date`: quarter ends stay quarter ends. */
function monthEndShifted(date: string, months: number): string {
  const [y, m] = date.split('-').map(Number) as [number, number];
  // Day 0 of the month after the target month is the target month's last day.
  return new Date(Date.UTC(y, m - 1 + months + 1, 0)).toISOString().slice(0, 10);
}

/** The previous calendar quarter's end: 2021-03-31 -> 2020-12-31. */
export const previousQuarterEnd = (period: string): string => monthEndShifted(period, -3);

/** The next calendar quarter's end: 2020-12-31 -> 2021-03-31. */
export const nextQuarterEnd = (period: string): string => monthEndShifted(period, 3);
