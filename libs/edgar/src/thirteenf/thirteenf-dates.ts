/** 13F XML writes dates MM-DD-YYYY; YYYY-MM-DD (already ISO) passes through; anything else is null. */
export function thirteenFDate(text: string | null): string | null {
  if (text === null) return null;
  const us = /^(\d{2})-(\d{2})-(\d{4})$/.exec(text);
  if (us) return `${us[3]}-${us[1]}-${us[2]}`;
  return /^\d{4}-\d{2}-\d{2}$/.test(text) ? text : null;
}
