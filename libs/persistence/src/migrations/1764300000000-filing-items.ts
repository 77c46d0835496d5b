import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * 8-K items: null while not known (an 8-K from the daily index before the 8-K worker read it),
 * the old numbering of pre-2004 8-Ks, and a GIN index for ?items=. Filings of the feeds stored
 * before this had [] for "not known": those of an 8-K form become null.
 * Immutable once merged: change with a new migration.
 */
export class FilingItems1764300000000 implements MigrationInterface {
  name = 'FilingItems1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE filings ALTER COLUMN items DROP NOT NULL');
    await q.query('ALTER TABLE filings ADD COLUMN legacy_items jsonb');
    await q.query(`UPDATE filings SET items = NULL WHERE source IN ('daily_index', 'current_events') AND items = '[]'::jsonb AND upper(form) LIKE '8-K%'`);
    await q.query('CREATE INDEX filings_items_idx ON filings USING gin (items)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX filings_items_idx');
    await q.query('ALTER TABLE filings DROP COLUMN legacy_items');
    await q.query(`UPDATE filings SET items = '[]'::jsonb WHERE items IS NULL`);
    await q.query('ALTER TABLE filings ALTER COLUMN items SET NOT NULL');
  }
}
