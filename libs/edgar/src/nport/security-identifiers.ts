/**
 * ISIN and CUSIP arithmetic (ISO 6166 and the CUSIP Global Services rules). An ISIN is a
 * two-letter country code, a nine-character national number and a Luhn check digit computed over
 * the letters turned into numbers (A=10 ... Z=35); a US ISIN's national number is the CUSIP.
 */

const CUSIP_SHAPE = /^[0-9A-Z]{8}\d$/;
const ISIN_SHAPE = /^[A-Z]{2}[0-9A-Z]{9}\d$/;

function charValue(c: string): number {
  const code = c.charCodeAt(0);
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 65 && code <= 90) return code - 55;
  // CUSIP's own extra characters (*, @, #) never occur in the CUSIPs of listed shares.
  return -1;
}

/** The CUSIP check digit of the first eight characters (modulus 10, double-add-double). */
export function cusipCheckDigit(base8: string): number | null {
  if (!/^[0-9A-Z]{8}$/.test(base8)) return null;
  let sum = 0;
  for (let i = 0; i < 8; i += 1) {
    let v = charValue(base8[i]!);
    if (i % 2 === 1) v *= 2;
    sum += Math.floor(v / 10) + (v % 10);
  }
  return (10 - (sum % 10)) % 10;
}

/** Whether a nine-character CUSIP's last digit is its check digit (typos and placeholders fail). */
export function isValidCusip(cusip: string): boolean {
  return CUSIP_SHAPE.test(cusip) && !/^0+$/.test(cusip) && cusipCheckDigit(cusip.slice(0, 8)) === Number(cusip[8]);
}

/** The ISIN check digit of the first eleven characters (Luhn over the digits of the character values). */
export function isinCheckDigit(base11: string): number | null {
  if (!/^[A-Z]{2}[0-9A-Z]{9}$/.test(base11)) return null;
  const digits = [...base11].map((c) => String(charValue(c))).join('');
  let sum = 0;
  // Luhn from the right: the rightmost digit of the payload is doubled.
  for (let i = digits.length - 1, double = true; i >= 0; i -= 1, double = !double) {
    let v = Number(digits[i]);
    if (double) {
      v *= 2;
      if (v > 9) v -= 9;
    }
    sum += v;
  }
  return (10 - (sum % 10)) % 10;
}

export function isValidIsin(isin: string): boolean {
  return ISIN_SHAPE.test(isin) && isinCheckDigit(isin.slice(0, 11)) === Number(isin[11]);
}

/** `US` + CUSIP + check digit, for a CUSIP whose own check digit holds; else null. */
export function usIsinOfCusip(cusip: string): string | null {
  if (!isValidCusip(cusip)) return null;
  return `US${cusip}${isinCheckDigit(`US${cusip}`)}`;
}

/** Where a holding's ISIN came from: the filing's own `identifiers/isin`, or computed from its US CUSIP. */
export type IsinSource = 'filed' | 'cusip';

export interface SecurityIsin {
  isin: string;
  from: IsinSource;
}

/**
 * The ISIN of a holding's security: the one the filing gives (when its check digit holds), else
 * `US` + CUSIP + check digit when the CUSIP is valid, starts with a digit (a letter first is a
 * CINS number of a non-North-American issuer) and the filing says the security is a US one
 * (invCountry US: a Canadian CUSIP takes the CA prefix). Anything else: null, never a guess.
 */
export function securityIsinOf(h: { isin: string | null; cusip: string | null; invCountry: string | null }): SecurityIsin | null {
  const filed = h.isin?.toUpperCase() ?? null;
  if (filed !== null && isValidIsin(filed)) return { isin: filed, from: 'filed' };
  const cusip = h.cusip?.toUpperCase() ?? null;
  if (cusip === null || !/^\d/.test(cusip) || h.invCountry !== 'US') return null;
  const derived = usIsinOfCusip(cusip);
  return derived ? { isin: derived, from: 'cusip' } : null;
}
