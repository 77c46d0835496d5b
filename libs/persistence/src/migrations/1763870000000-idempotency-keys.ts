import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * idempotency_keys: the api's record of POSTs sent with an Idempotency-Key, replayed for 24 hours.
 * created_at is indexed for the sweep of expired keys. Immutable once merged.
 */
export class IdempotencyKeys1763870000000 implements MigrationInterface {
  name = 'IdempotencyKeys1763870000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE idempotency_keys (
        account_id text NOT NULL,
        key text NOT NULL,
        request_hash text NOT NULL,
        status_code integer,
        response_headers jsonb,
        response_body text,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (account_id, key)
      )`);
    await q.query(`CREATE INDEX idempotency_keys_created_at_idx ON idempotency_keys (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE idempotency_keys`);
  }
}
