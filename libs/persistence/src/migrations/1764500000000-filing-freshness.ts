import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * filing_freshness: when the pipeline first saw, published and served each filing found by live
 * discovery (the latest-filings feed, the current events listing, the daily index), against EDGAR's
 * acceptance time. Backfilled filings (history, not news) have no row. The later stages (webhook
 * event, first attempt, delivery) are read from the webhook tables when asked, not copied here.
 * The two indexes serve the "last N filings" window, overall and of one form (newest first).
 * Immutable once merged.
 */
export class FilingFreshness1764500000000 implements MigrationInterface {
  name = 'FilingFreshness1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE filing_freshness (
        accession text PRIMARY KEY,
        cik character(10) NOT NULL,
        form text NOT NULL,
        accepted_at timestamptz NOT NULL,
        first_seen_at timestamptz NOT NULL,
        first_seen_source text NOT NULL,
        published_at timestamptz,
        projected_at timestamptz NOT NULL
      )`);
    await q.query('CREATE INDEX filing_freshness_accepted_idx ON filing_freshness (accepted_at DESC, accession DESC)');
    await q.query('CREATE INDEX filing_freshness_form_accepted_idx ON filing_freshness (upper(form), accepted_at DESC, accession DESC)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE filing_freshness');
  }
}
