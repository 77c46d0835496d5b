import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** An IR event (earnings call, annual meeting, ...) that an issuer page groups documents under. */
@Entity({ name: 'ir_events' })
export class IrEventEntity {
  /** The API's event_id. */
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  @Index('ir_events_cik_idx')
  @Column({ type: 'char', length: 10 })
  cik!: string;

  /** `<cik>|<event date or empty>|<normalized title>` as ingest-ir builds it. */
  @Index('ir_events_event_key_uq', { unique: true })
  @Column({ name: 'event_key', type: 'text' })
  eventKey!: string;

  @Column({ type: 'text' })
  title!: string;

  @Column({ name: 'event_date', type: 'date', nullable: true })
  eventDate!: string | null;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
