import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AccountEntity } from './account.entity';

/** A subscriber's webhook endpoint; owned by the api app (the webhooks app disables failing ones). */
@Entity({ name: 'webhook_endpoints' })
@Index('webhook_endpoints_account_keyset_idx', ['accountId', 'createdAt', 'id'])
export class WebhookEndpointEntity {
  /** `we_` + 24 lowercase hex. */
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'account_id', type: 'text' })
  accountId!: string;

  @ManyToOne(() => AccountEntity, { onDelete: 'NO ACTION' })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'webhook_endpoints_account_id_fkey' })
  account?: AccountEntity;

  @Column({ type: 'text' })
  url!: string;

  @Column({ type: 'text', array: true })
  topics!: string[];

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  @Column({ type: 'boolean', default: true })
  enabled!: boolean;

  /** 'gone' after a 410, 'failing' after 5 days of failures, 'manual' via PATCH. */
  @Column({ name: 'disabled_reason', type: 'text', nullable: true })
  disabledReason!: string | null;

  /** Start of the current failure streak; null again after any success. */
  @Column({ name: 'failing_since', type: 'timestamptz', nullable: true })
  failingSince!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;

  /** Soft delete: deliveries keep their endpoint. */
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt!: Date | null;
}
