import type { MigrationInterface, QueryRunner } from 'typeorm';

// Spelled as the migration writes them; Postgres normalizes them, and the table specs (filings, documents) state that normal form for db:check.
const FILING_VECTOR =
  "setweight(to_tsvector('simple', form), 'A') || setweight(to_tsvector('simple', coalesce(primary_doc_description, '')), 'B') || setweight(to_tsvector('simple', company_name), 'C')";
const PAGE_VECTOR = "to_tsvector('english', left(text, 200000))";

/**
 * Search (GET /v1/search): pg_trgm, unaccent and the indexes SearchRepository's one query uses,
 * one or two per searchable read model. Immutable once merged.
 *
 * Names and titles (short text) get expression indexes: the read models keep their columns, and
 * TypeORM's schema diff (db:check) does not see indexes made only of expressions. Filings and
 * document pages get a stored generated tsvector column instead: a match there is ranked from the
 * stored vector rather than by re-parsing the text for every matched row (a thousand filings of
 * one filer, every page of a deck), and the planner never picks a scan that parses every page.
 * The table specs state the generated columns too, as Postgres prints them, and db:check compares
 * them. (This migration also writes the typeorm_metadata rows the retired entities were compared with.)
 *
 * The queries must spell each expression exactly as here, or the planner will not use the index
 * (search.int-spec checks the plans).
 */
export class Search1763850000000 implements MigrationInterface {
  name = 'Search1763850000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await q.query(`CREATE EXTENSION IF NOT EXISTS unaccent`);
    // unaccent() is STABLE (it reads its dictionary), so it cannot sit in an index expression: this
    // wrapper pins the dictionary and is declared IMMUTABLE (the standard workaround). Names are
    // compared folded: lower case, accents removed ("José" finds "JOSE"). Schema-qualified so it
    // works under any search_path (autovacuum and ANALYZE evaluate index expressions too).
    await q.query(`
      CREATE FUNCTION search_fold(text) RETURNS text
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
        AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, $1)) $$`);

    // Companies: exact ticker, trigram name similarity, whole words of the name.
    await q.query(`CREATE INDEX companies_search_ticker_idx ON companies (upper(ticker))`);
    await q.query(`CREATE INDEX companies_search_name_trgm_idx ON companies USING gin (search_fold(name) gin_trgm_ops)`);
    await q.query(`CREATE INDEX companies_search_name_fts_idx ON companies USING gin (to_tsvector('simple', name))`);

    // People on rosters (executives, IR contacts, analysts): trigram on the name; words of name, role and affiliation.
    await q.query(`CREATE INDEX roster_entries_search_name_trgm_idx ON roster_entries USING gin (search_fold(name) gin_trgm_ops)`);
    await q.query(`CREATE INDEX roster_entries_search_fts_idx ON roster_entries USING gin (to_tsvector('simple', name || ' ' || role || ' ' || affiliation))`);

    // Filings: the form (weight A), the primary document's description (B), the filer's name (C).
    await q.query(`ALTER TABLE filings ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (${FILING_VECTOR}) STORED`);
    await q.query(`CREATE INDEX filings_search_idx ON filings USING gin (search_vector)`);

    // Documents and their pages: English text search (stemming, stop words).
    await q.query(`CREATE INDEX documents_search_fts_idx ON documents USING gin (to_tsvector('english', title))`);
    // A tsvector holds at most 1 MB: bounding the text keeps a giant page from failing the
    // projector's insert (the first 200,000 characters are searched; slide pages are far shorter).
    await q.query(`ALTER TABLE document_pages ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (${PAGE_VECTOR}) STORED`);
    await q.query(`CREATE INDEX document_pages_search_idx ON document_pages USING gin (search_vector)`);

    // TypeORM's own table (as its schema builder creates it) and the expressions of the generated columns.
    await q.query(`
      CREATE TABLE IF NOT EXISTS typeorm_metadata (
        "type" varchar NOT NULL, "database" varchar, "schema" varchar, "table" varchar, "name" varchar, "value" text)`);
    for (const [table, expression] of [['filings', FILING_VECTOR], ['document_pages', PAGE_VECTOR]] as const) {
      await q.query(
        `INSERT INTO typeorm_metadata ("type", "database", "schema", "table", "name", "value")
         VALUES ('GENERATED_COLUMN', current_database(), current_schema(), $1, 'search_vector', $2)`,
        [table, expression],
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM typeorm_metadata WHERE "type" = 'GENERATED_COLUMN' AND "name" = 'search_vector' AND "table" IN ('filings', 'document_pages')`);
    await q.query(`ALTER TABLE document_pages DROP COLUMN search_vector`);
    await q.query(`ALTER TABLE filings DROP COLUMN search_vector`);
    for (const index of [
      'documents_search_fts_idx',
      'roster_entries_search_fts_idx',
      'roster_entries_search_name_trgm_idx',
      'companies_search_name_fts_idx',
      'companies_search_name_trgm_idx',
      'companies_search_ticker_idx',
    ]) {
      await q.query(`DROP INDEX ${index}`);
    }
    await q.query(`DROP FUNCTION search_fold(text)`);
    // The extensions stay: other objects may have come to depend on them.
  }
}
