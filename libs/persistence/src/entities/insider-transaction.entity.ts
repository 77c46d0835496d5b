import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * Read model of one row of Table I or II of a Form 4 / 4/A (a transaction or a holding), keyed by
 * (accession, table, sequence): tranches stay separate rows. The issuer's CIK owns the row. A row
 * restated by a later 4/A is never deleted: `superseded_by` names the amendment. The keyset index
 * backs /v1/companies/{symbol}/insiders (sort_date, then the natural key). Written only by the projector.
 */
@Entity({ name: 'insider_transactions' })
@Index('insider_transactions_keyset_idx', ['cik', 'sortDate', 'accession', 'rowTable', 'sequence'])
export class InsiderTransactionEntity {
  @PrimaryColumn({ type: 'text' })
  accession!: string;

  /** non_derivative (Table I) | derivative (Table II). */
  @PrimaryColumn({ name: 'row_table', type: 'text' })
  rowTable!: string;

  /** 0-based position in its table, transactions and holdings together. */
  @PrimaryColumn({ type: 'integer' })
  sequence!: number;

  @Column({ type: 'char', length: 10 })
  cik!: string;

  /** transaction | holding */
  @Column({ type: 'text' })
  kind!: string;

  @Column({ type: 'text' })
  form!: string;

  @Column({ name: 'is_amendment', type: 'boolean' })
  isAmendment!: boolean;

  @Column({ name: 'filed_date', type: 'date', nullable: true })
  filedDate!: string | null;

  /** As filed (xs:date). */
  @Column({ name: 'period_of_report', type: 'text', nullable: true })
  periodOfReport!: string | null;

  /** The transaction date; a holding (or a date that is not YYYY-MM-DD) takes the period of report, else the filing's effective date. */
  @Column({ name: 'sort_date', type: 'date' })
  sortDate!: string;

  @Column({ name: 'security_title', type: 'text', nullable: true })
  securityTitle!: string | null;

  /** As filed (xs:date). */
  @Column({ name: 'transaction_date', type: 'text', nullable: true })
  transactionDate!: string | null;

  @Column({ name: 'deemed_execution_date', type: 'text', nullable: true })
  deemedExecutionDate!: string | null;

  @Column({ name: 'transaction_form_type', type: 'text', nullable: true })
  transactionFormType!: string | null;

  @Column({ type: 'text', nullable: true })
  code!: string | null;

  @Column({ name: 'code_label', type: 'text', nullable: true })
  codeLabel!: string | null;

  @Column({ type: 'text', nullable: true })
  classification!: string | null;

  @Column({ name: 'is_open_market', type: 'boolean' })
  isOpenMarket!: boolean;

  @Column({ name: 'equity_swap_involved', type: 'boolean', nullable: true })
  equitySwapInvolved!: boolean | null;

  @Column({ name: 'transaction_timeliness', type: 'text', nullable: true })
  transactionTimeliness!: string | null;

  @Column({ type: 'numeric', nullable: true })
  shares!: string | null;

  @Column({ name: 'shares_text', type: 'text', nullable: true })
  sharesText!: string | null;

  @Column({ name: 'total_value', type: 'numeric', nullable: true })
  totalValue!: string | null;

  @Column({ name: 'total_value_text', type: 'text', nullable: true })
  totalValueText!: string | null;

  @Column({ name: 'price_per_share', type: 'numeric', nullable: true })
  pricePerShare!: string | null;

  @Column({ name: 'price_per_share_text', type: 'text', nullable: true })
  pricePerShareText!: string | null;

  @Column({ name: 'acquired_disposed', type: 'text', nullable: true })
  acquiredDisposed!: string | null;

  @Column({ name: 'shares_owned_following', type: 'numeric', nullable: true })
  sharesOwnedFollowing!: string | null;

  @Column({ name: 'shares_owned_following_text', type: 'text', nullable: true })
  sharesOwnedFollowingText!: string | null;

  @Column({ name: 'value_owned_following', type: 'numeric', nullable: true })
  valueOwnedFollowing!: string | null;

  @Column({ name: 'value_owned_following_text', type: 'text', nullable: true })
  valueOwnedFollowingText!: string | null;

  @Column({ name: 'direct_indirect', type: 'text', nullable: true })
  directIndirect!: string | null;

  @Column({ name: 'nature_of_ownership', type: 'text', nullable: true })
  natureOfOwnership!: string | null;

  @Column({ name: 'conversion_or_exercise_price', type: 'numeric', nullable: true })
  conversionOrExercisePrice!: string | null;

  @Column({ name: 'conversion_or_exercise_price_text', type: 'text', nullable: true })
  conversionOrExercisePriceText!: string | null;

  @Column({ name: 'exercise_date', type: 'text', nullable: true })
  exerciseDate!: string | null;

  @Column({ name: 'expiration_date', type: 'text', nullable: true })
  expirationDate!: string | null;

  @Column({ name: 'underlying_security_title', type: 'text', nullable: true })
  underlyingSecurityTitle!: string | null;

  @Column({ name: 'underlying_shares', type: 'numeric', nullable: true })
  underlyingShares!: string | null;

  @Column({ name: 'underlying_shares_text', type: 'text', nullable: true })
  underlyingSharesText!: string | null;

  @Column({ name: 'underlying_value', type: 'numeric', nullable: true })
  underlyingValue!: string | null;

  @Column({ name: 'underlying_value_text', type: 'text', nullable: true })
  underlyingValueText!: string | null;

  /** {field: [{id, text}]}: the footnotes the row cites, resolved to their text. */
  @Column({ type: 'jsonb' })
  footnotes!: unknown;

  @Column({ name: 'is_10b5_1', type: 'boolean' })
  is10b51!: boolean;

  /** flag | footnote; null when is_10b5_1 is false. */
  @Column({ name: 'is_10b5_1_reason', type: 'text', nullable: true })
  is10b51Reason!: string | null;

  @Column({ name: 'is_10b5_1_footnote_ids', type: 'jsonb' })
  is10b51FootnoteIds!: unknown;

  /** Every reporting owner of the filing (a joint filing of eight owners lists eight). */
  @Column({ name: 'reporting_owners', type: 'jsonb' })
  reportingOwners!: unknown;

  @Column({ name: 'src_id', type: 'text' })
  srcId!: string;

  @Column({ name: 'source_url', type: 'text' })
  sourceUrl!: string;

  /** The row's XML element verbatim. */
  @Column({ type: 'text' })
  quote!: string;

  @Column({ name: 'content_hash', type: 'text', nullable: true })
  contentHash!: string | null;

  @Column({ name: 'extracted_at', type: 'timestamptz', nullable: true })
  extractedAt!: Date | null;

  @Column({ name: 'record_id', type: 'text' })
  recordId!: string;

  @Column({ name: 'observed_at', type: 'timestamptz' })
  observedAt!: Date;

  /** Accession of the 4/A that restates this row; null while it stands. */
  @Column({ name: 'superseded_by', type: 'text', nullable: true })
  supersededBy!: string | null;
}
