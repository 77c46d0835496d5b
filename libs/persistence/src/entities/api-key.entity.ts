import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AccountEntity } from './account.entity';

/**
 * An API key. The secret is never stored: only HMAC-SHA256(server secret, key), looked up by the
 * public id embedded in the key and compared in constant time.
 */
@Entity({ name: 'api_keys' })
export class ApiKeyEntity {
  /** Public id embedded in the key (`sk_live_<public id>_<secret>`). */
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Index('api_keys_account_id_idx')
  @Column({ name: 'account_id', type: 'text' })
  accountId!: string;

  @ManyToOne(() => AccountEntity, { onDelete: 'NO ACTION' })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'api_keys_account_id_fkey' })
  account?: AccountEntity;

  @Column({ type: 'text' })
  mode!: 'live' | 'test';

  @Column({ name: 'secret_hash', type: 'text' })
  secretHash!: string;

  @Column({ type: 'text', nullable: true })
  label!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt!: Date | null;
}
