import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { DocumentEntity } from './document.entity';

/**
 * One page of a document's current text version. The document text is the pages joined by the
 * document's page separator: text.slice(char_start, char_end) === page text.
 */
@Entity({ name: 'document_pages' })
export class DocumentPageEntity {
  @PrimaryColumn({ name: 'document_id', type: 'integer' })
  documentId!: number;

  @ManyToOne(() => DocumentEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'document_id', foreignKeyConstraintName: 'document_pages_document_id_fkey' })
  document?: DocumentEntity;

  /** 0-based. */
  @PrimaryColumn({ name: 'page_index', type: 'integer' })
  pageIndex!: number;

  @Column({ name: 'char_start', type: 'integer' })
  charStart!: number;

  @Column({ name: 'char_end', type: 'integer' })
  charEnd!: number;

  @Column({ type: 'text' })
  text!: string;

  @Column({ name: 'vision_caption', type: 'text' })
  visionCaption!: string;

  /** Which captioner made vision_caption (layout@1: largest text + first body line, no vision model). */
  @Column({ name: 'caption_source', type: 'text' })
  captionSource!: string;

  @Column({ type: 'text', nullable: true })
  quote!: string | null;

  @Column({ type: 'double precision' })
  width!: number;

  @Column({ type: 'double precision' })
  height!: number;

  /** sha256 of the PDF version this page came from. */
  @Column({ name: 'content_hash', type: 'text' })
  contentHash!: string;

  /** Search: the page's words (English; its first 200,000 characters). Postgres computes it; never selected. */
  @Index('document_pages_search_idx', { synchronize: false })
  @Column({
    name: 'search_vector',
    type: 'tsvector',
    nullable: true,
    select: false,
    insert: false,
    update: false,
    generatedType: 'STORED',
    asExpression: "to_tsvector('english', left(text, 200000))",
  })
  searchVector?: string | null;
}
