import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * Read model of one Form 4 / 4/A filing (edgar.form4.v1), keyed by accession: what the filing
 * states besides its rows (owners, footnotes, remarks), and the keys the projection needs to
 * find the filings a 4/A restates and to rebuild the SEC roster. Written only by the projector.
 */
@Entity({ name: 'form4_filings' })
@Index('form4_filings_family_idx', ['cik', 'ownersKey', 'periodOfReport'])
export class Form4FilingEntity {
  @PrimaryColumn({ type: 'text' })
  accession!: string;

  /** The issuer's CIK: every row of the filing is in its securities. */
  @Column({ type: 'char', length: 10 })
  cik!: string;

  @Column({ name: 'issuer_name', type: 'text', nullable: true })
  issuerName!: string | null;

  @Column({ name: 'trading_symbol', type: 'text', nullable: true })
  tradingSymbol!: string | null;

  @Column({ type: 'text' })
  form!: string;

  @Column({ name: 'is_amendment', type: 'boolean' })
  isAmendment!: boolean;

  /** As filed (xs:date). */
  @Column({ name: 'date_of_original_submission', type: 'text', nullable: true })
  dateOfOriginalSubmission!: string | null;

  /** As filed (xs:date). */
  @Column({ name: 'period_of_report', type: 'text', nullable: true })
  periodOfReport!: string | null;

  @Column({ name: 'filed_date', type: 'date', nullable: true })
  filedDate!: string | null;

  @Column({ name: 'accepted_at', type: 'timestamptz', nullable: true })
  acceptedAt!: Date | null;

  /** The filing date, else the period of report, else the day the record was observed: orders filings of one owner. */
  @Column({ name: 'effective_date', type: 'date' })
  effectiveDate!: string;

  /** The date of the original filing of the family: date_of_original_submission on a 4/A, the filing date on a 4. */
  @Column({ name: 'original_date', type: 'date', nullable: true })
  originalDate!: string | null;

  /** Sorted reporting owner identities (CIK, else the normalized name): a 4/A restates filings of the same owners. */
  @Column({ name: 'owners_key', type: 'text' })
  ownersKey!: string;

  @Column({ name: 'reporting_owners', type: 'jsonb' })
  reportingOwners!: unknown;

  @Column({ type: 'boolean', nullable: true })
  aff10b5one!: boolean | null;

  @Column({ name: 'no_securities_owned', type: 'boolean', nullable: true })
  noSecuritiesOwned!: boolean | null;

  @Column({ name: 'not_subject_to_section16', type: 'boolean', nullable: true })
  notSubjectToSection16!: boolean | null;

  @Column({ name: 'schema_version', type: 'text', nullable: true })
  schemaVersion!: string | null;

  /** [{id, text}] in document order. */
  @Column({ type: 'jsonb' })
  footnotes!: unknown;

  @Column({ name: 'rule_10b5_1_footnote_ids', type: 'jsonb' })
  rule10b51FootnoteIds!: unknown;

  @Column({ type: 'text', nullable: true })
  remarks!: string | null;

  @Column({ type: 'jsonb' })
  signatures!: unknown;

  /** On a 4/A: the filing the projection found it restates, or why it restates nothing. Null on a 4. */
  @Column({ name: 'amendment_note', type: 'text', nullable: true })
  amendmentNote!: string | null;

  @Column({ name: 'transaction_count', type: 'integer' })
  transactionCount!: number;

  @Column({ name: 'holding_count', type: 'integer' })
  holdingCount!: number;

  @Column({ name: 'src_id', type: 'text' })
  srcId!: string;

  @Column({ name: 'source_url', type: 'text' })
  sourceUrl!: string;

  @Column({ type: 'text', nullable: true })
  quote!: string | null;

  @Column({ name: 'content_hash', type: 'text', nullable: true })
  contentHash!: string | null;

  @Column({ name: 'extracted_at', type: 'timestamptz', nullable: true })
  extractedAt!: Date | null;

  /** The form4@1 record last applied: the same record twice writes nothing. */
  @Column({ name: 'record_id', type: 'text' })
  recordId!: string;

  /** observed_at of that record: an older record never overwrites a newer one. */
  @Column({ name: 'observed_at', type: 'timestamptz' })
  observedAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}

/**
 * One reporting owner of one Form 4 filing, by issuer: how the projection finds the issuer's
 * filings naming an owner (the roster entries) without reading every filing's owners JSON.
 * Written only by the projector, with its filing (no foreign key, as insider_transactions has none).
 */
@Entity({ name: 'form4_filing_owners' })
@Index('form4_filing_owners_accession_idx', ['accession'])
export class Form4FilingOwnerEntity {
  @PrimaryColumn({ type: 'char', length: 10 })
  cik!: string;

  /** form4OwnerKey: `cik:<owner CIK>`, else `name:<normalized name>`. */
  @PrimaryColumn({ name: 'owner_key', type: 'text' })
  ownerKey!: string;

  @PrimaryColumn({ type: 'text' })
  accession!: string;
}
