import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * idempotency_keys.claim_id: which claim holds the key. A request taken over after it was deemed
 * abandoned must not record its response over, or release, the claim of the retry that took the
 * key; complete and release match the claim id. Immutable once merged.
 */
export class IdempotencyClaimId1763883000000 implements MigrationInterface {
  name = 'IdempotencyClaimId1763883000000';

  async up(q: QueryRunner): Promise<void> {
    // The default fills the rows that exist; every claim sets its own id.
    await q.query(`ALTER TABLE idempotency_keys ADD COLUMN claim_id uuid NOT NULL DEFAULT gen_random_uuid()`);
    await q.query(`ALTER TABLE idempotency_keys ALTER COLUMN claim_id DROP DEFAULT`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE idempotency_keys DROP COLUMN claim_id`);
  }
}
