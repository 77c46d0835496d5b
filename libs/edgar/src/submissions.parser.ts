import { countryOfAddress } from './edgar-country.mapper';
import { EdgarParseError } from './edgar.parse-error';
import { isRecord, parseJsonBytes, textOrNull } from './json-bytes';

export interface EdgarAddress {
  street1: string | null;
  street2: string | null;
  city: string | null;
  stateOrCountry: string | null;
  stateOrCountryDescription: string | null;
  zipCode: string | null;
  /** Newer format only (present on 2024+ files). */
  country: string | null;
  countryCode: string | null;
  isForeignLocation: boolean | null;
}

export interface EdgarFormerName {
  name: string;
  /** ISO timestamps as SEC gives them, null when empty. */
  from: string | null;
  to: string | null;
}

export interface EdgarFilingFile {
  name: string;
  filingCount: number | null;
  filingFrom: string | null;
  filingTo: string | null;
}

/** Company fields of data.sec.gov/submissions/CIK##########.json. Empty strings are null. */
export interface SubmissionsCompany {
  /** 10-digit zero-padded, whether SEC wrote "717423" (older files) or "0000789019". */
  cik: string;
  name: string;
  entityType: string | null;
  sic: string | null;
  sicDescription: string | null;
  ownerOrg: string | null;
  category: string | null;
  fiscalYearEnd: string | null;
  stateOfIncorporation: string | null;
  stateOfIncorporationDescription: string | null;
  ein: string | null;
  lei: string | null;
  description: string | null;
  website: string | null;
  investorWebsite: string | null;
  phone: string | null;
  flags: string | null;
  tickers: string[];
  /** Parallel to `tickers`; null where SEC has no exchange for that ticker. */
  exchanges: Array<string | null>;
  addresses: { business: EdgarAddress | null; mailing: EdgarAddress | null };
  /** ISO alpha-2 country of the business address (mailing when there is none), when it can be told. */
  country: string | null;
  formerNames: EdgarFormerName[];
  insiderTransactionForOwnerExists: boolean | null;
  insiderTransactionForIssuerExists: boolean | null;
  /** Overflow files with older filings (`filings.files`). */
  filingFiles: EdgarFilingFile[];
  /**
   * The top-level `"name": "..."` member exactly as it stands in the bytes (spacing included), for
   * provenance quotes; null if it cannot be found verbatim.
   */
  nameQuote: string | null;
}

/** One filing of `filings.recent`: the column arrays zipped into objects. */
export interface RecentFiling {
  accessionNumber: string;
  filingDate: string | null;
  reportDate: string | null;
  acceptanceDateTime: string | null;
  act: string | null;
  form: string | null;
  fileNumber: string | null;
  filmNumber: string | null;
  items: string | null;
  /** Newer files only. */
  coreType: string | null;
  size: number | null;
  isXBRL: boolean | null;
  isInlineXBRL: boolean | null;
  primaryDocument: string | null;
  primaryDocDescription: string | null;
}

const SOURCE = 'submissions JSON';

/** Submissions path of a CIK on data.sec.gov. */
export function submissionsPath(cik: string | number): string {
  return `/submissions/CIK${String(cik).replace(/^0+/, '').padStart(10, '0')}.json`;
}

/** Parses the company part of a submissions JSON. */
export function parseSubmissions(bytes: Uint8Array | string): SubmissionsCompany {
  const text = typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('utf8');
  const json = parseJsonBytes(text, SOURCE);
  if (!isRecord(json)) throw new EdgarParseError(SOURCE, 'expected an object');
  return companyOf(json, text);
}

/** A whole submissions JSON read once: its company part and `filings.recent` (what the bulk backfill maps). */
export function parseSubmissionsFile(bytes: Uint8Array | string): { company: SubmissionsCompany; recent: RecentFiling[] } {
  const text = typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('utf8');
  const json = parseJsonBytes(text, SOURCE);
  if (!isRecord(json)) throw new EdgarParseError(SOURCE, 'expected an object');
  return { company: companyOf(json, text), recent: filingColumnsOf(isRecord(json.filings) ? json.filings.recent : undefined) };
}

/** Parses `filings.recent` into one object per filing (index i of every column). */
export function parseRecentFilings(bytes: Uint8Array | string): RecentFiling[] {
  const json = parseJsonBytes(bytes, SOURCE);
  if (!isRecord(json) || !isRecord(json.filings)) throw new EdgarParseError(SOURCE, 'no filings');
  return filingColumnsOf(json.filings.recent);
}

function companyOf(json: Record<string, unknown>, text: string): SubmissionsCompany {
  const cik = textOrNull(json.cik);
  if (!cik || !/^\d{1,10}$/.test(cik)) throw new EdgarParseError(SOURCE, `bad cik ${JSON.stringify(json.cik)}`);
  const name = textOrNull(json.name);
  if (!name) throw new EdgarParseError(SOURCE, 'missing name');

  const tickers = Array.isArray(json.tickers) ? json.tickers.map(textOrNull).filter((t): t is string => t !== null) : [];
  const exchangesRaw = Array.isArray(json.exchanges) ? json.exchanges : [];
  const exchanges = tickers.map((_, i) => textOrNull(exchangesRaw[i]));

  const addresses = isRecord(json.addresses) ? json.addresses : {};
  const business = addressOf(addresses.business);
  const mailing = addressOf(addresses.mailing);
  const located = business ?? mailing;

  const filings = isRecord(json.filings) ? json.filings : {};
  const files = Array.isArray(filings.files) ? filings.files.filter(isRecord) : [];

  return {
    cik: cik.padStart(10, '0'),
    name,
    entityType: textOrNull(json.entityType),
    sic: textOrNull(json.sic),
    sicDescription: textOrNull(json.sicDescription),
    ownerOrg: textOrNull(json.ownerOrg),
    category: textOrNull(json.category),
    fiscalYearEnd: textOrNull(json.fiscalYearEnd),
    stateOfIncorporation: textOrNull(json.stateOfIncorporation),
    stateOfIncorporationDescription: textOrNull(json.stateOfIncorporationDescription),
    ein: textOrNull(json.ein),
    lei: textOrNull(json.lei),
    description: textOrNull(json.description),
    website: textOrNull(json.website),
    investorWebsite: textOrNull(json.investorWebsite),
    phone: textOrNull(json.phone),
    flags: textOrNull(json.flags),
    tickers,
    exchanges,
    addresses: { business, mailing },
    country: located ? countryOfAddress(located.stateOrCountry, located.countryCode) : null,
    formerNames: Array.isArray(json.formerNames)
      ? json.formerNames.filter(isRecord).flatMap((f) => {
          const formerName = textOrNull(f.name);
          return formerName ? [{ name: formerName, from: textOrNull(f.from), to: textOrNull(f.to) }] : [];
        })
      : [],
    insiderTransactionForOwnerExists: flagOf(json.insiderTransactionForOwnerExists),
    insiderTransactionForIssuerExists: flagOf(json.insiderTransactionForIssuerExists),
    filingFiles: files.flatMap((f) => {
      const fileName = textOrNull(f.name);
      return fileName
        ? [{ name: fileName, filingCount: numberOf(f.filingCount), filingFrom: textOrNull(f.filingFrom), filingTo: textOrNull(f.filingTo) }]
        : [];
    }),
    nameQuote: nameQuoteOf(text, name),
  };
}

function addressOf(value: unknown): EdgarAddress | null {
  if (!isRecord(value)) return null;
  const address: EdgarAddress = {
    street1: textOrNull(value.street1),
    street2: textOrNull(value.street2),
    city: textOrNull(value.city),
    stateOrCountry: textOrNull(value.stateOrCountry),
    stateOrCountryDescription: textOrNull(value.stateOrCountryDescription),
    zipCode: textOrNull(value.zipCode),
    country: textOrNull(value.country),
    countryCode: textOrNull(value.countryCode),
    isForeignLocation: flagOf(value.isForeignLocation),
  };
  const empty = Object.values(address).every((v) => v === null);
  return empty ? null : address;
}

/** The columnar block of `filings.recent` (or of an overflow file) zipped into one object per filing. */
export function filingColumnsOf(recent: unknown): RecentFiling[] {
  if (!isRecord(recent)) return [];
  const column = (key: string): unknown[] => {
    const value = recent[key];
    return Array.isArray(value) ? value : [];
  };
  const accession = column('accessionNumber');
  const cols = {
    filingDate: column('filingDate'),
    reportDate: column('reportDate'),
    acceptanceDateTime: column('acceptanceDateTime'),
    act: column('act'),
    form: column('form'),
    fileNumber: column('fileNumber'),
    filmNumber: column('filmNumber'),
    items: column('items'),
    coreType: column('core_type'),
    size: column('size'),
    isXBRL: column('isXBRL'),
    isInlineXBRL: column('isInlineXBRL'),
    primaryDocument: column('primaryDocument'),
    primaryDocDescription: column('primaryDocDescription'),
  };
  const out: RecentFiling[] = [];
  accession.forEach((acc, i) => {
    const accessionNumber = textOrNull(acc);
    if (!accessionNumber) return;
    out.push({
      accessionNumber,
      filingDate: textOrNull(cols.filingDate[i]),
      reportDate: textOrNull(cols.reportDate[i]),
      acceptanceDateTime: textOrNull(cols.acceptanceDateTime[i]),
      act: textOrNull(cols.act[i]),
      form: textOrNull(cols.form[i]),
      fileNumber: textOrNull(cols.fileNumber[i]),
      filmNumber: textOrNull(cols.filmNumber[i]),
      items: textOrNull(cols.items[i]),
      coreType: textOrNull(cols.coreType[i]),
      size: numberOf(cols.size[i]),
      isXBRL: flagOf(cols.isXBRL[i]),
      isInlineXBRL: flagOf(cols.isInlineXBRL[i]),
      primaryDocument: textOrNull(cols.primaryDocument[i]),
      primaryDocDescription: textOrNull(cols.primaryDocDescription[i]),
    });
  });
  return out;
}

function flagOf(value: unknown): boolean | null {
  if (value === 1 || value === true || value === '1' || value === 'true') return true;
  if (value === 0 || value === false || value === '0' || value === 'false') return false;
  return null;
}

function numberOf(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/**
 * The first `"name"` member in a submissions file is the company's (formerNames come later), so
 * the quote is that member's text as written, kept only if it decodes to the parsed name.
 */
function nameQuoteOf(text: string, name: string): string | null {
  const match = /"name"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(text);
  if (!match) return null;
  try {
    const decoded: unknown = JSON.parse(`"${match[1] ?? ''}"`);
    return typeof decoded === 'string' && decoded.trim() === name ? match[0] : null;
  } catch {
    return null;
  }
}
