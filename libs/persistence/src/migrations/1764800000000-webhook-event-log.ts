import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The outbox of the webhook event log: the seq of every event the projector made that its relay
 * has not yet published to webhooks.events.v1. insertEvents adds to it in the statement that
 * inserts the events (so an event committed is an event logged, whatever Kafka does); the relay
 * deletes what it published. The events made before it existed are queued too, so the log (and a
 * replay from it) holds every event, not only those made after the upgrade. Immutable once merged.
 */
export class WebhookEventLog1764800000000 implements MigrationInterface {
  name = 'WebhookEventLog1764800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE webhook_event_log_pending (seq bigint PRIMARY KEY)`);
    await q.query(`INSERT INTO webhook_event_log_pending (seq) SELECT seq FROM webhook_events WHERE NOT is_test`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE webhook_event_log_pending`);
  }
}
