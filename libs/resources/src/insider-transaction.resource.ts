import type { FORM4_CODE_CLASSIFICATIONS, Form4ReportingOwnerData, Provenance } from '@app/contracts';
import type { Form4FilingRecord, InsiderTransactionRecord } from '@app/persistence';

/** A reporting owner as the insider list names it (the address stays in the read model). */
export interface InsiderOwnerResource {
  cik: string | null;
  name: string | null;
  is_director: boolean;
  is_officer: boolean;
  officer_title: string | null;
  is_ten_percent_owner: boolean;
  is_other: boolean;
  other_text: string | null;
}

/** One row of Tables I and II as GET /v1/companies/{symbol}/insiders serves it. */
export interface InsiderTransactionResource {
  accession: string;
  form: string;
  is_amendment: boolean;
  filed_date: string | null;
  period_of_report: string | null;
  table: 'non_derivative' | 'derivative';
  kind: 'transaction' | 'holding';
  sequence: number;
  security_title: string | null;
  transaction_date: string | null;
  deemed_execution_date: string | null;
  transaction_form_type: string | null;
  code: string | null;
  code_label: string | null;
  classification: (typeof FORM4_CODE_CLASSIFICATIONS)[number] | null;
  is_open_market: boolean;
  equity_swap_involved: boolean | null;
  transaction_timeliness: string | null;
  shares: number | null;
  shares_text: string | null;
  total_value: number | null;
  total_value_text: string | null;
  price_per_share: number | null;
  price_per_share_text: string | null;
  acquired_disposed: string | null;
  shares_owned_following: number | null;
  shares_owned_following_text: string | null;
  value_owned_following: number | null;
  value_owned_following_text: string | null;
  direct_indirect: string | null;
  nature_of_ownership: string | null;
  conversion_or_exercise_price: number | null;
  conversion_or_exercise_price_text: string | null;
  exercise_date: string | null;
  expiration_date: string | null;
  underlying_security_title: string | null;
  underlying_shares: number | null;
  underlying_shares_text: string | null;
  underlying_value: number | null;
  underlying_value_text: string | null;
  footnotes: Record<string, Array<{ id: string; text: string | null }>>;
  is_10b5_1: boolean;
  is_10b5_1_reason: 'flag' | 'footnote' | null;
  is_10b5_1_footnote_ids: string[];
  owners: InsiderOwnerResource[];
  superseded_by: string | null;
  provenance: Provenance;
}

/**
 * A Form 4 filing as `form4.filed` carries it: the filing, its issuer and owners, and every row
 * of Tables I and II exactly as the insider list serves them (Table I first, each in filed order).
 */
export interface Form4FilingResource {
  accession: string;
  form: string;
  is_amendment: boolean;
  filed_date: string | null;
  period_of_report: string | null;
  issuer: { cik: string; name: string | null; trading_symbol: string | null };
  owners: InsiderOwnerResource[];
  transactions: InsiderTransactionResource[];
  provenance: Provenance;
}

function toOwner(o: Form4ReportingOwnerData): InsiderOwnerResource {
  return {
    cik: o.cik,
    name: o.name,
    is_director: o.is_director,
    is_officer: o.is_officer,
    officer_title: o.officer_title,
    is_ten_percent_owner: o.is_ten_percent_owner,
    is_other: o.is_other,
    other_text: o.other_text,
  };
}

/** Read model -> the API's insider transaction item. */
export function toInsiderTransaction(r: InsiderTransactionRecord): InsiderTransactionResource {
  return {
    accession: r.accession,
    form: r.form,
    is_amendment: r.isAmendment,
    filed_date: r.filedDate,
    period_of_report: r.periodOfReport,
    table: r.rowTable,
    kind: r.kind,
    sequence: r.sequence,
    security_title: r.securityTitle,
    transaction_date: r.transactionDate,
    deemed_execution_date: r.deemedExecutionDate,
    transaction_form_type: r.transactionFormType,
    code: r.code,
    code_label: r.codeLabel,
    classification: r.classification as InsiderTransactionResource['classification'],
    is_open_market: r.isOpenMarket,
    equity_swap_involved: r.equitySwapInvolved,
    transaction_timeliness: r.transactionTimeliness,
    shares: r.shares,
    shares_text: r.sharesText,
    total_value: r.totalValue,
    total_value_text: r.totalValueText,
    price_per_share: r.pricePerShare,
    price_per_share_text: r.pricePerShareText,
    acquired_disposed: r.acquiredDisposed,
    shares_owned_following: r.sharesOwnedFollowing,
    shares_owned_following_text: r.sharesOwnedFollowingText,
    value_owned_following: r.valueOwnedFollowing,
    value_owned_following_text: r.valueOwnedFollowingText,
    direct_indirect: r.directIndirect,
    nature_of_ownership: r.natureOfOwnership,
    conversion_or_exercise_price: r.conversionOrExercisePrice,
    conversion_or_exercise_price_text: r.conversionOrExercisePriceText,
    exercise_date: r.exerciseDate,
    expiration_date: r.expirationDate,
    underlying_security_title: r.underlyingSecurityTitle,
    underlying_shares: r.underlyingShares,
    underlying_shares_text: r.underlyingSharesText,
    underlying_value: r.underlyingValue,
    underlying_value_text: r.underlyingValueText,
    footnotes: r.footnotes,
    is_10b5_1: r.is10b51,
    is_10b5_1_reason: r.is10b51Reason,
    is_10b5_1_footnote_ids: r.is10b51FootnoteIds,
    // The address stays in the read model: the list names owners and their relationship, not where they live.
    owners: r.reportingOwners.map(toOwner),
    superseded_by: r.supersededBy,
    provenance: {
      src_id: r.srcId,
      source_provider: 'sec',
      source_url: r.sourceUrl,
      accession: r.accession,
      quote: r.quote,
      content_hash: r.contentHash,
      extracted_at: r.extractedAt ? r.extractedAt.toISOString() : null,
    },
  };
}

/** Read model (the filing and its rows) -> the `form4.filed` payload. */
export function toForm4Filing(f: Form4FilingRecord, rows: readonly InsiderTransactionRecord[]): Form4FilingResource {
  const order = (r: InsiderTransactionRecord): number => (r.rowTable === 'non_derivative' ? 0 : 1);
  const sorted = [...rows].sort((a, b) => order(a) - order(b) || a.sequence - b.sequence);
  return {
    accession: f.accession,
    form: f.form,
    is_amendment: f.isAmendment,
    filed_date: f.filedDate,
    period_of_report: f.periodOfReport,
    issuer: { cik: f.cik, name: f.issuerName, trading_symbol: f.tradingSymbol },
    owners: f.reportingOwners.map(toOwner),
    transactions: sorted.map(toInsiderTransaction),
    provenance: {
      src_id: f.srcId,
      source_provider: 'sec',
      source_url: f.sourceUrl,
      accession: f.accession,
      quote: null,
      content_hash: f.contentHash,
      extracted_at: f.extractedAt ? f.extractedAt.toISOString() : null,
    },
  };
}
