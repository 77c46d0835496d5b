import { z } from 'zod';
import { DOC_GROUPS, DOC_SUBJECTS, DOCUMENT_FORMATS, type DocGroup, type DocSubject, type DocumentFormat } from '@app/contracts';
import type { DocumentPageRecord, DocumentRecord } from '@app/persistence';
import { dateTimeField, paginationSchema, provenanceSchema } from './shared.resource';

/** Provenance of a document and its pages: citation_url is always there (the document's URL). */
const documentProvenanceSchema = provenanceSchema.extend({
  citation_url: z.string().describe('The document\'s URL, to cite'),
});

/** The reports doc_type `report` groups (report_type). */
export const REPORT_TYPES = ['annual_report', 'quarterly_report', 'proxy_statement'] as const;

/** An exhibit document's place in its filing (the filing itself: accession and items). */
const exhibitSchema = z.object({
  type: z.string().describe('As filed: EX-99.1, ...'),
  sequence: z.number().int(),
  description: z.string().nullable(),
});

/** A document list item as the API serves it (GET /v1/documents); `ir_document.created` carries the detail. */
export const documentSchema = z.object({
  id: z.number().int(),
  symbol: z.string().nullable().describe("<TICKER>:<MARKET> of the issuer's listing under ticker, else its primary one; null when none is known"),
  ticker: z.string().nullable().describe('Ticker from the IR registry, else the issuer\'s listing'),
  title: z.string().describe('The IR page\'s link text; else the document\'s own title (a press release\'s headline, a PDF\'s title) or its first page\'s caption'),
  doc_type: z
    .enum(DOC_GROUPS)
    .describe('From the text once read, before from the IR link'),
  doc_group: z
    .enum(DOC_SUBJECTS)
    .describe('What it is about: from its 8-K\'s items, else its type and title'),
  report_type: z.enum(REPORT_TYPES).nullable().describe('Which report; null for others'),
  format: z.enum(DOCUMENT_FORMATS).nullable().describe('How the text was read; null before it is read'),
  language: z.string().nullable().describe('ISO 639-1 code detected from the text; null before the text is extracted or when it is too short'),
  published_at: dateTimeField().describe('ISO 8601; the sort key of the list. published_at_source says where it came from'),
  published_at_source: z
    .enum(['filing', 'ir_page', 'pdf_metadata', 'first_seen'])
    .describe('filing: when its filing was accepted; ir_page: the date next to the link; pdf_metadata: the PDF\'s creation date; first_seen: when first seen (no publication date known: the list puts these after the dated ones)'),
  pages: z.number().int().nullable().describe('Page count; null until the text is extracted'),
  event_id: z.number().int().nullable().describe('Groups the documents of one event: the IR page\'s event, or the filing an exhibit came with'),
  url: z.string().describe('The document\'s URL'),
  kind: z.string().nullable().describe('The IR page\'s kind of link (presentation, press_release, ...); null for a filing exhibit'),
  found_on: z.string().nullable().describe('The IR page the link was found on; null for a filing exhibit'),
  accession: z.string().nullable().describe('For a filing exhibit: its filing; else null'),
  items: z.array(z.string()).nullable().describe('For a filing exhibit: its 8-K\'s items; else null'),
  exhibit: exhibitSchema.nullable().describe('For a filing exhibit: its place in the filing; else null'),
  no_text: z.enum(['images_only', 'empty']).nullable().describe('Why it has no text; null when it has'),
  provenance: documentProvenanceSchema.describe('The text\'s provenance once extracted (quote: its first line); before, the IR page link\'s'),
});

export const documentDetailSchema = documentSchema.extend({
  sources: z
    .array(z.object({ provider: z.enum(['issuer_page', 'sec']), url: z.string(), accession: z.string().nullable() }))
    .describe('Its IR link and its filing exhibit: one document'),
  page_count: z.number().int().nullable().describe('Page count; null until the text is extracted'),
  transcript_gate: z
    .string()
    .nullable()
    .describe(
      'Why a document that looks like a call transcript (by its link, its PDF title or its speaker turns) is not served as one under /v1/transcripts ' +
        '(for example "no speaker turns found"); it keeps its doc_type. Null otherwise',
    ),
});

export const documentListSchema = z.object({ data: z.array(documentSchema), pagination: paginationSchema });

export const documentPageSchema = z.object({
  document_id: z.number().int(),
  page_index: z.number().int().describe('0-based'),
  char_start: z.number().int().describe('Offset of the page\'s text in the document text (GET /v1/documents/{doc_id}/text)'),
  char_end: z.number().int().describe('text.slice(char_start, char_end) is the page\'s text'),
  vision_caption: z
    .string()
    .describe(
      'Caption of the page from its layout: the largest text, then the first body line. No vision model reads the page: ' +
        'the caption comes from a replaceable captioner named in caption_source',
    ),
  text: z.string().describe('The page\'s text, lines in reading order joined by \\n'),
  caption_source: z.string().describe('The captioner that made vision_caption, e.g. layout@1'),
  quote: z.string().nullable().describe('The page\'s first line, verbatim; null for a page without text'),
  width: z.number().nullable().describe('Page width in PDF points; null for an HTML or text document'),
  height: z.number().nullable().describe('Page height in PDF points; null for an HTML or text document'),
  provenance: documentProvenanceSchema,
});

export const documentPagesSchema = z.object({
  document_id: z.number().int(),
  data: z.array(documentPageSchema),
  pagination: paginationSchema,
});

export const documentTextSchema = z.object({
  document_id: z.number().int(),
  page_separator: z.string().describe('Between two pages\' text: the text is the pages joined by it, in page order'),
  text_length: z.number().int(),
  text: z.string().describe('The whole text: text.slice(page.char_start, page.char_end) === page.text for every page'),
});

export type DocumentBody = z.infer<typeof documentSchema>;
export type DocumentDetailBody = z.infer<typeof documentDetailSchema>;
export type DocumentListBody = z.infer<typeof documentListSchema>;
export type DocumentPageBody = z.infer<typeof documentPageSchema>;
export type DocumentPagesBody = z.infer<typeof documentPagesSchema>;
export type DocumentTextBody = z.infer<typeof documentTextSchema>;

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** The text the row holds is its filing exhibit's (the SEC document), not an IR copy's. */
const textFromFiling = (d: DocumentRecord): boolean => d.filingUrl !== null && d.textUrl === d.filingUrl;

/**
 * The PDF text's provenance once it is extracted (the bytes the pages came from, quoting the
 * first line), else the IR page link's (the page, quoting the link). A row always has one of them.
 */
function documentProvenance(d: DocumentRecord): DocumentBody['provenance'] {
  if (d.textContentHash !== null && d.textSrcId !== null) {
    return {
      src_id: d.textSrcId,
      source_provider: textFromFiling(d) ? 'sec' : 'issuer_page',
      source_url: d.textSourceUrl ?? d.url,
      citation_url: d.textUrl ?? d.url,
      accession: textFromFiling(d) ? d.accession : null,
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
export function toDocument(d: DocumentRecord): DocumentBody {
  const filing = d.filing;
  return {
    id: d.id,
    symbol: d.symbol,
    ticker: d.ticker,
    title: d.title,
    doc_type: d.docGroup as DocGroup,
    doc_group: (d.subject ?? 'other') as DocSubject,
    report_type: (REPORT_TYPES as readonly string[]).includes(d.docType) ? (d.docType as (typeof REPORT_TYPES)[number]) : null,
    format: d.format as DocumentFormat | null,
    language: d.language,
    published_at: d.sortAt.toISOString(),
    published_at_source: d.publishedAtSource as DocumentBody['published_at_source'],
    pages: d.pageCount,
    event_id: d.eventId,
    url: d.url,
    kind: d.kind,
    found_on: d.foundOn,
    accession: d.accession,
    items: filing ? filing.items : null,
    exhibit: filing ? { type: filing.exhibit_type, sequence: filing.sequence, description: filing.description } : null,
    no_text: d.noText as DocumentBody['no_text'],
    provenance: documentProvenance(d),
  };
}

export function toDocumentDetail(d: DocumentRecord): DocumentDetailBody {
  const sources: DocumentDetailBody['sources'] = [];
  if (d.linkUrl) sources.push({ provider: 'issuer_page', url: d.linkUrl, accession: null });
  if (d.filingUrl) sources.push({ provider: 'sec', url: d.filingUrl, accession: d.accession });
  return { ...toDocument(d), sources, page_count: d.pageCount, transcript_gate: d.transcriptGate };
}

/** Read model -> the spec's document page (plus text, caption source, quote, size and provenance). */
export function toDocumentPage(d: DocumentRecord, p: DocumentPageRecord): DocumentPageBody {
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
      source_provider: textFromFiling(d) ? 'sec' : 'issuer_page',
      source_url: d.textSourceUrl ?? d.url,
      // PDF open parameters: viewers jump to the page; an HTML exhibit has no page anchors.
      citation_url: d.format === 'html' || d.format === 'text' ? (d.textUrl ?? d.url) : `${d.textUrl ?? d.url}#page=${p.pageIndex + 1}`,
      accession: textFromFiling(d) ? d.accession : null,
      quote: p.quote,
      content_hash: p.contentHash,
      extracted_at: iso(d.textExtractedAt),
    },
  };
}
