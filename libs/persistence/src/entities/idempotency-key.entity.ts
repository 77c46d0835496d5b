import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A POST sent with an `Idempotency-Key` (the api's table): the first request's body hash, then its
 * response, replayed to a retry with the same key and body for 24 hours.
 */
@Entity({ name: 'idempotency_keys' })
@Index('idempotency_keys_created_at_idx', ['createdAt'])
export class IdempotencyKeyEntity {
  /** Keys are per account: two accounts may use the same key. */
  @PrimaryColumn({ name: 'account_id', type: 'text' })
  accountId!: string;

  @PrimaryColumn({ type: 'text' })
  key!: string;

  /** sha256 of the method, the path and the JSON body of the first request. */
  @Column({ name: 'request_hash', type: 'text' })
  requestHash!: string;

  /** Null while the first request runs. */
  @Column({ name: 'status_code', type: 'integer', nullable: true })
  statusCode!: number | null;

  /** The response headers a replay repeats (content-type, location). */
  @Column({ name: 'response_headers', type: 'jsonb', nullable: true })
  responseHeaders!: Record<string, string> | null;

  /** The response body as sent, sealed by the api (AES-256-GCM: it may carry a secret); text, so a replay is byte for byte the first response. */
  @Column({ name: 'response_body', type: 'text', nullable: true })
  responseBody!: string | null;

  /** Which claim holds the key: only that request may complete or release it. */
  @Column({ name: 'claim_id', type: 'uuid' })
  claimId!: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
