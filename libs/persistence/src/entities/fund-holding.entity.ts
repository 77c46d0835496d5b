import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { Provenance } from '@app/contracts';

/**
 * Read model of one holding (invstOrSec) of one N-PORT filing. Rows of a filing become current
 * (`is_current`) once every holding of it has arrived and it is the fund's latest; older filings'
 * rows are then deleted. The two keyset indexes back the fund-exposure sorts per company (the
 * weight one also the fund count).
 */
@Entity({ name: 'fund_holdings' })
@Index('fund_holdings_exposure_value_idx', ['matchCik', 'valUsd', 'accession', 'holdingIndex'])
export class FundHoldingEntity {
  @PrimaryColumn({ type: 'text' })
  accession!: string;

  @PrimaryColumn({ name: 'holding_index', type: 'integer' })
  holdingIndex!: number;

  @Index('fund_holdings_fund_key_idx')
  @Column({ name: 'fund_key', type: 'text' })
  fundKey!: string;

  @Column({ name: 'report_date', type: 'date' })
  reportDate!: string;

  @Column({ name: 'is_current', type: 'boolean', default: false })
  isCurrent!: boolean;

  @Column({ type: 'text', nullable: true })
  name!: string | null;

  @Column({ type: 'text', nullable: true })
  title!: string | null;

  @Column({ type: 'text', nullable: true })
  lei!: string | null;

  @Column({ type: 'text', nullable: true })
  cusip!: string | null;

  @Column({ type: 'text', nullable: true })
  isin!: string | null;

  @Column({ type: 'text', nullable: true })
  ticker!: string | null;

  @Column({ name: 'other_ids', type: 'jsonb' })
  otherIds!: unknown;

  @Column({ type: 'numeric', nullable: true })
  balance!: string | null;

  @Column({ type: 'text', nullable: true })
  units!: string | null;

  @Column({ name: 'cur_cd', type: 'text', nullable: true })
  curCd!: string | null;

  @Column({ name: 'val_usd', type: 'numeric', nullable: true })
  valUsd!: string | null;

  @Column({ name: 'pct_val', type: 'numeric', nullable: true })
  pctVal!: string | null;

  @Column({ name: 'payoff_profile', type: 'text', nullable: true })
  payoffProfile!: string | null;

  @Column({ name: 'asset_cat', type: 'text', nullable: true })
  assetCat!: string | null;

  @Column({ name: 'asset_conditional', type: 'jsonb', nullable: true })
  assetConditional!: unknown;

  @Column({ name: 'issuer_cat', type: 'text', nullable: true })
  issuerCat!: string | null;

  @Column({ name: 'issuer_conditional', type: 'jsonb', nullable: true })
  issuerConditional!: unknown;

  @Column({ name: 'inv_country', type: 'text', nullable: true })
  invCountry!: string | null;

  @Column({ name: 'fair_val_level', type: 'text', nullable: true })
  fairValLevel!: string | null;

  @Column({ name: 'is_restricted', type: 'boolean', nullable: true })
  isRestricted!: boolean | null;

  /** Leads fund_holdings_exposure_weight_idx (match_cik, pct_val, accession, holding_index) INCLUDE (fund_key, is_current, asset_cat): TypeORM cannot state INCLUDE, its migration makes it. */
  @Index('fund_holdings_exposure_weight_idx', { synchronize: false })
  @Column({ name: 'match_cik', type: 'char', length: 10, nullable: true })
  matchCik!: string | null;

  @Column({ name: 'match_symbol', type: 'text', nullable: true })
  matchSymbol!: string | null;

  @Column({ name: 'match_method', type: 'text', nullable: true })
  matchMethod!: string | null;

  @Column({ name: 'match_confidence', type: 'double precision' })
  matchConfidence!: number;

  /** The record's provenance with this holding's own verbatim quote. */
  @Column({ type: 'jsonb' })
  provenance!: Provenance;

  @Column({ name: 'record_id', type: 'text' })
  recordId!: string;

  @Column({ name: 'data_hash', type: 'text' })
  dataHash!: string;
}
