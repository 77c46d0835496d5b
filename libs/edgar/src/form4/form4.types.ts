/**
 * Types of a parsed Form 3/4/5 `ownershipDocument` (SEC EDGAR ownership XML schema X0306..X0508).
 * Text fields are entity-decoded and trimmed; an element that is absent or empty is null.
 */

/** Where `Form4Document.accession` came from. */
export type Form4AccessionSource = 'sgml_header' | 'context';

/** Which Form 4 table a row sits in. */
export type Form4Table = 'non_derivative' | 'derivative';

/** A row that reports a change (Table I/II columns 2-7) or a holding left unchanged (no transaction columns). */
export type Form4RowKind = 'transaction' | 'holding';

/** How a transaction code is grouped for consumers (see FORM4_TRANSACTION_CODES). */
export type Form4CodeClassification =
  | 'open_market_purchase'
  | 'open_market_sale'
  | 'grant'
  | 'exercise'
  | 'tax_withholding'
  | 'gift'
  | 'disposition_to_issuer'
  | 'conversion'
  | 'expiration'
  | 'inheritance'
  | 'equity_swap'
  | 'other';

/** One line of the SEC's Form 4 transaction code table (General Instruction 8). */
export interface Form4TransactionCodeInfo {
  code: string;
  /** The SEC's wording of the code, shortened. */
  label: string;
  classification: Form4CodeClassification;
  /** True only for P and S: a purchase or sale on the open market (or privately), not a plan or issuer event. */
  is_open_market: boolean;
}

/** A numeric field: the text exactly as the filer wrote it (decoded, trimmed) and its value. */
export interface Form4Number {
  text: string;
  /** Null when the text is not a decimal number. */
  value: number | null;
}

/** Why a row is (or is not) taken as made under a Rule 10b5-1 plan. */
export type Form4Rule10b5_1Reason = 'flag' | 'footnote';

/**
 * One `nonDerivativeTransaction`, `nonDerivativeHolding`, `derivativeTransaction` or `derivativeHolding`,
 * one per element: tranches at different prices stay separate rows.
 */
export interface Form4Row {
  table: Form4Table;
  kind: Form4RowKind;
  /**
   * 0-based position of this row among the row elements of its table (`nonDerivativeTable` or
   * `derivativeTable`), transactions and holdings counted together in document order. With
   * `table` and the accession it is the row's natural key.
   */
  sequence: number;
  securityTitle: string | null;
  transactionDate: string | null;
  deemedExecutionDate: string | null;
  /** transactionCoding/transactionFormType: the form the code is reported on (4, 5). */
  transactionFormType: string | null;
  /** transactionCoding/transactionCode as written (P, S, A, M, ...). */
  transactionCode: string | null;
  /** The code looked up in the SEC code table; null when the row has no code (holdings). */
  transactionCodeInfo: Form4TransactionCodeInfo | null;
  equitySwapInvolved: boolean | null;
  /** E (early) or L (late), null when on time. */
  transactionTimeliness: string | null;
  /** transactionAmounts/transactionShares. */
  shares: Form4Number | null;
  /** transactionAmounts/transactionTotalValue (some derivative rows report a value instead of shares). */
  totalValue: Form4Number | null;
  /** transactionAmounts/transactionPricePerShare. */
  pricePerShare: Form4Number | null;
  /** transactionAcquiredDisposedCode: A (acquired) or D (disposed). */
  acquiredDisposed: string | null;
  /** postTransactionAmounts/sharesOwnedFollowingTransaction. */
  sharesOwnedFollowing: Form4Number | null;
  /** postTransactionAmounts/valueOwnedFollowingTransaction. */
  valueOwnedFollowing: Form4Number | null;
  /** ownershipNature/directOrIndirectOwnership: D (direct) or I (indirect). */
  directOrIndirect: string | null;
  /** ownershipNature/natureOfOwnership, e.g. "By Living Trust". */
  natureOfOwnership: string | null;
  /** Derivative rows only (null on non-derivative rows). */
  conversionOrExercisePrice: Form4Number | null;
  exerciseDate: string | null;
  expirationDate: string | null;
  underlyingSecurityTitle: string | null;
  underlyingSecurityShares: Form4Number | null;
  underlyingSecurityValue: Form4Number | null;
  /**
   * Footnote ids cited by this row, keyed by the XML element that holds the `<footnoteId>`:
   * `transactionPricePerShare: ['F2']`, `transactionCoding: ['F1']`, `exerciseDate: ['F26', 'F27']`.
   * Ids are in document order; an element that cites nothing has no key.
   */
  footnoteIds: Record<string, string[]>;
  /** True when the document's aff10b5One flag is set, else when a footnote cited by this row mentions a Rule 10b5-1 plan. Always false on holdings. */
  is10b5_1: boolean;
  is10b5_1Reason: Form4Rule10b5_1Reason | null;
  /** The footnotes cited by this row that mention a Rule 10b5-1 plan (whatever the reason). */
  is10b5_1FootnoteIds: string[];
  /** The row's XML element exactly as it stands in the source: a verbatim substring of the file. */
  quote: string;
}

export interface Form4Issuer {
  /** issuerCik, zero-padded to 10 digits. */
  cik: string;
  name: string | null;
  tradingSymbol: string | null;
}

export interface Form4OwnerAddress {
  street1: string | null;
  street2: string | null;
  city: string | null;
  state: string | null;
  zipCode: string | null;
  stateDescription: string | null;
}

/**
 * One `reportingOwner`. Relationship boxes are booleans: an unchecked box is written 0, false,
 * or left out (SCWO omits isDirector), so absent means false.
 */
export interface Form4ReportingOwner {
  /** rptOwnerCik, zero-padded to 10 digits. */
  cik: string | null;
  name: string | null;
  address: Form4OwnerAddress;
  isDirector: boolean;
  isOfficer: boolean;
  officerTitle: string | null;
  isTenPercentOwner: boolean;
  isOther: boolean;
  otherText: string | null;
}

export interface Form4Footnote {
  id: string;
  /** The footnote's text with its whitespace runs (line breaks, indentation) collapsed to single spaces. */
  text: string;
}

export interface Form4Signature {
  name: string | null;
  date: string | null;
}

/** What the EDGAR complete-submission `.txt` header says, when the file is one. */
export interface Form4SubmissionHeader {
  /** ACCESSION NUMBER, dashed (0001104659-25-025206). */
  accession: string | null;
  /** CONFORMED SUBMISSION TYPE (4, 4/A). */
  submissionType: string | null;
  /** FILED AS OF DATE as YYYY-MM-DD. */
  filedAsOfDate: string | null;
  /** ACCEPTANCE-DATETIME as written (YYYYMMDDhhmmss, Eastern time). */
  acceptanceDateTime: string | null;
}

export interface Form4ParseContext {
  /** Where the bytes were fetched from; used in error messages and kept on the document. */
  url?: string;
  /** The filing's accession, used when the file has no SGML header (dashed or 18 digits). */
  accession?: string;
}

/** A Form 3/4/5 ownership document, everything the XML states. */
export interface Form4Document {
  /** Dashed accession: the SGML header's when the file is a complete submission, else the context's. */
  accession: string | null;
  accessionSource: Form4AccessionSource | null;
  url: string | null;
  /** The complete-submission header, null for a bare XML document. */
  submissionHeader: Form4SubmissionHeader | null;
  schemaVersion: string | null;
  /** documentType: 4, 4/A (also 3, 3/A, 5, 5/A: they share the schema). */
  documentType: string;
  isAmendment: boolean;
  periodOfReport: string | null;
  /** 4/A only: the date of the filing it amends. */
  dateOfOriginalSubmission: string | null;
  noSecuritiesOwned: boolean | null;
  notSubjectToSection16: boolean | null;
  /** The company whose securities every row is in. */
  issuer: Form4Issuer;
  reportingOwners: Form4ReportingOwner[];
  /** The Rule 10b5-1 checkbox (schema X0508+): true/false as filed, null when the element is absent (older filings). */
  aff10b5One: boolean | null;
  /** Every row of both tables, in document order. */
  rows: Form4Row[];
  /** Every `<footnote>` in document order (a repeated id stays repeated). */
  footnotes: Form4Footnote[];
  /** Ids of the footnotes (any in the filing) that say a transaction was made under a Rule 10b5-1 plan. */
  rule10b5_1FootnoteIds: string[];
  remarks: string | null;
  ownerSignatures: Form4Signature[];
}
