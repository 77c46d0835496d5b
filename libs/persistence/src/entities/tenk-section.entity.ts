import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Provenance } from '@app/contracts';

/**
 * One item (1, 1A, 7) of an issuer's newest 10-K (edgar.tenk-sections.v1), by CIK and item. A
 * record of an older 10-K (by period, then filing date) never replaces it. Written only by the projector.
 */
@Entity({ name: 'tenk_sections' })
export class TenkSectionEntity {
  @PrimaryColumn({ type: 'char', length: 10 })
  cik!: string;

  @PrimaryColumn({ type: 'text' })
  item!: string;

  @Column({ type: 'text' })
  accession!: string;

  @Column({ type: 'text' })
  form!: string;

  @Column({ name: 'filed_date', type: 'date', nullable: true })
  filedDate!: string | null;

  @Column({ name: 'period_ended', type: 'date', nullable: true })
  periodEnded!: string | null;

  @Column({ name: 'document_url', type: 'text' })
  documentUrl!: string;

  @Column({ name: 'text_length', type: 'integer' })
  textLength!: number;

  @Column({ name: 'extractor_version', type: 'text' })
  extractorVersion!: string;

  @Column({ type: 'text' })
  title!: string;

  @Column({ type: 'text' })
  status!: string;

  @Column({ type: 'text', nullable: true })
  reason!: string | null;

  @Column({ type: 'text', nullable: true })
  heading!: string | null;

  @Column({ name: 'char_start', type: 'integer', nullable: true })
  charStart!: number | null;

  @Column({ name: 'char_end', type: 'integer', nullable: true })
  charEnd!: number | null;

  @Column({ type: 'integer', nullable: true })
  length!: number | null;

  @Column({ name: 'cross_reference_pages', type: 'text', nullable: true })
  crossReferencePages!: string | null;

  @Column({ type: 'text', nullable: true })
  text!: string | null;

  @Column({ type: 'jsonb' })
  provenance!: Provenance;

  @Column({ name: 'record_id', type: 'text' })
  recordId!: string;

  @Column({ name: 'observed_at', type: 'timestamptz' })
  observedAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}

/**
 * The issuer's description from the opening of Item 1 of its newest 10-K that gave one, by CIK.
 * Apart from tenk_sections so a later 10-K without one (Item 1 incorporated by reference, or failed)
 * never empties it. Written only by the projector.
 */
@Entity({ name: 'tenk_descriptions' })
export class TenkDescriptionEntity {
  @PrimaryColumn({ type: 'char', length: 10 })
  cik!: string;

  @Column({ type: 'text' })
  description!: string;

  @Column({ type: 'text' })
  accession!: string;

  @Column({ type: 'text' })
  form!: string;

  @Column({ name: 'filed_date', type: 'date', nullable: true })
  filedDate!: string | null;

  @Column({ name: 'period_ended', type: 'date', nullable: true })
  periodEnded!: string | null;

  @Column({ name: 'char_start', type: 'integer' })
  charStart!: number;

  @Column({ name: 'char_end', type: 'integer' })
  charEnd!: number;

  @Column({ type: 'jsonb' })
  provenance!: Provenance;

  @Column({ name: 'record_id', type: 'text' })
  recordId!: string;

  @Column({ name: 'observed_at', type: 'timestamptz' })
  observedAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
