import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhooks: endpoints and their sealed signing secrets (owned by the api), events, deliveries and
 * delivery attempts (owned by the webhooks app). Immutable once merged.
 */
export class Webhooks1763840000000 implements MigrationInterface {
  name = 'Webhooks1763840000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhook_endpoints (
        id text PRIMARY KEY,
        account_id text NOT NULL CONSTRAINT webhook_endpoints_account_id_fkey REFERENCES accounts (id),
        url text NOT NULL,
        topics text[] NOT NULL,
        description text,
        enabled boolean NOT NULL DEFAULT true,
        disabled_reason text,
        failing_since timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz
      )`);
    await q.query(`CREATE INDEX webhook_endpoints_account_keyset_idx ON webhook_endpoints (account_id, created_at, id)`);
    await q.query(`
      CREATE TABLE webhook_endpoint_secrets (
        id bigserial PRIMARY KEY,
        endpoint_id text NOT NULL CONSTRAINT webhook_endpoint_secrets_endpoint_id_fkey REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
        sealed_secret text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz
      )`);
    await q.query(`CREATE INDEX webhook_endpoint_secrets_endpoint_id_idx ON webhook_endpoint_secrets (endpoint_id)`);
    await q.query(`
      CREATE TABLE webhook_events (
        seq bigserial NOT NULL CONSTRAINT webhook_events_seq_key UNIQUE,
        id text PRIMARY KEY,
        type text NOT NULL,
        entity_key text,
        data jsonb NOT NULL,
        is_test boolean NOT NULL DEFAULT false,
        account_id text,
        source_topic text,
        source_record_id text,
        source_produced_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX webhook_events_type_seq_idx ON webhook_events (type, seq)`);
    await q.query(`
      CREATE TABLE webhook_deliveries (
        id text PRIMARY KEY,
        event_id text NOT NULL CONSTRAINT webhook_deliveries_event_id_fkey REFERENCES webhook_events (id),
        endpoint_id text NOT NULL CONSTRAINT webhook_deliveries_endpoint_id_fkey REFERENCES webhook_endpoints (id),
        status text NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        last_attempt_at timestamptz,
        succeeded_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT webhook_deliveries_event_endpoint_key UNIQUE (event_id, endpoint_id)
      )`);
    await q.query(`CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (status, next_attempt_at)`);
    await q.query(`CREATE INDEX webhook_deliveries_endpoint_keyset_idx ON webhook_deliveries (endpoint_id, created_at, id)`);
    await q.query(`
      CREATE TABLE webhook_attempts (
        id bigserial PRIMARY KEY,
        delivery_id text NOT NULL CONSTRAINT webhook_attempts_delivery_id_fkey REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
        attempt integer NOT NULL,
        sent_at timestamptz NOT NULL,
        status_code integer,
        duration_ms integer NOT NULL,
        response_excerpt text,
        error text,
        next_attempt_at timestamptz
      )`);
    await q.query(`CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id, attempt)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE webhook_attempts`);
    await q.query(`DROP TABLE webhook_deliveries`);
    await q.query(`DROP TABLE webhook_events`);
    await q.query(`DROP TABLE webhook_endpoint_secrets`);
    await q.query(`DROP TABLE webhook_endpoints`);
  }
}
