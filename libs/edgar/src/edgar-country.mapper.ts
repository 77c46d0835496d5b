/**
 * EDGAR writes an address's state or country as its own two-character code: US states as their
 * postal codes, other places as codes from EDGAR's "State and Country Codes" list (X0 = United
 * Kingdom, A6 = Ontario, ...), which are NOT ISO codes. Only codes we are sure of are mapped;
 * anything else yields null rather than a guess.
 */
const US_STATES_AND_TERRITORIES = new Set([
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS',
  'KY', 'LA', 'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC',
  'ND', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY',
  // Territories EDGAR codes like states: Puerto Rico, US Virgin Islands, Guam.
  'PR', 'VI', 'GU',
]);

/** EDGAR foreign codes -> ISO 3166-1 alpha-2, limited to the common, well-attested ones. */
const EDGAR_FOREIGN_CODES: Readonly<Record<string, string>> = {
  // Canadian provinces and territories (A0 Alberta .. B0 Yukon), Z4 Canada (federal level)
  A0: 'CA', A1: 'CA', A2: 'CA', A3: 'CA', A4: 'CA', A5: 'CA', A6: 'CA', A7: 'CA', A8: 'CA', A9: 'CA', B0: 'CA', Z4: 'CA',
  X0: 'GB', // United Kingdom
  K3: 'HK', // Hong Kong
  F4: 'CN', // China
  F5: 'TW', // Taiwan
  M0: 'JP', // Japan
  M5: 'KR', // Korea, Republic of
  K7: 'IN', // India
  U0: 'SG', // Singapore
  L2: 'IE', // Ireland
  L3: 'IL', // Israel
  L6: 'IT', // Italy
  '2M': 'DE', // Germany
  I0: 'FR', // France
  P7: 'NL', // Netherlands
  V8: 'CH', // Switzerland
  V7: 'SE', // Sweden
  Q8: 'NO', // Norway
  G7: 'DK', // Denmark
  U3: 'ES', // Spain
  N4: 'LU', // Luxembourg
  C3: 'AU', // Australia
  D5: 'BR', // Brazil
  O5: 'MX', // Mexico
  X3: 'UY', // Uruguay
  E9: 'KY', // Cayman Islands
  D0: 'BM', // Bermuda
  D8: 'VG', // Virgin Islands, British
  Y9: 'JE', // Jersey
};

/**
 * ISO alpha-2 country of an EDGAR address: from `stateOrCountry` when the code is known, else from
 * the newer `countryCode` field when it is a two-letter code, else null.
 */
export function countryOfAddress(stateOrCountry: string | null, countryCode?: string | null): string | null {
  const code = stateOrCountry?.trim().toUpperCase() ?? '';
  if (US_STATES_AND_TERRITORIES.has(code)) return 'US';
  const foreign = EDGAR_FOREIGN_CODES[code];
  if (foreign) return foreign;
  const iso = countryCode?.trim().toUpperCase() ?? '';
  return /^[A-Z]{2}$/.test(iso) ? iso : null;
}
