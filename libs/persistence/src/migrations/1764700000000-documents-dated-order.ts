import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The document list puts documents whose publication date is known (an SEC filing, the IR page, the
 * PDF) before those dated only by their first sighting: a deck of 2015 first seen today no longer
 * opens the list. `dated` (1 known, 0 first-seen only) is computed by Postgres from
 * published_at_source, so neither projection writes it and it cannot drift; an integer, not a
 * boolean, because a keyset cursor carries it. The sort indexes lead with it. Immutable once merged.
 */
export class DocumentsDatedOrder1764700000000 implements MigrationInterface {
  name = 'DocumentsDatedOrder1764700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE documents ADD COLUMN dated integer NOT NULL GENERATED ALWAYS AS ((published_at_source <> 'first_seen')::integer) STORED`);
    await q.query(`DROP INDEX documents_sort_idx`);
    await q.query(`DROP INDEX documents_cik_sort_idx`);
    await q.query(`CREATE INDEX documents_sort_idx ON documents (dated, sort_at, id)`);
    await q.query(`CREATE INDEX documents_cik_sort_idx ON documents (cik, dated, sort_at, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX documents_sort_idx`);
    await q.query(`DROP INDEX documents_cik_sort_idx`);
    await q.query(`ALTER TABLE documents DROP COLUMN dated`);
    await q.query(`CREATE INDEX documents_sort_idx ON documents (sort_at, id)`);
    await q.query(`CREATE INDEX documents_cik_sort_idx ON documents (cik, sort_at, id)`);
  }
}
