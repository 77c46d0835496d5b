import { Column, Entity, Index, PrimaryColumn, Unique } from 'typeorm';

/**
 * One event (the body's `{type, timestamp, data}` source) of the webhooks and the /v1/events feed.
 * Real events are visible to every account; test events (is_test) only to account_id.
 */
@Entity({ name: 'webhook_events' })
@Unique('webhook_events_seq_key', ['seq'])
@Index('webhook_events_type_seq_idx', ['type', 'seq'])
export class WebhookEventEntity {
  /** Feed order. */
  @Column({ type: 'bigint', generated: 'increment' })
  seq!: string;

  /** `evt_…`: webhookEventId(type, entity key) for real events, `evt_test_` + random hex for tests. */
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'text' })
  type!: string;

  @Column({ name: 'entity_key', type: 'text', nullable: true })
  entityKey!: string | null;

  /** The resource exactly as the API serves it. */
  @Column({ type: 'jsonb' })
  data!: unknown;

  @Column({ name: 'is_test', type: 'boolean', default: false })
  isTest!: boolean;

  /** Set only for test events. */
  @Column({ name: 'account_id', type: 'text', nullable: true })
  accountId!: string | null;

  @Column({ name: 'source_topic', type: 'text', nullable: true })
  sourceTopic!: string | null;

  @Column({ name: 'source_record_id', type: 'text', nullable: true })
  sourceRecordId!: string | null;

  /** Kafka message timestamp of the source record. */
  @Column({ name: 'source_produced_at', type: 'timestamptz', nullable: true })
  sourceProducedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
