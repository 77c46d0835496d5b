import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Companies read model, accounts and API keys. Immutable once merged: change with a new migration. */
export class Initial1763770000000 implements MigrationInterface {
  name = 'Initial1763770000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE companies (
        symbol text PRIMARY KEY,
        ticker text NOT NULL,
        market text NOT NULL,
        cik char(10) NOT NULL,
        name text NOT NULL,
        isin text,
        figi text,
        issuer_id bigint NOT NULL,
        listing_exchange text,
        website text,
        country text,
        is_etf boolean NOT NULL DEFAULT false,
        is_fund boolean NOT NULL DEFAULT false,
        is_adr boolean NOT NULL DEFAULT false,
        status text NOT NULL DEFAULT 'active',
        description text,
        description_provenance jsonb,
        sec_detail jsonb,
        provenance jsonb NOT NULL,
        record_id text NOT NULL,
        data_hash text NOT NULL,
        observed_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX companies_cik_idx ON companies (cik)`);
    await q.query(`CREATE INDEX companies_issuer_id_idx ON companies (issuer_id)`);
    await q.query(`
      CREATE TABLE accounts (
        id text PRIMARY KEY,
        name text NOT NULL,
        plan text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE api_keys (
        id text PRIMARY KEY,
        account_id text NOT NULL CONSTRAINT api_keys_account_id_fkey REFERENCES accounts (id),
        mode text NOT NULL,
        secret_hash text NOT NULL,
        label text,
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz,
        last_used_at timestamptz
      )`);
    await q.query(`CREATE INDEX api_keys_account_id_idx ON api_keys (account_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE api_keys`);
    await q.query(`DROP TABLE accounts`);
    await q.query(`DROP TABLE companies`);
  }
}
