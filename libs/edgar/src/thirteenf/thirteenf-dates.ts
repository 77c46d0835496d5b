/** 13F XML writes dates MM-DD-YYYY; YYYY-MM-DD (already ISO) passes through; anything else is null. */
export function thirteenFDate(text: string | null): string | null {
  if (text === null) return null;
  const us = /^(\d{2})-(\d{2})-(\d{4})$/.exec(text);
  if (us) return `${us[3]}-${us[1]}-${us[2]}`;
  return /^\d{4}-\d{2}-\d{2}$/.test(text) ? text : null;
}

/** Calendar quarter of a YYYY-MM-DD date: `quarterOf('2025-06-30') === '2025Q2'`. */
export function quarterOf(period: string): string {
  const m = /^(\d{4})-(\d{2})-\d{2}$/.exec(period);
  const month = m ? Number(m[2]) : NaN;
  if (!m || month < 1 || month > 12) throw new RangeError(`not a YYYY-MM-DD date: ${period}`);
  return `${m[1]}Q${Math.ceil(month / 3)}`;
}
