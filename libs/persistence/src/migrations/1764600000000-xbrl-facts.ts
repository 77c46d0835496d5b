import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * XBRL facts (edgar.xbrl-facts.v1). xbrl_fact_reports holds one row per report of a value, sized for
 * 50 million rows: no per-row provenance or record id (xbrl_concepts keeps those, one row per
 * record), fixed-width columns first (no alignment padding), sources as two booleans, dimensions as
 * one canonical text ('' when consolidated) the read side parses back.
 *
 * The natural key is a UNIQUE ... NULLS NOT DISTINCT index, not a primary key: period_start is null
 * for an instant, a primary key cannot hold a null, and a sentinel date would leak into every
 * reader. NULLS NOT DISTINCT (Postgres 15+; compose and embedded Postgres run 17) makes two instants
 * of the same key conflict, so the upsert's ON CONFLICT works on it. The same index serves the one
 * read pattern (a company, a set of concepts, in concept/unit/period order); it is the only index.
 * Immutable once merged.
 */
export class XbrlFacts1764600000000 implements MigrationInterface {
  name = 'XbrlFacts1764600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE xbrl_fact_reports (
        period_end date NOT NULL,
        period_start date,
        filed date NOT NULL,
        fiscal_year integer,
        from_companyfacts boolean NOT NULL,
        from_inline_xbrl boolean NOT NULL,
        cik char(10) NOT NULL,
        concept text NOT NULL,
        unit text NOT NULL,
        dimensions text NOT NULL,
        accession text NOT NULL,
        value numeric NOT NULL,
        decimals text,
        form text NOT NULL,
        fiscal_period text,
        frame text,
        label text,
        quote text,
        document_url text,
        document_sha256 text
      )`);
    await q.query(`
      CREATE UNIQUE INDEX xbrl_fact_reports_key ON xbrl_fact_reports
        (cik, concept, unit, period_end, period_start, dimensions, accession) NULLS NOT DISTINCT`);
    await q.query(`
      CREATE TABLE xbrl_concepts (
        record_key text PRIMARY KEY,
        cik char(10) NOT NULL,
        concept text NOT NULL,
        source text NOT NULL,
        accession text,
        concept_label text,
        concept_description text,
        provenance jsonb NOT NULL,
        record_id text NOT NULL,
        data_hash text NOT NULL,
        observed_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE xbrl_concepts');
    await q.query('DROP TABLE xbrl_fact_reports');
  }
}
