import type { Form4ReportingOwnerData } from '@app/contracts';
import { boolean, char, date, integer, jsonb, numeric, text, timestamptz, selectList, table, type RowOf } from '../table';
import { issuerSymbolSql } from '../companies/issuer-symbol';

/** A footnote a row cites, with its text (null when the filing has no footnote of that id). */
export interface ResolvedFootnote {
  id: string;
  text: string | null;
}

/**
 * One reporting owner of one Form 4 filing, by issuer: how the projection finds the issuer's
 * filings naming an owner (the roster entries) without reading every filing's owners JSON.
 * Written only by the projector, with its filing (no foreign key, as insider_transactions has none).
 */
export const FORM4_FILING_OWNERS_TABLE = table('form4_filing_owners', ['cik', 'owner_key', 'accession'], {
  cik: char(10),
  /** form4OwnerKey: `cik:<owner CIK>`, else `name:<normalized name>`. */
  owner_key: text(),
  accession: text(),
});

/**
 * Read model of one Form 4 / 4/A filing (edgar.form4.v1), keyed by accession: what the filing
 * states besides its rows (owners, footnotes, remarks), and the keys the projection needs to
 * find the filings a 4/A restates and to rebuild the SEC roster. Written only by the projector.
 */
export const FORM4_FILINGS_TABLE = table('form4_filings', ['accession'], {
  accession: text(),
  /** The issuer's CIK: every row of the filing is in its securities. */
  cik: char(10),
  issuer_name: text().nullable(),
  trading_symbol: text().nullable(),
  form: text(),
  is_amendment: boolean(),
  /** As filed (xs:date). */
  date_of_original_submission: text().nullable(),
  /** As filed (xs:date). */
  period_of_report: text().nullable(),
  filed_date: date().nullable(),
  accepted_at: timestamptz().nullable(),
  /** The filing date, else the period of report, else the day the record was observed: orders filings of one owner. */
  effective_date: date(),
  /** The date of the original filing of the family: date_of_original_submission on a 4/A, the filing date on a 4. */
  original_date: date().nullable(),
  /** Sorted reporting owner identities (CIK, else the normalized name): a 4/A restates filings of the same owners. */
  owners_key: text(),
  reporting_owners: jsonb<Form4ReportingOwnerData[]>(),
  aff10b5one: boolean().nullable(),
  no_securities_owned: boolean().nullable(),
  not_subject_to_section16: boolean().nullable(),
  schema_version: text().nullable(),
  /** [{id, text}] in document order. */
  footnotes: jsonb<unknown>(),
  rule_10b5_1_footnote_ids: jsonb<unknown>(),
  remarks: text().nullable(),
  signatures: jsonb<unknown>(),
  transaction_count: integer(),
  holding_count: integer(),
  src_id: text(),
  source_url: text(),
  quote: text().nullable(),
  content_hash: text().nullable(),
  extracted_at: timestamptz().nullable(),
  /** The form4@1 record last applied: the same record twice writes nothing. */
  record_id: text(),
  /** observed_at of that record: an older record never overwrites a newer one. */
  observed_at: timestamptz(),
  updated_at: timestamptz().default('now()'),
  /** On a 4/A: the filing the projection found it restates, or why it restates nothing. Null on a 4. */
  amendment_note: text().nullable(),
});

/**
 * Read model of one row of Table I or II of a Form 4 / 4/A (a transaction or a holding), keyed by
 * (accession, table, sequence): tranches stay separate rows. The issuer's CIK owns the row. A row
 * restated by a later 4/A is never deleted: `superseded_by` names the amendment. The keyset index
 * backs /v1/companies/{symbol}/insiders (sort_date, then the natural key). Written only by the projector.
 */
export const INSIDER_TRANSACTIONS_TABLE = table('insider_transactions', ['accession', 'row_table', 'sequence'], {
  accession: text(),
  /** non_derivative (Table I) | derivative (Table II). */
  row_table: text<'non_derivative' | 'derivative'>(),
  /** 0-based position in its table, transactions and holdings together. */
  sequence: integer(),
  cik: char(10),
  /** transaction | holding */
  kind: text<'transaction' | 'holding'>(),
  form: text(),
  is_amendment: boolean(),
  filed_date: date().nullable(),
  /** As filed (xs:date). */
  period_of_report: text().nullable(),
  /** The transaction date; a holding (or a date that is not YYYY-MM-DD) takes the period of report, else the filing's effective date. */
  sort_date: date(),
  security_title: text().nullable(),
  /** As filed (xs:date). */
  transaction_date: text().nullable(),
  deemed_execution_date: text().nullable(),
  transaction_form_type: text().nullable(),
  code: text().nullable(),
  code_label: text().nullable(),
  classification: text().nullable(),
  is_open_market: boolean(),
  equity_swap_involved: boolean().nullable(),
  transaction_timeliness: text().nullable(),
  shares: numeric().nullable().readAs<number | null>((c) => `${c}::float8`),
  shares_text: text().nullable(),
  total_value: numeric().nullable().readAs<number | null>((c) => `${c}::float8`),
  total_value_text: text().nullable(),
  price_per_share: numeric().nullable().readAs<number | null>((c) => `${c}::float8`),
  price_per_share_text: text().nullable(),
  acquired_disposed: text().nullable(),
  shares_owned_following: numeric().nullable().readAs<number | null>((c) => `${c}::float8`),
  shares_owned_following_text: text().nullable(),
  value_owned_following: numeric().nullable().readAs<number | null>((c) => `${c}::float8`),
  value_owned_following_text: text().nullable(),
  direct_indirect: text().nullable(),
  nature_of_ownership: text().nullable(),
  conversion_or_exercise_price: numeric().nullable().readAs<number | null>((c) => `${c}::float8`),
  conversion_or_exercise_price_text: text().nullable(),
  exercise_date: text().nullable(),
  expiration_date: text().nullable(),
  underlying_security_title: text().nullable(),
  underlying_shares: numeric().nullable().readAs<number | null>((c) => `${c}::float8`),
  underlying_shares_text: text().nullable(),
  underlying_value: numeric().nullable().readAs<number | null>((c) => `${c}::float8`),
  underlying_value_text: text().nullable(),
  /** {field: [{id, text}]}: the footnotes the row cites, resolved to their text. */
  footnotes: jsonb<Record<string, ResolvedFootnote[]>>(),
  is_10b5_1: boolean(),
  /** flag | footnote; null when is_10b5_1 is false. */
  is_10b5_1_reason: text<'flag' | 'footnote'>().nullable(),
  is_10b5_1_footnote_ids: jsonb<string[]>(),
  /** Every reporting owner of the filing (a joint filing of eight owners lists eight). */
  reporting_owners: jsonb<Form4ReportingOwnerData[]>(),
  src_id: text(),
  source_url: text(),
  /** The row's XML element verbatim. */
  quote: text(),
  content_hash: text().nullable(),
  extracted_at: timestamptz().nullable(),
  record_id: text(),
  observed_at: timestamptz(),
  /** Accession of the 4/A that restates this row; null while it stands. */
  superseded_by: text().nullable(),
});

/** The columns of an InsiderTransactionRecord: one row of a Form 4 table as the read side returns it. */
const INSIDER_TRANSACTION_RECORD_FIELDS = [
  'accession', 'row_table', 'sequence', 'cik', 'kind', 'form', 'is_amendment', 'filed_date', 'period_of_report', 'sort_date',
  'security_title', 'transaction_date', 'deemed_execution_date', 'transaction_form_type', 'code', 'code_label', 'classification',
  'is_open_market', 'equity_swap_involved', 'transaction_timeliness', 'shares', 'shares_text', 'total_value', 'total_value_text',
  'price_per_share', 'price_per_share_text', 'acquired_disposed', 'shares_owned_following', 'shares_owned_following_text',
  'value_owned_following', 'value_owned_following_text', 'direct_indirect', 'nature_of_ownership', 'conversion_or_exercise_price',
  'conversion_or_exercise_price_text', 'exercise_date', 'expiration_date', 'underlying_security_title', 'underlying_shares',
  'underlying_shares_text', 'underlying_value', 'underlying_value_text', 'footnotes', 'is_10b5_1', 'is_10b5_1_reason',
  'is_10b5_1_footnote_ids', 'reporting_owners', 'src_id', 'source_url', 'quote', 'content_hash', 'extracted_at', 'superseded_by',
] as const;

/** One row of a Form 4 table as the read side returns it (read model, camelCase; not an API shape). */
export type InsiderTransactionRecord = RowOf<typeof INSIDER_TRANSACTIONS_TABLE.columns, (typeof INSIDER_TRANSACTION_RECORD_FIELDS)[number]>;

export const INSIDER_TRANSACTION_RECORD_COLUMNS = selectList(INSIDER_TRANSACTIONS_TABLE, INSIDER_TRANSACTION_RECORD_FIELDS);

/** The columns of a Form4FilingRecord: one Form 4 / 4/A filing besides its rows, what a `form4.filed` event names. */
const FORM4_FILING_RECORD_FIELDS = [
  'accession', 'cik', 'issuer_name', 'trading_symbol', 'form', 'is_amendment', 'filed_date', 'period_of_report', 'reporting_owners',
  'src_id', 'source_url', 'content_hash', 'extracted_at',
] as const;

/** One Form 4 / 4/A filing besides its rows (read model): what a `form4.filed` event names. */
export type Form4FilingRecord = RowOf<typeof FORM4_FILINGS_TABLE.columns, (typeof FORM4_FILING_RECORD_FIELDS)[number]> & {
  /** `<TICKER>:<MARKET>` of the issuer's listing under the filing's trading symbol, else its primary listing; null when none is known. */
  symbol: string | null;
};

/** The select list of a Form4FilingRecord on `form4_filings`. */
export const FORM4_FILING_RECORD_COLUMNS = `${selectList(FORM4_FILINGS_TABLE, FORM4_FILING_RECORD_FIELDS)}, ${issuerSymbolSql('form4_filings.cik', 'form4_filings.trading_symbol')} AS symbol`;
