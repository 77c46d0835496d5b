import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * 10-K read models (edgar.tenk-sections.v1): tenk_sections, the newest 10-K's Items 1, 1A and 7 per
 * issuer; tenk_descriptions, the opening of the newest Item 1 that gave one (a later 10-K whose
 * Item 1 gives none leaves it). Immutable once merged: change with a new migration.
 */
export class TenkSections1763881000000 implements MigrationInterface {
  name = 'TenkSections1763881000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE tenk_sections (
        cik char(10) NOT NULL,
        item text NOT NULL,
        accession text NOT NULL,
        form text NOT NULL,
        filed_date date,
        period_ended date,
        document_url text NOT NULL,
        text_length integer NOT NULL,
        extractor_version text NOT NULL,
        title text NOT NULL,
        status text NOT NULL,
        reason text,
        heading text,
        char_start integer,
        char_end integer,
        length integer,
        cross_reference_pages text,
        text text,
        provenance jsonb NOT NULL,
        record_id text NOT NULL,
        observed_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (cik, item)
      )`);
    await q.query(`
      CREATE TABLE tenk_descriptions (
        cik char(10) PRIMARY KEY,
        description text NOT NULL,
        accession text NOT NULL,
        form text NOT NULL,
        filed_date date,
        period_ended date,
        char_start integer NOT NULL,
        char_end integer NOT NULL,
        provenance jsonb NOT NULL,
        record_id text NOT NULL,
        observed_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE tenk_descriptions`);
    await q.query(`DROP TABLE tenk_sections`);
  }
}
