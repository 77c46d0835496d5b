import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * form4_filing_owners: one row per (issuer, reporting owner, filing), the index the Form 4
 * projection rebuilds roster entries through. Before it, each (issuer, owner) of a batch tested
 * every filing of the issuer's reporting_owners JSON, so a batch cost grew with the issuer's
 * history (0.4 s a batch at 222 filings an issuer). Filled from owners_key, whose owner keys
 * (`cik:<cik>` or `name:<normalized name>`) never contain a comma. Immutable once merged.
 */
export class Form4FilingOwners1763871000000 implements MigrationInterface {
  name = 'Form4FilingOwners1763871000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE form4_filing_owners (
        cik char(10) NOT NULL,
        owner_key text NOT NULL,
        accession text NOT NULL,
        PRIMARY KEY (cik, owner_key, accession)
      )`);
    await q.query(`CREATE INDEX form4_filing_owners_accession_idx ON form4_filing_owners (accession)`);
    await q.query(`
      INSERT INTO form4_filing_owners (cik, owner_key, accession)
      SELECT DISTINCT cik, k, accession FROM form4_filings, unnest(string_to_array(owners_key, ',')) AS k WHERE k <> ''`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE form4_filing_owners`);
  }
}
