import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The issuer's own description of itself (ir.descriptions.v1), by CIK. Kept apart from `companies`
 * so neither topic has to arrive first and the SEC fields are never overwritten; the companies
 * detail reads it when present.
 */
@Entity({ name: 'company_descriptions' })
export class CompanyDescriptionEntity {
  @PrimaryColumn({ type: 'char', length: 10 })
  cik!: string;

  @Column({ type: 'text', nullable: true })
  ticker!: string | null;

  @Column({ type: 'text' })
  description!: string;

  @Column({ name: 'src_id', type: 'text' })
  srcId!: string;

  @Column({ name: 'source_url', type: 'text' })
  sourceUrl!: string;

  @Column({ type: 'text' })
  quote!: string;

  @Column({ name: 'content_hash', type: 'text' })
  contentHash!: string;

  @Column({ name: 'extracted_at', type: 'timestamptz', nullable: true })
  extractedAt!: Date | null;

  @Column({ name: 'record_id', type: 'text' })
  recordId!: string;

  @Column({ name: 'observed_at', type: 'timestamptz' })
  observedAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
