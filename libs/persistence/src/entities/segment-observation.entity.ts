import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { Provenance } from '@app/contracts';

/**
 * Read model of one segment fact (edgar.segments.v1), keyed by the record key
 * `<accession>|<concept>|<axis>=<member>|<start>..<end>`. Written only by the projector. The keyset
 * index backs the list order of a company's segments: (period end, metric key, member, key), read
 * forwards for asc and backwards for desc.
 */
@Entity({ name: 'segment_observations' })
@Index('segment_observations_keyset_idx', ['cik', 'periodEnd', 'metricKey', 'member', 'recordKey'])
export class SegmentObservationEntity {
  @PrimaryColumn({ name: 'record_key', type: 'text' })
  recordKey!: string;

  @Column({ type: 'char', length: 10 })
  cik!: string;

  @Column({ type: 'text' })
  accession!: string;

  @Column({ type: 'text' })
  form!: string;

  @Column({ name: 'document_url', type: 'text' })
  documentUrl!: string;

  @Column({ name: 'metric_key', type: 'text' })
  metricKey!: string;

  @Column({ type: 'text' })
  metric!: string;

  @Column({ type: 'text' })
  concept!: string;

  @Column({ type: 'text' })
  axis!: string;

  @Column({ type: 'text' })
  dimension!: string;

  @Column({ name: 'member_qname', type: 'text' })
  memberQname!: string;

  @Column({ type: 'text' })
  member!: string;

  /** segment, corporate, eliminations or other; null for records written before kinds were read. */
  @Column({ name: 'member_kind', type: 'text', nullable: true })
  memberKind!: string | null;

  @Column({ name: 'issuer_label', type: 'text' })
  issuerLabel!: string;

  @Column({ name: 'context_id', type: 'text' })
  contextId!: string;

  @Column({ name: 'period_kind', type: 'text' })
  periodKind!: string;

  @Column({ name: 'period_start', type: 'date', nullable: true })
  periodStart!: string | null;

  @Column({ name: 'period_end', type: 'date' })
  periodEnd!: string;

  @Column({ name: 'period_calendar', type: 'text' })
  periodCalendar!: string;

  @Column({ name: 'period_fiscal', type: 'text', nullable: true })
  periodFiscal!: string | null;

  /** Exact as reported (numeric, read back as a string). */
  @Column({ type: 'numeric' })
  value!: string;

  @Column({ type: 'text' })
  unit!: string;

  @Column({ type: 'text', nullable: true })
  decimals!: string | null;

  @Column({ type: 'integer' })
  scale!: number;

  @Column({ type: 'text' })
  displayed!: string;

  @Column({ type: 'text' })
  tier!: string;

  @Column({ type: 'jsonb' })
  provenance!: Provenance;

  @Column({ name: 'record_id', type: 'text' })
  recordId!: string;

  @Column({ name: 'data_hash', type: 'text' })
  dataHash!: string;

  @Column({ name: 'observed_at', type: 'timestamptz' })
  observedAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
