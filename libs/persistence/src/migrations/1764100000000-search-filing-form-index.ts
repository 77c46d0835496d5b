import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Search's filings whose form is the query (`10-K`), newest first, read in that order from an
 * index and stopped at the candidate cap, instead of sorting every filing of the form (83,200
 * `10-K`s of 10,000,000 filings in bench/scale). The expressions and the collation are the ones
 * SEARCH_SQL's form candidates order by. Built with a plain CREATE INDEX: on EDGAR's ~20M filings
 * it blocks writes to filings for the minutes the build takes (run it between projector batches,
 * or create it CONCURRENTLY by hand first: IF NOT EXISTS then skips it). Immutable once merged.
 */
export class SearchFilingFormIndex1764100000000 implements MigrationInterface {
  name = 'SearchFilingFormIndex1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX IF NOT EXISTS filings_search_form_idx ON filings (upper(form), filed_date DESC, accession COLLATE "C")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX filings_search_form_idx`);
  }
}
