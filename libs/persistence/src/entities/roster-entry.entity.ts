import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * Read model of one person on one roster of an issuer (executives, IR contacts, analysts), per
 * source: an issuer's IR page (ir.roster.v1) and SEC Form 4 reporting owners (edgar.form4.v1,
 * executives only). Each source keeps its own rows, so one source never erases the other's people.
 * A person no longer listed stays with `is_current = false`. Written only by the projector.
 */
@Entity({ name: 'roster_entries' })
@Index('roster_entries_person_key_uq', ['cik', 'category', 'sourceProvider', 'personKey'], { unique: true })
@Index('roster_entries_list_idx', ['cik', 'category', 'isCurrent', 'rank'])
export class RosterEntryEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  @Column({ type: 'char', length: 10 })
  cik!: string;

  /** executives | ir | analysts */
  @Column({ type: 'text' })
  category!: string;

  /** issuer_page | sec */
  @Column({ name: 'source_provider', type: 'text' })
  sourceProvider!: string;

  /**
   * The person's identity within one roster and source: on issuer pages the name lower-cased,
   * without accents, punctuation or repeated spaces; on SEC rows `cik:<owner CIK>` (else `name:` and
   * the normalized name), since a reporting owner's CIK outlives spellings of the name.
   */
  @Column({ name: 'person_key', type: 'text' })
  personKey!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  role!: string;

  @Column({ type: 'text' })
  affiliation!: string;

  @Column({ type: 'text', nullable: true })
  email!: string | null;

  @Column({ type: 'text', nullable: true })
  phone!: string | null;

  @Column({ type: 'integer' })
  rank!: number;

  @Column({ name: 'is_current', type: 'boolean' })
  isCurrent!: boolean;

  @Column({ name: 'src_id', type: 'text' })
  srcId!: string;

  @Column({ name: 'source_url', type: 'text', nullable: true })
  sourceUrl!: string | null;

  @Column({ type: 'text', nullable: true })
  quote!: string | null;

  @Column({ name: 'content_hash', type: 'text', nullable: true })
  contentHash!: string | null;

  @Column({ name: 'extracted_at', type: 'timestamptz', nullable: true })
  extractedAt!: Date | null;

  /** The Form 4 a SEC-sourced entry was read from; null for issuer pages. */
  @Column({ type: 'text', nullable: true })
  accession!: string | null;

  /** The roster record last applied to this row's (cik, category, source): the idempotence key. */
  @Column({ name: 'record_id', type: 'text' })
  recordId!: string;

  /** observed_at of that record: an older record never overwrites a newer roster. */
  @Column({ name: 'record_observed_at', type: 'timestamptz' })
  recordObservedAt!: Date;

  @Column({ name: 'first_seen_at', type: 'timestamptz' })
  firstSeenAt!: Date;

  /** observed_at of the latest record that listed the person. */
  @Column({ name: 'last_seen_at', type: 'timestamptz' })
  lastSeenAt!: Date;

  /**
   * SEC rows: filing date of the latest Form 4 that shows the person as officer or director. The
   * API counts the entry current while that date is within 18 months and `is_current` (no later
   * Form 4 of the person shows them without the flag) holds. Null on issuer-page rows.
   */
  @Column({ name: 'last_filed_at', type: 'date', nullable: true })
  lastFiledAt!: string | null;
}
