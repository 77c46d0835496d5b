import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * segment_observations.member_kind: whether a member is one of the filer's segments (product
 * lines, regions) or a corporate, eliminations or reconciling row. Null for rows projected from
 * records written before the extractor read kinds. Immutable once merged.
 */
export class SegmentMemberKind1763882100000 implements MigrationInterface {
  name = 'SegmentMemberKind1763882100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE segment_observations ADD COLUMN member_kind text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE segment_observations DROP COLUMN member_kind`);
  }
}
