import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { FundHeader, Provenance } from '@app/contracts';

/** Read model of one fund (an N-PORT series, or a registrant without series) at its latest complete filing. */
@Entity({ name: 'funds' })
export class FundEntity {
  /** Series id (S000013795) or CIK<10 digits>. */
  @PrimaryColumn({ name: 'fund_key', type: 'text' })
  fundKey!: string;

  @Index('funds_registrant_cik_idx')
  @Column({ name: 'registrant_cik', type: 'char', length: 10 })
  registrantCik!: string;

  @Column({ name: 'registrant_name', type: 'text', nullable: true })
  registrantName!: string | null;

  @Column({ name: 'series_id', type: 'text', nullable: true })
  seriesId!: string | null;

  @Column({ name: 'series_name', type: 'text', nullable: true })
  seriesName!: string | null;

  @Column({ name: 'fund_ticker', type: 'text', nullable: true })
  fundTicker!: string | null;

  @Column({ name: 'is_etf', type: 'boolean', default: false })
  isEtf!: boolean;

  /** The header as the record carried it (classes, LEIs, assets, ...). */
  @Column({ type: 'jsonb' })
  header!: FundHeader;

  /** The filing whose holdings are current (the latest complete one by report date). */
  @Column({ type: 'text' })
  accession!: string;

  @Column({ name: 'report_date', type: 'date' })
  reportDate!: string;

  @Column({ name: 'net_assets', type: 'numeric', nullable: true })
  netAssets!: string | null;

  @Column({ type: 'jsonb' })
  provenance!: Provenance;

  @Column({ name: 'data_hash', type: 'text' })
  dataHash!: string;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
