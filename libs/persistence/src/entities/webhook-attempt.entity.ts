import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';

/** One HTTP attempt of a delivery, as logged by the dispatcher. */
@Entity({ name: 'webhook_attempts' })
@Index('webhook_attempts_delivery_idx', ['deliveryId', 'attempt'])
export class WebhookAttemptEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ name: 'delivery_id', type: 'text' })
  deliveryId!: string;

  @ManyToOne(() => WebhookDeliveryEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'delivery_id', foreignKeyConstraintName: 'webhook_attempts_delivery_id_fkey' })
  delivery?: WebhookDeliveryEntity;

  /** 1-based. */
  @Column({ type: 'integer' })
  attempt!: number;

  @Column({ name: 'sent_at', type: 'timestamptz' })
  sentAt!: Date;

  /** Null on a network error or timeout. */
  @Column({ name: 'status_code', type: 'integer', nullable: true })
  statusCode!: number | null;

  @Column({ name: 'duration_ms', type: 'integer' })
  durationMs!: number;

  /** First 1 KB of the response body. */
  @Column({ name: 'response_excerpt', type: 'text', nullable: true })
  responseExcerpt!: string | null;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  /** When the next try is scheduled; null if none. */
  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true })
  nextAttemptAt!: Date | null;
}
