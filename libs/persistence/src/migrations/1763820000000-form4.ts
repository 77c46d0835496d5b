import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Form 4 read models (edgar.form4.v1): form4_filings (one row per filing), insider_transactions
 * (one row per row of Tables I and II) and the date of the latest Form 4 that showed an SEC
 * roster entry as officer or director. Immutable once merged.
 */
export class Form41763820000000 implements MigrationInterface {
  name = 'Form41763820000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE form4_filings (
        accession text PRIMARY KEY,
        cik char(10) NOT NULL,
        issuer_name text,
        trading_symbol text,
        form text NOT NULL,
        is_amendment boolean NOT NULL,
        date_of_original_submission text,
        period_of_report text,
        filed_date date,
        accepted_at timestamptz,
        effective_date date NOT NULL,
        original_date date,
        owners_key text NOT NULL,
        reporting_owners jsonb NOT NULL,
        aff10b5one boolean,
        no_securities_owned boolean,
        not_subject_to_section16 boolean,
        schema_version text,
        footnotes jsonb NOT NULL,
        rule_10b5_1_footnote_ids jsonb NOT NULL,
        remarks text,
        signatures jsonb NOT NULL,
        transaction_count integer NOT NULL,
        holding_count integer NOT NULL,
        src_id text NOT NULL,
        source_url text NOT NULL,
        quote text,
        content_hash text,
        extracted_at timestamptz,
        record_id text NOT NULL,
        observed_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX form4_filings_family_idx ON form4_filings (cik, owners_key, period_of_report)`);
    await q.query(`
      CREATE TABLE insider_transactions (
        accession text NOT NULL,
        row_table text NOT NULL,
        sequence integer NOT NULL,
        cik char(10) NOT NULL,
        kind text NOT NULL,
        form text NOT NULL,
        is_amendment boolean NOT NULL,
        filed_date date,
        period_of_report text,
        sort_date date NOT NULL,
        security_title text,
        transaction_date text,
        deemed_execution_date text,
        transaction_form_type text,
        code text,
        code_label text,
        classification text,
        is_open_market boolean NOT NULL,
        equity_swap_involved boolean,
        transaction_timeliness text,
        shares numeric,
        shares_text text,
        total_value numeric,
        total_value_text text,
        price_per_share numeric,
        price_per_share_text text,
        acquired_disposed text,
        shares_owned_following numeric,
        shares_owned_following_text text,
        value_owned_following numeric,
        value_owned_following_text text,
        direct_indirect text,
        nature_of_ownership text,
        conversion_or_exercise_price numeric,
        conversion_or_exercise_price_text text,
        exercise_date text,
        expiration_date text,
        underlying_security_title text,
        underlying_shares numeric,
        underlying_shares_text text,
        underlying_value numeric,
        underlying_value_text text,
        footnotes jsonb NOT NULL,
        is_10b5_1 boolean NOT NULL,
        is_10b5_1_reason text,
        is_10b5_1_footnote_ids jsonb NOT NULL,
        reporting_owners jsonb NOT NULL,
        src_id text NOT NULL,
        source_url text NOT NULL,
        quote text NOT NULL,
        content_hash text,
        extracted_at timestamptz,
        record_id text NOT NULL,
        observed_at timestamptz NOT NULL,
        superseded_by text,
        PRIMARY KEY (accession, row_table, sequence)
      )`);
    await q.query(`CREATE INDEX insider_transactions_keyset_idx ON insider_transactions (cik, sort_date, accession, row_table, sequence)`);
    await q.query(`ALTER TABLE roster_entries ADD COLUMN last_filed_at date`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE roster_entries DROP COLUMN last_filed_at`);
    await q.query(`DROP TABLE insider_transactions`);
    await q.query(`DROP TABLE form4_filings`);
  }
}
