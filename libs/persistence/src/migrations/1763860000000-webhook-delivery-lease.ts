import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * webhook_deliveries.leased_until / lease_token: a dispatcher's claim on a delivery, apart from its
 * schedule; the token makes a stalled process's late result or release change nothing once
 * another process holds the delivery.
 * The column is in no index, so claiming is a HOT update (no index entries; fillfactor leaves room
 * on the page), and next_attempt_at keeps saying when the delivery is due, as the API shows it.
 */
export class WebhookDeliveryLease1763860000000 implements MigrationInterface {
  name = 'WebhookDeliveryLease1763860000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_deliveries ADD COLUMN leased_until timestamptz, ADD COLUMN lease_token uuid`);
    await q.query(`ALTER TABLE webhook_deliveries SET (fillfactor = 70)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_deliveries RESET (fillfactor)`);
    await q.query(`ALTER TABLE webhook_deliveries DROP COLUMN leased_until, DROP COLUMN lease_token`);
  }
}
