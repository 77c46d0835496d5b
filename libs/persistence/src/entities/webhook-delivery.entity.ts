import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique } from 'typeorm';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';
import { WebhookEventEntity } from './webhook-event.entity';

export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** One logical delivery of an event to an endpoint (one webhook-id across its attempts). */
@Entity({ name: 'webhook_deliveries' })
@Unique('webhook_deliveries_event_endpoint_key', ['eventId', 'endpointId'])
@Index('webhook_deliveries_due_idx', ['status', 'nextAttemptAt'])
@Index('webhook_deliveries_endpoint_keyset_idx', ['endpointId', 'createdAt', 'id'])
export class WebhookDeliveryEntity {
  /** `del_` + 24 hex. */
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'event_id', type: 'text' })
  eventId!: string;

  @ManyToOne(() => WebhookEventEntity, { onDelete: 'NO ACTION' })
  @JoinColumn({ name: 'event_id', foreignKeyConstraintName: 'webhook_deliveries_event_id_fkey' })
  event?: WebhookEventEntity;

  @Column({ name: 'endpoint_id', type: 'text' })
  endpointId!: string;

  @ManyToOne(() => WebhookEndpointEntity, { onDelete: 'NO ACTION' })
  @JoinColumn({ name: 'endpoint_id', foreignKeyConstraintName: 'webhook_deliveries_endpoint_id_fkey' })
  endpoint?: WebhookEndpointEntity;

  /** failed = retries exhausted or endpoint disabled; recoverable. */
  @Column({ type: 'text' })
  status!: WebhookDeliveryStatus;

  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  /** Due time while pending. */
  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true })
  nextAttemptAt!: Date | null;

  /** A dispatcher holds it until then (its attempt is under way); null when no process does. */
  @Column({ name: 'leased_until', type: 'timestamptz', nullable: true })
  leasedUntil!: Date | null;

  /** The claim holding it (a stalled process's late result, carrying another token, changes nothing). */
  @Column({ name: 'lease_token', type: 'uuid', nullable: true })
  leaseToken!: string | null;

  @Column({ name: 'last_attempt_at', type: 'timestamptz', nullable: true })
  lastAttemptAt!: Date | null;

  @Column({ name: 'succeeded_at', type: 'timestamptz', nullable: true })
  succeededAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
