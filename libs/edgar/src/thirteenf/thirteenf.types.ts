/** What the 13F parsers read from a filing's bytes; the worker maps it to 13f-holdings@1. */

export type ThirteenFReportType = 'holdings' | 'notice' | 'combination';
export type ThirteenFAmendmentType = 'restatement' | 'new_holdings';

export interface ThirteenFManagerRef {
  sequence: number | null;
  cik: string | null;
  name: string | null;
  fileNumber: string | null;
}

/** primary_doc.xml: header, cover page, summary page, signature. */
export interface ThirteenFPrimaryDoc {
  /** submissionType: 13F-HR, 13F-HR/A, 13F-NT, 13F-NT/A. */
  form: string | null;
  /** filerInfo/filer/credentials/cik, 10 digits. */
  managerCik: string | null;
  managerName: string | null;
  fileNumber: string | null;
  crdNumber: string | null;
  secFileNumber: string | null;
  /** periodOfReport (or reportCalendarOrQuarter) as YYYY-MM-DD. */
  period: string | null;
  reportType: ThirteenFReportType | null;
  isAmendment: boolean;
  amendmentNumber: number | null;
  amendmentType: ThirteenFAmendmentType | null;
  /** signatureBlock/signatureDate as YYYY-MM-DD. */
  signedDate: string | null;
  otherManagers: ThirteenFManagerRef[];
  includedManagers: ThirteenFManagerRef[];
  tableEntryTotal: number | null;
  tableValueTotal: number | null;
}

export interface ThirteenFHolding {
  index: number;
  issuer: string;
  classTitle: string | null;
  cusip: string;
  figi: string | null;
  /** value exactly as filed. */
  valueFiled: number;
  shares: number;
  shareType: 'SH' | 'PRN';
  putCall: 'put' | 'call' | null;
  discretion: string | null;
  otherManagers: number[];
  votingSole: number;
  votingShared: number;
  votingNone: number;
  /** The <infoTable> element as written. */
  quote: string;
}

export interface ValueUnitDecision {
  unit: 'thousands' | 'dollars';
  basis: 'filing_date' | 'summary_total' | 'implied_prices';
  flag: string | null;
  /** 1000 for thousands, 1 for dollars: value_usd = valueFiled * factor. */
  factor: 1 | 1000;
}

/** A whole 13F filing read from its complete submission (.txt), dissemination (.nc) or SEC sample file. */
export interface ParsedThirteenF {
  accession: string | null;
  /** Header FILED AS OF DATE (YYYY-MM-DD), when the container has a header. */
  filedDate: string | null;
  /** Header ACCEPTANCE-DATETIME as ISO 8601 with EDGAR's offset, when given. */
  acceptedAt: string | null;
  primary: ThirteenFPrimaryDoc;
  holdings: ThirteenFHolding[];
  /** Decided from the filing date passed in or read from the header. */
  valueUnit: ValueUnitDecision;
  primaryFilename: string | null;
  infoTableFilename: string | null;
}

/** One row of SEC's Official List of Section 13(f) Securities. */
export interface ThirteenFListedSecurity {
  cusip: string;
  hasOptions: boolean;
  issuer: string;
  description: string | null;
  status: string | null;
}
