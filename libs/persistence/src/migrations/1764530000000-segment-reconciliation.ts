import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * segment_observations.reconciliation: how the breakdown a figure belongs to adds up in the filer's
 * tables (segment@1's `reconciliation`, served as is). Null for derived fourth quarters and for rows
 * projected from records written before it existed. Immutable once merged.
 */
export class SegmentReconciliation1764530000000 implements MigrationInterface {
  name = 'SegmentReconciliation1764530000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE segment_observations ADD COLUMN reconciliation jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE segment_observations DROP COLUMN reconciliation`);
  }
}
