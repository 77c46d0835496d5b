import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One document from two sources: a press release an issuer links on its IR site and files as an
 * 8-K exhibit is one row. The row keeps the URL it was first seen under; document_aliases maps the
 * other source's URL to it, and link_url / filing_url name each source's URL.
 * Immutable once merged: change with a new migration.
 */
export class DocumentSources1764300200000 implements MigrationInterface {
  name = 'DocumentSources1764300200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE documents ADD COLUMN link_url text, ADD COLUMN filing_url text, ADD COLUMN text_url text');
    await q.query('UPDATE documents SET link_url = url WHERE link_record_id IS NOT NULL');
    await q.query('UPDATE documents SET text_url = url WHERE text_record_id IS NOT NULL');
    await q.query(`
      CREATE TABLE document_aliases (
        url text PRIMARY KEY,
        document_id integer NOT NULL CONSTRAINT document_aliases_document_id_fkey REFERENCES documents (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX document_aliases_document_id_idx ON document_aliases (document_id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE document_aliases');
    await q.query('ALTER TABLE documents DROP COLUMN link_url, DROP COLUMN filing_url, DROP COLUMN text_url');
  }
}
