import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Filings read model (edgar.filings.v1). Immutable once merged: change with a new migration. */
export class Filings1763780000000 implements MigrationInterface {
  name = 'Filings1763780000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE filings (
        accession text PRIMARY KEY,
        cik char(10) NOT NULL,
        company_name text NOT NULL,
        form text NOT NULL,
        filed_date date NOT NULL,
        accepted_at timestamptz,
        report_period date,
        primary_document_url text,
        primary_doc_description text,
        items jsonb NOT NULL,
        size bigint,
        is_xbrl boolean,
        is_inline_xbrl boolean,
        is_amendment boolean NOT NULL,
        amends_accession text,
        act text,
        file_number text,
        film_number text,
        source text NOT NULL,
        provenance jsonb NOT NULL,
        record_id text NOT NULL,
        data_hash text NOT NULL,
        observed_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX filings_filed_date_accession_idx ON filings (filed_date, accession)`);
    await q.query(`CREATE INDEX filings_cik_filed_date_accession_idx ON filings (cik, filed_date, accession)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE filings`);
  }
}
