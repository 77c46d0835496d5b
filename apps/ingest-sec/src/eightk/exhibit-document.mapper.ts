import {
  contentHash,
  documentSubject,
  DOCUMENT_PAGE_SEPARATOR,
  DOCUMENT_TEXT_CHARS_PER_RECORD,
  recordId,
  sourceId,
  type DocGroup,
  type DocType,
  type DocumentFiling,
  type DocumentPage,
  type DocumentTextRecordV1,
  type RecordOrigin,
} from '@app/contracts';
import { buildDocumentText, detectLanguage, recognizeTranscript, toDocumentParts } from '@app/decks';
import type { ExhibitKind } from '@app/edgar';
import { PRODUCED_BY } from '../company.mapper';

/** One exhibit read from a submission, ready to map: its place in the filing, its URL, its bytes' hash and its pages. */
export interface ExhibitInput {
  cik: string;
  filing: DocumentFiling;
  /** The exhibit's www.sec.gov Archives URL (the submission's URL with a #sequence fragment when it names no file). */
  url: string;
  /** The submission's URL, which the bytes were read from. */
  submissionUrl: string;
  format: 'html' | 'text';
  /** The document's bytes as they stand in the submission (between <TEXT> and </TEXT>). */
  body: string;
  classification: ExhibitKind;
  /** Visible text page by page (the filer's page breaks). */
  pages: readonly string[];
  imagesOnly: boolean;
  /** The press release's headline or the first heading; null when the text has none. */
  title: string | null;
  fetchedAt: string;
}

/** What the exhibit's class makes it in the documents' vocabulary, before a transcript is recognized. */
const TYPE_OF_CLASS: Record<ExhibitKind, { doc_type: DocType; doc_group: DocGroup }> = {
  press_release: { doc_type: 'press_release', doc_group: 'press_release' },
  slide_deck: { doc_type: 'slide_deck', doc_group: 'slide_deck' },
  transcript: { doc_type: 'other', doc_group: 'other' },
  letter: { doc_type: 'other', doc_group: 'other' },
  report: { doc_type: 'other', doc_group: 'report' },
  other: { doc_type: 'other', doc_group: 'other' },
};

/** Caption of an HTML or text page: its first line (no layout to read the largest text from). */
export const FIRST_LINE_CAPTIONER = 'first_line@1';

const firstLine = (text: string): string | null => (text.length > 0 ? text.split('\n', 1)[0]! : null);

/**
 * One exhibit of an 8-K -> its document-text@1 records (parts of whole pages, like a PDF's). Pure.
 * A call transcript filed as an exhibit goes through the same recognizer and gate as an IR PDF's;
 * one that fails keeps its class and says why. Provenance: the SEC document with its accession,
 * the sha256 of its bytes, and its first line as the quote. Ids come from the URL, the part and
 * the hash, so the same bytes always give the same records.
 */
export function exhibitDocumentRecordsOf(input: ExhibitInput, ctx: { runId: string; origin: RecordOrigin; extractedAt: string; maxCharsPerRecord?: number }): DocumentTextRecordV1[] {
  const hash = contentHash(input.body);
  const pageTexts = input.pages.length > 0 ? input.pages : [''];
  const document = buildDocumentText(pageTexts, DOCUMENT_PAGE_SEPARATOR);
  const pages: DocumentPage[] = pageTexts.map((text, i) => ({
    page_index: i,
    text,
    char_start: document.offsets[i]!.char_start,
    char_end: document.offsets[i]!.char_end,
    vision_caption: firstLine(text) ?? '',
    caption_source: FIRST_LINE_CAPTIONER,
    quote: firstLine(text),
    width: null,
    height: null,
  }));
  const title = input.title ?? input.filing.description ?? `${input.filing.exhibit_type} of ${input.filing.form} ${input.filing.accession}`;
  const recognized = recognizeTranscript({ doc: document, pdfTitle: null, linkTitle: input.filing.description ?? title, kind: input.classification === 'transcript' ? 'transcript' : null });
  const kind = recognized.transcript ? { doc_type: 'transcript' as const, doc_group: 'transcript' as const } : TYPE_OF_CLASS[input.classification];
  const subject = documentSubject({ docType: kind.doc_type, docGroup: kind.doc_group, title, items: input.filing.items });
  const parts = toDocumentParts(pages, ctx.maxCharsPerRecord ?? DOCUMENT_TEXT_CHARS_PER_RECORD);
  const quote = pages.find((p) => p.quote !== null)?.quote ?? null;
  const bytes = Buffer.byteLength(input.body, 'utf8');

  return parts.map((part) => ({
    schema: 'document-text@1',
    key: input.url,
    id: recordId(`${input.url}#part=${part.index}`, hash),
    observed_at: input.fetchedAt,
    produced_by: PRODUCED_BY,
    correlation_id: ctx.runId,
    origin: ctx.origin,
    provenance: {
      src_id: sourceId(input.url, hash),
      source_provider: 'sec',
      source_url: input.submissionUrl,
      citation_url: input.url,
      accession: input.filing.accession,
      quote,
      content_hash: hash,
      extracted_at: ctx.extractedAt,
    },
    data: {
      cik: input.cik,
      ticker: null,
      url: input.url,
      title,
      doc_type: kind.doc_type,
      doc_group: kind.doc_group,
      language: detectLanguage(document.text),
      page_count: pages.length,
      page_separator: DOCUMENT_PAGE_SEPARATOR,
      text_length: document.text.length,
      pdf: null,
      format: input.format,
      bytes,
      subject,
      filing: input.filing,
      no_text: document.text.trim().length > 0 ? null : input.imagesOnly ? 'images_only' : 'empty',
      part: { index: part.index, count: part.count },
      pages: part.pages,
      transcript: part.index === part.count - 1 ? recognized.transcript : null,
      transcript_gate: recognized.gate,
    },
  }));
}
