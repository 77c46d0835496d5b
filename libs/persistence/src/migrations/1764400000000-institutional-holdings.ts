import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * 13F read models. thirteenf_filings and thirteenf_holdings keep every filing as filed (the rows a
 * restatement replaces stay, marked superseded); institutional_positions is what is served: one row
 * per manager, quarter and CUSIP, recomputed when a filing of that quarter lands, with the change
 * against the manager's previous quarter computed then, not per request. cusip_crosswalk maps a
 * CUSIP to a covered company from evidence (N-PORT holdings matched by identifier), never a name.
 * Every cusip column is text (the writers check the nine characters), so the joins between them
 * compare text with text and use each side's index.
 * Immutable once merged.
 */
export class InstitutionalHoldings1764400000000 implements MigrationInterface {
  name = 'InstitutionalHoldings1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE thirteenf_filings (
        accession text PRIMARY KEY,
        manager_cik char(10) NOT NULL,
        manager_name text,
        form text NOT NULL,
        report_type text NOT NULL,
        amendment_number integer,
        amendment_type text,
        period date NOT NULL,
        filed_date date NOT NULL,
        accepted_at timestamptz,
        file_number text,
        other_managers jsonb NOT NULL,
        included_managers jsonb NOT NULL,
        entry_total integer,
        value_total numeric,
        value_unit text NOT NULL,
        unit_basis text NOT NULL,
        unit_flag text,
        holdings_total integer NOT NULL,
        chunks_seen integer NOT NULL,
        chunk_count integer NOT NULL,
        chunk_hashes text[] NOT NULL,
        superseded_by text,
        source_url text NOT NULL,
        provenance jsonb NOT NULL,
        record_id text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX thirteenf_filings_manager_idx ON thirteenf_filings (manager_cik, period DESC, filed_date DESC, accession DESC)`);
    await q.query(`
      CREATE TABLE thirteenf_holdings (
        accession text NOT NULL,
        holding_index integer NOT NULL,
        cusip text NOT NULL,
        issuer text NOT NULL,
        class_title text,
        figi text,
        value_filed numeric NOT NULL,
        value_usd bigint NOT NULL,
        shares bigint NOT NULL,
        share_type text NOT NULL,
        put_call text,
        discretion text,
        other_managers integer[] NOT NULL,
        voting_sole bigint NOT NULL,
        voting_shared bigint NOT NULL,
        voting_none bigint NOT NULL,
        quote text NOT NULL,
        PRIMARY KEY (accession, holding_index)
      )`);
    await q.query(`
      CREATE TABLE institutional_positions (
        manager_cik char(10) NOT NULL,
        period date NOT NULL,
        cusip text NOT NULL,
        cik char(10),
        match_method text,
        issuer text NOT NULL,
        class_title text,
        shares bigint NOT NULL,
        principal bigint NOT NULL,
        value_usd bigint NOT NULL,
        put_shares bigint NOT NULL,
        put_value_usd bigint NOT NULL,
        call_shares bigint NOT NULL,
        call_value_usd bigint NOT NULL,
        prev_shares bigint,
        share_delta bigint,
        -- The change sort's key: no delta (no previous quarter) ranks last, so the index and keyset stay plain.
        change_rank bigint NOT NULL GENERATED ALWAYS AS (coalesce(share_delta, -9007199254740991)) STORED,
        change text,
        accession text NOT NULL,
        holding_index integer NOT NULL,
        PRIMARY KEY (manager_cik, period, cusip)
      )`);
    // Holders of a company in each served order, and of an unmatched CUSIP; a manager's portfolio by value.
    await q.query(`CREATE INDEX institutional_positions_holders_value_idx ON institutional_positions (cik, period, value_usd DESC, manager_cik, cusip) WHERE cik IS NOT NULL`);
    await q.query(`CREATE INDEX institutional_positions_holders_shares_idx ON institutional_positions (cik, period, shares DESC, manager_cik, cusip) WHERE cik IS NOT NULL`);
    await q.query(`CREATE INDEX institutional_positions_holders_change_idx ON institutional_positions (cik, period, change_rank DESC, manager_cik, cusip) WHERE cik IS NOT NULL`);
    await q.query(`CREATE INDEX institutional_positions_cusip_idx ON institutional_positions (cusip, period, value_usd DESC, manager_cik)`);
    await q.query(`CREATE INDEX institutional_positions_portfolio_idx ON institutional_positions (manager_cik, period, value_usd DESC, cusip)`);
    // The rows of an issuer (CUSIP prefix), re-matched when N-PORT brings a CUSIP of it to the crosswalk.
    await q.query(`CREATE INDEX institutional_positions_issuer_idx ON institutional_positions (left(cusip, 6))`);
    await q.query(`
      CREATE TABLE institutional_manager_quarters (
        manager_cik char(10) NOT NULL,
        period date NOT NULL,
        manager_name text,
        report_type text NOT NULL,
        accessions text[] NOT NULL,
        other_managers jsonb NOT NULL,
        positions integer NOT NULL,
        value_usd_total bigint NOT NULL,
        unit_flag text,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (manager_cik, period)
      )`);
    await q.query(`
      CREATE TABLE institutional_managers (
        cik char(10) PRIMARY KEY,
        name text,
        file_number text,
        latest_period date NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX institutional_managers_name_trgm_idx ON institutional_managers USING gin (search_fold(coalesce(name, '')) gin_trgm_ops)`);
    await q.query(`
      CREATE TABLE cusip_crosswalk (
        cusip text PRIMARY KEY,
        cik char(10) NOT NULL,
        symbol text,
        method text NOT NULL,
        accession text NOT NULL,
        holding_index integer NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX cusip_crosswalk_issuer_idx ON cusip_crosswalk (left(cusip, 6))`);
    // A company's CUSIPs.
    await q.query(`CREATE INDEX cusip_crosswalk_cik_idx ON cusip_crosswalk (cik, cusip)`);
    await q.query(`
      CREATE TABLE thirteenf_securities (
        quarter text NOT NULL,
        cusip text NOT NULL,
        has_options boolean NOT NULL,
        issuer text NOT NULL,
        description text,
        status text,
        PRIMARY KEY (quarter, cusip)
      )`);
    await q.query(`CREATE INDEX thirteenf_securities_cusip_idx ON thirteenf_securities (cusip, quarter DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['thirteenf_securities', 'cusip_crosswalk', 'institutional_managers', 'institutional_manager_quarters', 'institutional_positions', 'thirteenf_holdings', 'thirteenf_filings']) {
      await q.query(`DROP TABLE ${t}`);
    }
  }
}
