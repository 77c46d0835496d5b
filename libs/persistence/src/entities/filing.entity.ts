import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { Provenance } from '@app/contracts';

/**
 * Read model of one EDGAR filing, keyed by accession. Written only by the projector. The two
 * keyset indexes back the list orders: (filed_date, accession) overall and per CIK; B-tree
 * indexes are read backwards for the default descending order.
 */
@Entity({ name: 'filings' })
@Index('filings_filed_date_accession_idx', ['filedDate', 'accession'])
@Index('filings_cik_filed_date_accession_idx', ['cik', 'filedDate', 'accession'])
export class FilingEntity {
  @PrimaryColumn({ type: 'text' })
  accession!: string;

  @Column({ type: 'char', length: 10 })
  cik!: string;

  @Column({ name: 'company_name', type: 'text' })
  companyName!: string;

  /** Leads filings_search_form_idx (upper(form), filed_date DESC, accession COLLATE "C"), search's form candidates: TypeORM cannot state expressions, its migration makes it. */
  @Index('filings_search_form_idx', { synchronize: false })
  @Column({ type: 'text' })
  form!: string;

  @Column({ name: 'filed_date', type: 'date' })
  filedDate!: string;

  @Column({ name: 'accepted_at', type: 'timestamptz', nullable: true })
  acceptedAt!: Date | null;

  @Column({ name: 'report_period', type: 'date', nullable: true })
  reportPeriod!: string | null;

  @Column({ name: 'primary_document_url', type: 'text', nullable: true })
  primaryDocumentUrl!: string | null;

  @Column({ name: 'primary_doc_description', type: 'text', nullable: true })
  primaryDocDescription!: string | null;

  @Column({ type: 'jsonb' })
  items!: string[];

  @Column({ type: 'bigint', nullable: true })
  size!: string | null;

  @Column({ name: 'is_xbrl', type: 'boolean', nullable: true })
  isXbrl!: boolean | null;

  @Column({ name: 'is_inline_xbrl', type: 'boolean', nullable: true })
  isInlineXbrl!: boolean | null;

  @Column({ name: 'is_amendment', type: 'boolean' })
  isAmendment!: boolean;

  @Column({ name: 'amends_accession', type: 'text', nullable: true })
  amendsAccession!: string | null;

  @Column({ type: 'text', nullable: true })
  act!: string | null;

  @Column({ name: 'file_number', type: 'text', nullable: true })
  fileNumber!: string | null;

  @Column({ name: 'film_number', type: 'text', nullable: true })
  filmNumber!: string | null;

  /** submissions | daily_index | current_events: a richer source is never overwritten by a poorer one. */
  @Column({ type: 'text' })
  source!: string;

  @Column({ type: 'jsonb' })
  provenance!: Provenance;

  @Column({ name: 'record_id', type: 'text' })
  recordId!: string;

  /** Hash of the record's data: an unchanged hash means no write. */
  @Column({ name: 'data_hash', type: 'text' })
  dataHash!: string;

  @Column({ name: 'observed_at', type: 'timestamptz' })
  observedAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;

  /** Search: words of the form (weight A), the primary document's description (B) and the filer's name (C). Postgres computes it; never selected. */
  @Index('filings_search_idx', { synchronize: false })
  @Column({
    name: 'search_vector',
    type: 'tsvector',
    nullable: true,
    select: false,
    insert: false,
    update: false,
    generatedType: 'STORED',
    asExpression:
      "setweight(to_tsvector('simple', form), 'A') || setweight(to_tsvector('simple', coalesce(primary_doc_description, '')), 'B') || setweight(to_tsvector('simple', company_name), 'C')",
  })
  searchVector?: string | null;
}
