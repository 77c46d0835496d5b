import type { DocGroup, DocType } from '@app/contracts';
import type { DocumentPageRecord, DocumentRecord } from '@app/persistence';

/** Provenance of a document and its pages: citation_url is always there (the document's URL). */
export interface DocumentProvenance {
  src_id: string;
  source_provider: 'issuer_page';
  source_url: string | null;
  citation_url: string;
  accession: null;
  quote: string | null;
  content_hash: string | null;
  extracted_at: string | null;
}

/** A document list item as the API serves it (GET /v1/documents); `ir_document.created` carries the detail. */
export interface DocumentResource {
  id: number;
  ticker: string | null;
  title: string;
  doc_type: DocType;
  doc_group: DocGroup;
  language: string | null;
  published_at: string;
  published_at_source: 'ir_page' | 'pdf_metadata' | 'first_seen';
  pages: number | null;
  event_id: number | null;
  url: string;
  kind: string | null;
  found_on: string | null;
  provenance: DocumentProvenance;
}

/** GET /v1/documents/{doc_id}. */
export interface DocumentDetailResource extends DocumentResource {
  page_count: number | null;
  /** Why a document that looks like a call transcript is not served as one (it keeps its doc_type); null otherwise. */
  transcript_gate: string | null;
}

/** One page of GET /v1/documents/{doc_id}/pages. */
export interface DocumentPageResource {
  document_id: number;
  page_index: number;
  char_start: number;
  char_end: number;
  vision_caption: string;
  text: string;
  caption_source: string;
  quote: string | null;
  width: number;
  height: number;
  provenance: DocumentProvenance;
}

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/**
 * The PDF text's provenance once it is extracted (the bytes the pages came from, quoting the
 * first line), else the IR page link's (the page, quoting the link). A row always has one of them.
 */
function documentProvenance(d: DocumentRecord): DocumentProvenance {
  if (d.textContentHash !== null && d.textSrcId !== null) {
    return {
      src_id: d.textSrcId,
      source_provider: 'issuer_page',
      source_url: d.textSourceUrl ?? d.url,
      citation_url: d.url,
      accession: null,
      quote: d.textQuote,
      content_hash: d.textContentHash,
      extracted_at: iso(d.textExtractedAt),
    };
  }
  return {
    src_id: d.linkSrcId ?? '',
    source_provider: 'issuer_page',
    source_url: d.foundOn,
    citation_url: d.url,
    accession: null,
    quote: d.linkQuote,
    content_hash: d.linkContentHash,
    extracted_at: iso(d.linkExtractedAt),
  };
}

/** Read model -> the spec's document list item (plus url, kind, published_at_source, found_on). */
export function toDocument(d: DocumentRecord): DocumentResource {
  return {
    id: d.id,
    ticker: d.ticker,
    title: d.title,
    doc_type: d.docType as DocType,
    doc_group: d.docGroup as DocGroup,
    language: d.language,
    published_at: d.sortAt.toISOString(),
    published_at_source: d.publishedAtSource as DocumentResource['published_at_source'],
    pages: d.pageCount,
    event_id: d.eventId,
    url: d.url,
    kind: d.kind,
    found_on: d.foundOn,
    provenance: documentProvenance(d),
  };
}

export function toDocumentDetail(d: DocumentRecord): DocumentDetailResource {
  return { ...toDocument(d), page_count: d.pageCount, transcript_gate: d.transcriptGate };
}

/** Read model -> the spec's document page (plus text, caption source, quote, size and provenance). */
export function toDocumentPage(d: DocumentRecord, p: DocumentPageRecord): DocumentPageResource {
  return {
    document_id: p.documentId,
    page_index: p.pageIndex,
    char_start: p.charStart,
    char_end: p.charEnd,
    vision_caption: p.visionCaption,
    text: p.text,
    caption_source: p.captionSource,
    quote: p.quote,
    width: p.width,
    height: p.height,
    provenance: {
      src_id: d.textSrcId ?? '',
      source_provider: 'issuer_page',
      source_url: d.textSourceUrl ?? d.url,
      // PDF open parameters: viewers jump to the page.
      citation_url: `${d.url}#page=${p.pageIndex + 1}`,
      accession: null,
      quote: p.quote,
      content_hash: p.contentHash,
      extracted_at: iso(d.textExtractedAt),
    },
  };
}
