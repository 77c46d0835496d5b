import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { Transcript } from '@app/contracts';
import { DocumentEntity } from './document.entity';

/**
 * Read model of one first-party call transcript: a document whose text passed the transcript
 * serving gate (document-text@1 `transcript`, on the version's last part). Keyed by the document's
 * URL; its pages (document_pages) hold the text the turns' offsets point into. Listed by call date.
 */
@Entity({ name: 'transcripts' })
@Index('transcripts_sort_idx', ['callDate', 'id'])
@Index('transcripts_cik_sort_idx', ['cik', 'callDate', 'id'])
export class TranscriptEntity {
  /** The API's transcript id. */
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  @Index('transcripts_document_id_uq', { unique: true })
  @Column({ name: 'document_id', type: 'integer' })
  documentId!: number;

  @ManyToOne(() => DocumentEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'document_id', foreignKeyConstraintName: 'transcripts_document_id_fkey' })
  document?: DocumentEntity;

  @Index('transcripts_url_uq', { unique: true })
  @Column({ type: 'text' })
  url!: string;

  @Column({ type: 'char', length: 10 })
  cik!: string;

  @Column({ type: 'text', nullable: true })
  ticker!: string | null;

  /** The company as the document names it. */
  @Column({ type: 'text', nullable: true })
  company!: string | null;

  /** The call's title line as printed. */
  @Column({ type: 'text', nullable: true })
  title!: string | null;

  @Column({ name: 'call_date', type: 'date' })
  callDate!: string;

  /** document | pdf_title. */
  @Column({ name: 'date_source', type: 'text' })
  dateSource!: string;

  @Column({ type: 'jsonb' })
  participants!: Transcript['participants'];

  @Column({ type: 'jsonb' })
  turns!: Transcript['turns'];

  @Column({ name: 'turn_count', type: 'integer' })
  turnCount!: number;

  @Column({ name: 'front_matter', type: 'jsonb' })
  frontMatter!: Transcript['front_matter'];

  @Column({ name: 'back_matter', type: 'jsonb', nullable: true })
  backMatter!: Transcript['back_matter'];

  /** sha256 of the PDF bytes the transcript was split from (the document's text version). */
  @Column({ name: 'content_hash', type: 'text' })
  contentHash!: string;

  @Column({ name: 'src_id', type: 'text' })
  srcId!: string;

  @Column({ name: 'source_url', type: 'text' })
  sourceUrl!: string;

  /** The first turn's first line, verbatim. */
  @Column({ type: 'text', nullable: true })
  quote!: string | null;

  @Column({ name: 'extracted_at', type: 'timestamptz', nullable: true })
  extractedAt!: Date | null;

  /** The document-text record (the version's last part) that wrote the row: a replay of it writes nothing. */
  @Column({ name: 'record_id', type: 'text' })
  recordId!: string;

  @Column({ name: 'first_seen_at', type: 'timestamptz' })
  firstSeenAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
