import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { IrEventEntity } from './ir-event.entity';

/** What the PDF's info dictionary said, as the document-text record carried it. */
export interface PdfInfo {
  title: string | null;
  creator: string | null;
  producer: string | null;
  created_at: string | null;
}

/**
 * Read model of one issuer document (deck, press release, report), keyed by its URL. Two topics
 * write the same row, each only its own columns, so either may arrive first: the IR page link
 * (ir.documents.v1: title, kind, date, event, link_*) and the PDF text (ir.document-texts.v1:
 * doc type, language, page count, text_*, pdf_*). `sort_at` is the list order: the page's date,
 * else the PDF's creation date, else when the document was first seen.
 */
@Entity({ name: 'documents' })
@Index('documents_sort_idx', ['sortAt', 'id'])
@Index('documents_cik_sort_idx', ['cik', 'sortAt', 'id'])
export class DocumentEntity {
  /** The API's integer document id. */
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  @Index('documents_url_uq', { unique: true })
  @Column({ type: 'text' })
  url!: string;

  @Column({ type: 'char', length: 10 })
  cik!: string;

  @Column({ type: 'text', nullable: true })
  ticker!: string | null;

  /** The IR page's link text when a link record exists, else the text record's title. */
  @Column({ type: 'text' })
  title!: string;

  /** The link's kind (presentation, press_release, ...); null until the link record arrives. */
  @Column({ type: 'text', nullable: true })
  kind!: string | null;

  /** From the PDF text when it has arrived, else derived from the link's kind. */
  @Column({ name: 'doc_type', type: 'text' })
  docType!: string;

  @Column({ name: 'doc_group', type: 'text' })
  docGroup!: string;

  @Column({ type: 'text', nullable: true })
  language!: string | null;

  @Column({ name: 'is_pdf', type: 'boolean', nullable: true })
  isPdf!: boolean | null;

  /** The date printed next to the link on the IR page (midnight UTC). */
  @Column({ name: 'published_at', type: 'timestamptz', nullable: true })
  publishedAt!: Date | null;

  @Column({ name: 'pdf_created_at', type: 'timestamptz', nullable: true })
  pdfCreatedAt!: Date | null;

  @Column({ name: 'sort_at', type: 'timestamptz' })
  sortAt!: Date;

  /** ir_page | pdf_metadata | first_seen: where sort_at came from. */
  @Column({ name: 'published_at_source', type: 'text' })
  publishedAtSource!: string;

  @Index('documents_event_id_idx')
  @Column({ name: 'event_id', type: 'integer', nullable: true })
  eventId!: number | null;

  @ManyToOne(() => IrEventEntity, { onDelete: 'NO ACTION' })
  @JoinColumn({ name: 'event_id', foreignKeyConstraintName: 'documents_event_id_fkey' })
  event?: IrEventEntity;

  /** Null until the text has arrived. */
  @Column({ name: 'page_count', type: 'integer', nullable: true })
  pageCount!: number | null;

  @Column({ name: 'page_separator', type: 'text', nullable: true })
  pageSeparator!: string | null;

  @Column({ name: 'text_length', type: 'integer', nullable: true })
  textLength!: number | null;

  /** The IR page the link was read on. */
  @Column({ name: 'found_on', type: 'text', nullable: true })
  foundOn!: string | null;

  @Column({ name: 'link_quote', type: 'text', nullable: true })
  linkQuote!: string | null;

  /** sha256 of the IR page's bytes. */
  @Column({ name: 'link_content_hash', type: 'text', nullable: true })
  linkContentHash!: string | null;

  @Column({ name: 'link_src_id', type: 'text', nullable: true })
  linkSrcId!: string | null;

  @Column({ name: 'link_extracted_at', type: 'timestamptz', nullable: true })
  linkExtractedAt!: Date | null;

  @Column({ name: 'link_record_id', type: 'text', nullable: true })
  linkRecordId!: string | null;

  @Column({ name: 'link_observed_at', type: 'timestamptz', nullable: true })
  linkObservedAt!: Date | null;

  /** sha256 of the PDF bytes whose text and pages are stored: the current version. */
  @Column({ name: 'text_content_hash', type: 'text', nullable: true })
  textContentHash!: string | null;

  @Column({ name: 'text_source_url', type: 'text', nullable: true })
  textSourceUrl!: string | null;

  /** The first line of the text, verbatim. */
  @Column({ name: 'text_quote', type: 'text', nullable: true })
  textQuote!: string | null;

  @Column({ name: 'text_src_id', type: 'text', nullable: true })
  textSrcId!: string | null;

  @Column({ name: 'text_extracted_at', type: 'timestamptz', nullable: true })
  textExtractedAt!: Date | null;

  /** The document-text record (a part 0) that last wrote these text columns: a replay of it writes nothing. */
  @Column({ name: 'text_record_id', type: 'text', nullable: true })
  textRecordId!: string | null;

  /** observed_at of the current version's part 0: an older version never replaces a newer one. */
  @Column({ name: 'text_observed_at', type: 'timestamptz', nullable: true })
  textObservedAt!: Date | null;

  @Column({ name: 'pdf_bytes', type: 'integer', nullable: true })
  pdfBytes!: number | null;

  @Column({ name: 'pdf_info', type: 'jsonb', nullable: true })
  pdfInfo!: PdfInfo | null;

  /** Why a document that looks like a call transcript did not pass the serving gate (its type is kept); null otherwise. */
  @Column({ name: 'transcript_gate', type: 'text', nullable: true })
  transcriptGate!: string | null;

  /** The earliest observed_at of any record of this URL. */
  @Column({ name: 'first_seen_at', type: 'timestamptz' })
  firstSeenAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
