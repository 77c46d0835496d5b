import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Documents filed as exhibits of SEC filings (an 8-K's EX-99.1 press release): the filing they came
 * with, how their text was read (HTML pages have no size in points), what they are about, and why
 * one has no text. Immutable once merged: change with a new migration.
 */
export class FilingDocuments1764300100000 implements MigrationInterface {
  name = 'FilingDocuments1764300100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE documents
      ADD COLUMN format text,
      ADD COLUMN subject text,
      ADD COLUMN accession text,
      ADD COLUMN filing jsonb,
      ADD COLUMN no_text text`);
    await q.query('CREATE INDEX documents_accession_idx ON documents (accession) WHERE accession IS NOT NULL');
    await q.query('ALTER TABLE document_pages ALTER COLUMN width DROP NOT NULL, ALTER COLUMN height DROP NOT NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DELETE FROM document_pages WHERE width IS NULL OR height IS NULL');
    await q.query('ALTER TABLE document_pages ALTER COLUMN width SET NOT NULL, ALTER COLUMN height SET NOT NULL');
    await q.query('DROP INDEX documents_accession_idx');
    await q.query('ALTER TABLE documents DROP COLUMN format, DROP COLUMN subject, DROP COLUMN accession, DROP COLUMN filing, DROP COLUMN no_text');
  }
}
