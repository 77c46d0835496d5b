import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { CompanyDetail, Provenance } from '@app/contracts';

/** Read model of one listing (ticker on a market). Written only by the projector. */
@Entity({ name: 'companies' })
export class CompanyEntity {
  @PrimaryColumn({ type: 'text' })
  symbol!: string;

  @Column({ type: 'text' })
  ticker!: string;

  @Column({ type: 'text' })
  market!: string;

  @Index('companies_cik_idx')
  @Column({ type: 'char', length: 10 })
  cik!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text', nullable: true })
  figi!: string | null;

  @Index('companies_issuer_id_idx')
  @Column({ name: 'issuer_id', type: 'bigint' })
  issuerId!: string;

  @Column({ name: 'listing_exchange', type: 'text', nullable: true })
  listingExchange!: string | null;

  @Column({ type: 'text', nullable: true })
  website!: string | null;

  @Column({ type: 'text', nullable: true })
  country!: string | null;

  @Column({ name: 'is_etf', type: 'boolean', default: false })
  isEtf!: boolean;

  @Column({ name: 'is_fund', type: 'boolean', default: false })
  isFund!: boolean;

  @Column({ name: 'is_adr', type: 'boolean', default: false })
  isAdr!: boolean;

  @Column({ type: 'text', default: 'active' })
  status!: string;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  @Column({ name: 'description_provenance', type: 'jsonb', nullable: true })
  descriptionProvenance!: Provenance | null;

  /** Everything else SEC's submissions JSON said, as the record carried it; null until fetched. */
  @Column({ name: 'sec_detail', type: 'jsonb', nullable: true })
  secDetail!: CompanyDetail | null;

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
}
