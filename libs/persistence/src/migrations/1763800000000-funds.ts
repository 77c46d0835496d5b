import type { MigrationInterface, QueryRunner } from 'typeorm';

/** N-PORT read models: funds (latest complete filing per fund) and fund_holdings. Immutable once merged. */
export class Funds1763800000000 implements MigrationInterface {
  name = 'Funds1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE funds (
        fund_key text PRIMARY KEY,
        registrant_cik char(10) NOT NULL,
        registrant_name text,
        series_id text,
        series_name text,
        fund_ticker text,
        is_etf boolean NOT NULL DEFAULT false,
        header jsonb NOT NULL,
        accession text NOT NULL,
        report_date date NOT NULL,
        net_assets numeric,
        provenance jsonb NOT NULL,
        data_hash text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX funds_registrant_cik_idx ON funds (registrant_cik)`);
    await q.query(`
      CREATE TABLE fund_holdings (
        accession text NOT NULL,
        holding_index integer NOT NULL,
        fund_key text NOT NULL,
        report_date date NOT NULL,
        is_current boolean NOT NULL DEFAULT false,
        name text,
        title text,
        lei text,
        cusip text,
        isin text,
        ticker text,
        other_ids jsonb NOT NULL,
        balance numeric,
        units text,
        cur_cd text,
        val_usd numeric,
        pct_val numeric,
        payoff_profile text,
        asset_cat text,
        asset_conditional jsonb,
        issuer_cat text,
        issuer_conditional jsonb,
        inv_country text,
        fair_val_level text,
        is_restricted boolean,
        match_cik char(10),
        match_symbol text,
        match_method text,
        match_confidence double precision NOT NULL,
        provenance jsonb NOT NULL,
        record_id text NOT NULL,
        data_hash text NOT NULL,
        PRIMARY KEY (accession, holding_index)
      )`);
    await q.query(`CREATE INDEX fund_holdings_fund_key_idx ON fund_holdings (fund_key)`);
    await q.query(`CREATE INDEX fund_holdings_exposure_weight_idx ON fund_holdings (match_cik, pct_val, accession, holding_index)`);
    await q.query(`CREATE INDEX fund_holdings_exposure_value_idx ON fund_holdings (match_cik, val_usd, accession, holding_index)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE fund_holdings`);
    await q.query(`DROP TABLE funds`);
  }
}
