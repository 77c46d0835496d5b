import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issuer IR read models: roster_entries, company_descriptions, ir_events, documents and
 * document_pages (ir.roster.v1, ir.descriptions.v1, ir.documents.v1, ir.document-texts.v1).
 * Immutable once merged.
 */
export class IssuerPages1763810000000 implements MigrationInterface {
  name = 'IssuerPages1763810000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE roster_entries (
        id serial PRIMARY KEY,
        cik char(10) NOT NULL,
        category text NOT NULL,
        source_provider text NOT NULL,
        person_key text NOT NULL,
        name text NOT NULL,
        role text NOT NULL,
        affiliation text NOT NULL,
        email text,
        phone text,
        rank integer NOT NULL,
        is_current boolean NOT NULL,
        src_id text NOT NULL,
        source_url text,
        quote text,
        content_hash text,
        extracted_at timestamptz,
        accession text,
        record_id text NOT NULL,
        record_observed_at timestamptz NOT NULL,
        first_seen_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE UNIQUE INDEX roster_entries_person_key_uq ON roster_entries (cik, category, source_provider, person_key)`);
    await q.query(`CREATE INDEX roster_entries_list_idx ON roster_entries (cik, category, is_current, rank)`);
    await q.query(`
      CREATE TABLE company_descriptions (
        cik char(10) PRIMARY KEY,
        ticker text,
        description text NOT NULL,
        src_id text NOT NULL,
        source_url text NOT NULL,
        quote text NOT NULL,
        content_hash text NOT NULL,
        extracted_at timestamptz,
        record_id text NOT NULL,
        observed_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE ir_events (
        id serial PRIMARY KEY,
        cik char(10) NOT NULL,
        event_key text NOT NULL,
        title text NOT NULL,
        event_date date,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX ir_events_event_key_uq ON ir_events (event_key)`);
    await q.query(`CREATE INDEX ir_events_cik_idx ON ir_events (cik)`);
    await q.query(`
      CREATE TABLE documents (
        id serial PRIMARY KEY,
        url text NOT NULL,
        cik char(10) NOT NULL,
        ticker text,
        title text NOT NULL,
        kind text,
        doc_type text NOT NULL,
        doc_group text NOT NULL,
        language text,
        is_pdf boolean,
        published_at timestamptz,
        pdf_created_at timestamptz,
        sort_at timestamptz NOT NULL,
        published_at_source text NOT NULL,
        event_id integer CONSTRAINT documents_event_id_fkey REFERENCES ir_events (id),
        page_count integer,
        page_separator text,
        text_length integer,
        found_on text,
        link_quote text,
        link_content_hash text,
        link_src_id text,
        link_extracted_at timestamptz,
        link_record_id text,
        link_observed_at timestamptz,
        text_content_hash text,
        text_source_url text,
        text_quote text,
        text_src_id text,
        text_extracted_at timestamptz,
        text_record_id text,
        text_observed_at timestamptz,
        pdf_bytes integer,
        pdf_info jsonb,
        first_seen_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX documents_url_uq ON documents (url)`);
    await q.query(`CREATE INDEX documents_sort_idx ON documents (sort_at, id)`);
    await q.query(`CREATE INDEX documents_cik_sort_idx ON documents (cik, sort_at, id)`);
    await q.query(`CREATE INDEX documents_event_id_idx ON documents (event_id)`);
    await q.query(`
      CREATE TABLE document_pages (
        document_id integer NOT NULL CONSTRAINT document_pages_document_id_fkey REFERENCES documents (id) ON DELETE CASCADE,
        page_index integer NOT NULL,
        char_start integer NOT NULL,
        char_end integer NOT NULL,
        text text NOT NULL,
        vision_caption text NOT NULL,
        caption_source text NOT NULL,
        quote text,
        width double precision NOT NULL,
        height double precision NOT NULL,
        content_hash text NOT NULL,
        PRIMARY KEY (document_id, page_index)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE document_pages`);
    await q.query(`DROP TABLE documents`);
    await q.query(`DROP TABLE ir_events`);
    await q.query(`DROP TABLE company_descriptions`);
    await q.query(`DROP TABLE roster_entries`);
  }
}
