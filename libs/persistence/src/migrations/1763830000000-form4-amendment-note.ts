import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * form4_filings.amendment_note: on a 4/A, which earlier filing the projection found it restates,
 * or why it restates nothing (several originals the 4/A does not single out). Immutable once merged.
 */
export class Form4AmendmentNote1763830000000 implements MigrationInterface {
  name = 'Form4AmendmentNote1763830000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE form4_filings ADD COLUMN amendment_note text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE form4_filings DROP COLUMN amendment_note`);
  }
}
