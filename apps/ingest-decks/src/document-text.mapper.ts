import {
  documentSubject,
  DOCUMENT_PAGE_SEPARATOR,
  DOCUMENT_TEXT_CHARS_PER_RECORD,
  recordId,
  sourceId,
  type DocumentKind,
  type DocumentPage,
  type DocumentTextRecordV1,
  type RecordOrigin,
} from '@app/contracts';
import { buildDocumentText, classifyDocument, detectLanguage, layoutCaptioner, recognizeTranscript, toDocumentParts, type ExtractedPdf, type PageCaptioner } from '@app/decks';

export const PRODUCED_BY = 'ingest-decks';

/** What the IR page said about the PDF (from its ir-document@1 record, or the command line). */
export interface DeckLink {
  url: string;
  cik: string;
  ticker: string | null;
  /** The link text on the IR page; null in direct mode without --title. */
  title: string | null;
  kind: DocumentKind | null;
}

export interface PdfSource {
  bytes: number;
  contentHash: string;
  fetchedAt: Date;
}

export interface MapContext {
  runId: string;
  /** Live discovery or history: the records' origin. */
  origin: RecordOrigin;
  extractedAt: Date;
  captioner?: PageCaptioner;
  /** Defaults to the contract's DOCUMENT_TEXT_CHARS_PER_RECORD; smaller only to make small examples. */
  maxCharsPerRecord?: number;
}

/** The last path segment of a URL, decoded: the title of last resort for a PDF that says nothing. */
function fileNameOf(url: string): string {
  const segment = new URL(url).pathname.split('/').filter(Boolean).pop() ?? '';
  try {
    return decodeURIComponent(segment) || url;
  } catch {
    return segment || url;
  }
}

const firstLine = (text: string): string | null => (text.length > 0 ? text.split('\n', 1)[0]! : null);

/**
 * One extracted PDF -> its document-text@1 records, one per part of whole pages (see
 * toDocumentParts; throws DecksError('page_too_large')). Pure. Every part states the whole
 * document (title, type, language, page count, text length) and carries its own pages, whose
 * offsets point into the whole document text. A document recognized as a call transcript that passes
 * the serving gate is typed `transcript` and its last part carries the transcript (its offsets need
 * every page before it); one that looks like a transcript but fails keeps its type and says why in
 * `transcript_gate`. Provenance: the PDF's URL and hash; the quote is the
 * first line of the first page that has text. Ids come from the URL, the part and the PDF's hash,
 * so the same bytes always give the same records.
 */
export function documentTextRecordsOf(link: DeckLink, source: PdfSource, pdf: ExtractedPdf, ctx: MapContext): DocumentTextRecordV1[] {
  const captioner = ctx.captioner ?? layoutCaptioner;
  const document = buildDocumentText(pdf.pages.map((p) => p.text), DOCUMENT_PAGE_SEPARATOR);
  const pages: DocumentPage[] = pdf.pages.map((page, i) => ({
    page_index: page.page_index,
    text: page.text,
    char_start: document.offsets[i]!.char_start,
    char_end: document.offsets[i]!.char_end,
    vision_caption: captioner.caption(page),
    caption_source: captioner.id,
    quote: firstLine(page.text),
    width: page.width,
    height: page.height,
  }));
  const firstWithText = pages.find((p) => p.text.length > 0);
  const title = link.title ?? pdf.info.title ?? (pages.find((p) => p.vision_caption.length > 0)?.vision_caption || fileNameOf(link.url));
  const classified = classifyDocument({ pages: pdf.pages, info: pdf.info, kind: link.kind, title: link.title, firstPageCaption: firstWithText?.vision_caption ?? null });
  const transcript = recognizeTranscript({ doc: document, pdfTitle: pdf.info.title, linkTitle: link.title, kind: link.kind });
  const kind = transcript.transcript ? { doc_type: 'transcript' as const, doc_group: 'transcript' as const } : classified;
  const language = detectLanguage(document.text);
  const subject = documentSubject({ docType: kind.doc_type, docGroup: kind.doc_group, title, items: null });
  const parts = toDocumentParts(pages, ctx.maxCharsPerRecord ?? DOCUMENT_TEXT_CHARS_PER_RECORD);

  return parts.map((part) => ({
    schema: 'document-text@1',
    key: link.url,
    id: recordId(`${link.url}#part=${part.index}`, source.contentHash),
    observed_at: source.fetchedAt.toISOString(),
    produced_by: PRODUCED_BY,
    correlation_id: ctx.runId,
    origin: ctx.origin,
    provenance: {
      src_id: sourceId(link.url, source.contentHash),
      source_provider: 'issuer_page',
      source_url: link.url,
      citation_url: link.url,
      accession: null,
      quote: firstWithText?.quote ?? null,
      content_hash: source.contentHash,
      extracted_at: ctx.extractedAt.toISOString(),
    },
    data: {
      cik: link.cik,
      ticker: link.ticker,
      url: link.url,
      title,
      doc_type: kind.doc_type,
      doc_group: kind.doc_group,
      language,
      page_count: pdf.pageCount,
      page_separator: DOCUMENT_PAGE_SEPARATOR,
      text_length: document.text.length,
      pdf: { bytes: source.bytes, ...pdf.info },
      format: 'pdf',
      bytes: source.bytes,
      subject,
      filing: null,
      no_text: document.text.trim().length === 0 ? 'empty' : null,
      part: { index: part.index, count: part.count },
      pages: part.pages,
      transcript: part.index === part.count - 1 ? transcript.transcript : null,
      transcript_gate: transcript.gate,
    },
  }));
}
