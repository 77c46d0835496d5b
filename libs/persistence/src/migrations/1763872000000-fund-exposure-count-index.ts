import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The funds holding a company, for fund exposure's fund count: a partial index of the current
 * equity holdings with a weight, by (match_cik, fund_key), so the count is an index-only scan of
 * the company's entries instead of a heap visit per holding (385 ms p99 at concurrency 32 for a
 * company held by 5,000 funds in bench/scale). Its predicate is the list's filter, written out.
 * Immutable once merged.
 */
export class FundExposureCountIndex1763872000000 implements MigrationInterface {
  name = 'FundExposureCountIndex1763872000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE INDEX fund_holdings_exposure_funds_idx ON fund_holdings (match_cik, fund_key)
      WHERE is_current AND asset_cat = 'EC' AND pct_val IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX fund_holdings_exposure_funds_idx`);
  }
}
