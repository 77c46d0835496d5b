import { z } from 'zod';
import { DOC_GROUPS, DOC_TYPES } from '@app/contracts';
import { paginationSchema, provenanceSchema } from '@app/resources';
import { SYMBOL_PATTERN } from '../companies/companies.schemas';
import { params } from '../platform/query.validation';

const cursorParam = { kind: 'string', minLength: 1, maxLength: 1024, description: 'Opaque cursor from the previous page, passed back unchanged' } as const;
const limitParam = { kind: 'int', minimum: 1, maximum: 500, default: 50, description: 'Page size, 1 to 500 (free plan and sk_test_ keys: at most 25)' } as const;

/** Query parameters of GET /v1/documents. */
export const documentsListParams = params({
  symbols: {
    kind: 'array',
    items: { kind: 'string', pattern: SYMBOL_PATTERN },
    description:
      "<TICKER>:<MARKET> symbols (case-insensitive): documents of the listed companies' issuers (by CIK); a symbol no company is listed under matches nothing. " +
      'Repeat the parameter or separate with commas',
  },
  doc_types: { kind: 'array', items: { kind: 'enum', values: DOC_TYPES }, description: 'Document types; repeat the parameter or separate with commas' },
  cursor: cursorParam,
  limit: limitParam,
  direction: { kind: 'enum', values: ['asc', 'desc'], description: 'Sort direction by published_at, then id. Default desc (newest first)' },
});

export const documentIdParam = params({
  doc_id: { kind: 'int', minimum: 1, maximum: 2_147_483_647, description: 'Document id (integer)' },
});

/** Query parameters of GET /v1/documents/{doc_id}/pages. */
export const documentPagesParams = params({
  page: { kind: 'int', minimum: 0, maximum: 1_000_000, description: '0-based page index: only that page (404 when the document has no such page). Omitted: every page, keyset-paginated' },
  cursor: cursorParam,
  limit: limitParam,
});

const documentProvenanceSchema = provenanceSchema.extend({
  citation_url: z.string().describe('The document\'s URL, to cite'),
});

export const documentSchema = z.object({
  id: z.number().int(),
  ticker: z.string().nullable().describe('Ticker from the IR registry, else the issuer\'s listing'),
  title: z.string().describe('The IR page\'s link text; without a link record, the PDF\'s title or its first page\'s caption'),
  doc_type: z.enum(DOC_TYPES).describe('From the PDF\'s classification once its text is extracted; before, from the IR page\'s section and link'),
  doc_group: z.enum(DOC_GROUPS),
  language: z.string().nullable().describe('ISO 639-1 code detected from the text; null before the text is extracted or when it is too short'),
  published_at: z.string().describe('ISO 8601; the sort key of the list. published_at_source says where it came from'),
  published_at_source: z.enum(['ir_page', 'pdf_metadata', 'first_seen']).describe('ir_page: the date printed next to the link; pdf_metadata: the PDF\'s creation date; first_seen: when the document was first seen'),
  pages: z.number().int().nullable().describe('Page count; null until the text is extracted'),
  event_id: z.number().int().nullable().describe('The IR event (earnings call, annual meeting) the page lists the document under'),
  url: z.string().describe('The document\'s URL'),
  kind: z.string().nullable().describe('The IR page\'s kind of link (presentation, press_release, annual_report, ...); null before the link record'),
  found_on: z.string().nullable().describe('The IR page the link was found on'),
  provenance: documentProvenanceSchema.describe('The PDF text\'s provenance once extracted (quote: its first line); before, the IR page link\'s'),
});

export const documentDetailSchema = documentSchema.extend({
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
  width: z.number().describe('Page width in PDF points'),
  height: z.number().describe('Page height in PDF points'),
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
