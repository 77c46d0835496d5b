import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * filings.first_seen_at: when the platform first saw the filing in any EDGAR source. Nullable with
 * no default, so adding it rewrites nothing at 10M rows; rows projected before it stay null.
 * Immutable once merged.
 */
export class FilingFirstSeen1764510000000 implements MigrationInterface {
  name = 'FilingFirstSeen1764510000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE filings ADD COLUMN first_seen_at timestamptz');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE filings DROP COLUMN first_seen_at');
  }
}
