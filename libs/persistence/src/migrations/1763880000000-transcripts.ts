import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * First-party call transcripts (issue 20): one row per document whose text passed the transcript
 * serving gate, written by the document-text projection from the transcript its last part
 * carries; participants and turns as JSON (always served whole, offsets into the document text
 * that document_pages hold). Listed by call date: transcripts_sort_idx, transcripts_cik_sort_idx.
 * documents.transcript_gate keeps why a document that looks like a transcript is not one.
 * Immutable once merged.
 */
export class Transcripts1763880000000 implements MigrationInterface {
  name = 'Transcripts1763880000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE documents ADD COLUMN transcript_gate text`);
    await q.query(`
      CREATE TABLE transcripts (
        id serial PRIMARY KEY,
        document_id integer NOT NULL CONSTRAINT transcripts_document_id_fkey REFERENCES documents (id) ON DELETE CASCADE,
        url text NOT NULL,
        cik char(10) NOT NULL,
        ticker text,
        company text,
        title text,
        call_date date NOT NULL,
        date_source text NOT NULL,
        participants jsonb NOT NULL,
        turns jsonb NOT NULL,
        turn_count integer NOT NULL,
        front_matter jsonb NOT NULL,
        back_matter jsonb,
        content_hash text NOT NULL,
        src_id text NOT NULL,
        source_url text NOT NULL,
        quote text,
        extracted_at timestamptz,
        record_id text NOT NULL,
        first_seen_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX transcripts_url_uq ON transcripts (url)`);
    await q.query(`CREATE UNIQUE INDEX transcripts_document_id_uq ON transcripts (document_id)`);
    await q.query(`CREATE INDEX transcripts_sort_idx ON transcripts (call_date, id)`);
    await q.query(`CREATE INDEX transcripts_cik_sort_idx ON transcripts (cik, call_date, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE transcripts`);
    await q.query(`ALTER TABLE documents DROP COLUMN transcript_gate`);
  }
}
