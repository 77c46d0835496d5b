import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';

/**
 * A signing secret of an endpoint, sealed (SecretBox of `@app/webhooks`), never in plaintext.
 * Active = expires_at IS NULL OR expires_at > now(); a rotation gives the old one 24 h more.
 */
@Entity({ name: 'webhook_endpoint_secrets' })
export class WebhookEndpointSecretEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Index('webhook_endpoint_secrets_endpoint_id_idx')
  @Column({ name: 'endpoint_id', type: 'text' })
  endpointId!: string;

  @ManyToOne(() => WebhookEndpointEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'endpoint_id', foreignKeyConstraintName: 'webhook_endpoint_secrets_endpoint_id_fkey' })
  endpoint?: WebhookEndpointEntity;

  @Column({ name: 'sealed_secret', type: 'text' })
  sealedSecret!: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  /** Null = the current secret. */
  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt!: Date | null;
}
