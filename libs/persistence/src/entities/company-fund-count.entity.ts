import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * How many funds hold a company (the fund exposure list's `fund_count`), kept by the fund holdings
 * projection in the transaction that changes a fund's holdings: counting 5,000 funds per request
 * set the endpoint's p99 (bench/scale). A fund counts once per company with at least one current
 * equity holding of it that has a weight.
 */
@Entity({ name: 'company_fund_counts' })
export class CompanyFundCountEntity {
  @PrimaryColumn({ name: 'match_cik', type: 'char', length: 10 })
  matchCik!: string;

  @Column({ type: 'integer' })
  funds!: number;

  /** Of those, funds that are exchange-traded (`etfs_only`). */
  @Column({ name: 'etf_funds', type: 'integer' })
  etfFunds!: number;
}
