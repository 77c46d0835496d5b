import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Identifier candidates from N-PORT holdings (company_identifiers): ISINs per listing, LEIs per
 * issuer, each citing the fund filing and holding it came from. companies.isin goes: it was never
 * filled (SEC has no ISIN), and the ISIN is now resolved from the candidates when read, so a
 * second fund filing giving another ISIN turns it ambiguous at once. Immutable once merged.
 */
export class CompanyIdentifiers1763882000000 implements MigrationInterface {
  name = 'CompanyIdentifiers1763882000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE company_identifiers (
        scheme text NOT NULL,
        subject text NOT NULL,
        value text NOT NULL,
        cik char(10) NOT NULL,
        derivation text NOT NULL,
        fund_key text NOT NULL,
        fund_name text,
        accession text NOT NULL,
        holding_index integer NOT NULL,
        report_date date NOT NULL,
        cusip text,
        provenance jsonb NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (scheme, subject, value)
      )`);
    await q.query(`CREATE INDEX company_identifiers_value_idx ON company_identifiers (scheme, value)`);
    await q.query(`ALTER TABLE companies DROP COLUMN isin`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE companies ADD COLUMN isin text`);
    await q.query(`DROP TABLE company_identifiers`);
  }
}
