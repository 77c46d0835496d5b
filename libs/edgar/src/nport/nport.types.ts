/** The fund an NPORT-P filing reports on (genInfo, fundInfo and the header's series/class ids). */
export interface NportFund {
  /** headerData/submissionType, e.g. NPORT-P (null when absent). */
  submissionType: string | null;
  /** genInfo/regCik, 10-digit zero-padded (falls back to the filer CIK of the header). */
  registrantCik: string | null;
  registrantName: string | null;
  registrantLei: string | null;
  /** genInfo/seriesId (S000013795); null for a registrant without series (closed-end funds such as ADX). */
  seriesId: string | null;
  /** genInfo/seriesName; null when absent or `N/A`. */
  seriesName: string | null;
  seriesLei: string | null;
  /** Class ids of the series (headerData seriesClassInfo/classId), in file order. */
  classIds: string[];
  /** Class tickers where the file gives them (`classId` -> ticker); NPORT-P usually gives none. */
  classTickers: Record<string, string>;
  /** genInfo/repPdEnd: end of the fund's fiscal year (YYYY-MM-DD). */
  reportPeriodEnd: string | null;
  /** genInfo/repPdDate: the date the holdings are as of (YYYY-MM-DD). */
  reportDate: string | null;
  totalAssets: number | null;
  netAssets: number | null;
}

/** One `invstOrSec` of formData/invstOrSecs. Fields the file leaves out, or gives as `N/A`, are null. */
export interface NportHolding {
  /** 0-based position of the holding in the file. */
  index: number;
  name: string | null;
  title: string | null;
  lei: string | null;
  cusip: string | null;
  isin: string | null;
  ticker: string | null;
  /** identifiers/other: value and its otherDesc, in file order. */
  otherIds: Array<{ value: string; description: string | null }>;
  balance: number | null;
  /** NS (shares), PA (principal amount), NC (contracts), OU (other units). */
  units: string | null;
  curCd: string | null;
  valUsd: number | null;
  /** Percent of net assets as filed (7.2998 means 7.2998 %). */
  pctVal: number | null;
  payoffProfile: string | null;
  /** EC (equity common), EP, DBT, ABS-MBS, DFE, ...; null when only assetConditional is given. */
  assetCat: string | null;
  /** assetConditional: the category (usually OTHER) and its description. */
  assetConditional: { assetCat: string | null; description: string | null } | null;
  issuerCat: string | null;
  issuerConditional: { issuerCat: string | null; description: string | null } | null;
  invCountry: string | null;
  fairValLevel: string | null;
  /** isRestrictedSec Y/N as a boolean; null when absent. */
  isRestricted: boolean | null;
  /**
   * A verbatim excerpt of this holding's XML, usable as a provenance quote: the `<name>` element
   * as it stands in the file (else `<title>`, else `<cusip>`), entities left encoded.
   */
  quote: string | null;
  /**
   * The holding's XML as written from the start of its `<name>` element through the end of its
   * `<lei>`, `<cusip>` and `identifiers/<isin>` elements: verbatim quotes for identifiers read or
   * derived from them (null when the element is absent).
   */
  leiQuote: string | null;
  cusipQuote: string | null;
  isinQuote: string | null;
}

export interface NportParseSummary {
  fund: NportFund;
  holdingCount: number;
}
