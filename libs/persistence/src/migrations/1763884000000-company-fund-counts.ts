import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * company_fund_counts: the fund exposure list's fund_count per company, kept by the fund holdings
 * projection, filled here from the holdings already projected. Immutable once merged.
 */
export class CompanyFundCounts1763884000000 implements MigrationInterface {
  name = 'CompanyFundCounts1763884000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE company_fund_counts (
        match_cik char(10) PRIMARY KEY,
        funds integer NOT NULL,
        etf_funds integer NOT NULL
      )`);
    await q.query(`
      INSERT INTO company_fund_counts (match_cik, funds, etf_funds)
      SELECT h.match_cik, count(DISTINCT h.fund_key), count(DISTINCT h.fund_key) FILTER (WHERE f.is_etf)
        FROM fund_holdings h LEFT JOIN funds f ON f.fund_key = h.fund_key
       WHERE h.match_cik IS NOT NULL AND h.is_current AND h.asset_cat = 'EC' AND h.pct_val IS NOT NULL
       GROUP BY h.match_cik`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE company_fund_counts`);
  }
}
