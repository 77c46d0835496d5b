import { z } from 'zod';
import { envelopeSchema } from './envelope.schema';
import { transcriptSchema } from './transcript.schema';

const cik = z.string().regex(/^\d{10}$/).describe('10-digit zero-padded SEC CIK of the issuer');
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const sha256 = z.string().regex(/^sha256:[0-9a-f]{64}$/);

/**
 * Where one extracted item stands on an issuer page. The envelope's provenance names the crawl's
 * main page; items gathered from several pages of one site carry their own page here.
 */
export const pageCitationSchema = z
  .object({
    source_url: z.string().url().describe('The IR page the item was read on'),
    content_hash: sha256.describe('sha256 of that page\'s bytes as fetched'),
    quote: z.string().min(1).describe('The text the item was read from, verbatim as it stands in the page\'s text'),
  })
  .describe('Page, hash and verbatim quote of one extracted item');

export const ROSTER_CATEGORIES = ['executives', 'ir', 'analysts'] as const;

export const issuerRosterEntrySchema = z.object({
  name: z.string().min(1).describe('Person as printed on the page'),
  role: z.string().describe('Role as printed ("Chief Executive Officer", "Investor Relations"); the firm\'s covering role ("Analyst") for analysts'),
  affiliation: z.string().min(1).describe('The company, its IR agency (e.g. Core IR) or, for analysts, the research firm'),
  email: z.string().nullable(),
  phone: z.string().nullable().describe('Phone as printed'),
  rank: z.number().int().min(1).describe('1-based order: seniority for executives, page order for IR contacts and analysts'),
  citation: pageCitationSchema,
});

/**
 * ir.roster.v1 data: the whole roster of one category for one issuer as its IR site shows it now.
 * A record replaces the previous one of its key: people no longer listed stop being current.
 */
export const issuerRosterDataSchema = z.object({
  cik,
  ticker: z.string().nullable().describe('Ticker from the IR registry, when configured'),
  category: z.enum(ROSTER_CATEGORIES),
  site_url: z.string().url().describe('The IR landing page of the registry entry'),
  entries: z.array(issuerRosterEntrySchema),
});

export const DOCUMENT_KINDS = ['presentation', 'press_release', 'annual_report', 'quarterly_report', 'proxy_statement', 'webcast', 'transcript', 'other'] as const;

/** ir.documents.v1 data: one document linked from an issuer's IR pages. Key: the document's absolute URL. */
export const issuerDocumentDataSchema = z.object({
  cik,
  ticker: z.string().nullable(),
  url: z.string().url().describe('Absolute URL of the document (fragment removed)'),
  title: z.string().min(1).describe('Link text (or the nearest heading) as printed'),
  kind: z.enum(DOCUMENT_KINDS).describe('From the link text, the URL and the section the page lists it under'),
  published_on: date.nullable().describe('Date printed next to the link, when the page gives one'),
  is_pdf: z.boolean().describe('The URL ends in .pdf (any case); ingest-decks confirms with the content type'),
  event: z
    .object({
      key: z.string().min(1).describe('Stable key: <cik>|<event date or empty>|<normalized title>'),
      title: z.string().min(1),
      date: date.nullable(),
    })
    .nullable()
    .describe('The IR event (earnings call, annual meeting, conference) the page groups the document under'),
  listed_on: z
    .enum(['ir_page', 'registry'])
    .describe('ir_page: linked from a crawled IR page; registry: a known document URL configured in the IR registry, linked from no page read'),
  citation: pageCitationSchema.nullable().describe('The IR page line linking the document; null for a registry document (no page shows it)'),
});

/** ir.descriptions.v1 data: the issuer's own description of itself. Key: the CIK. */
export const companyDescriptionDataSchema = z.object({
  cik,
  ticker: z.string().nullable(),
  description: z.string().min(1).describe('Verbatim text (whitespace collapsed) from the issuer\'s page'),
  citation: pageCitationSchema,
});

export const DOC_TYPES = ['slide_deck', 'annual_report', 'quarterly_report', 'press_release', 'proxy_statement', 'transcript', 'other'] as const;
/** The coarse type of a document: what the API serves as `doc_type`. */
export const DOC_GROUPS = ['slide_deck', 'report', 'press_release', 'transcript', 'other'] as const;
/** What a document is about (the API's `doc_group`): from the 8-K items it was filed under, else from its type and title. */
export const DOC_SUBJECTS = ['earnings', 'governance', 'transactions', 'financing', 'disclosure', 'other'] as const;
/** How a document's text was read: a PDF's text layer, an HTML document's visible text, a plain-text document. */
export const DOCUMENT_FORMATS = ['pdf', 'html', 'text'] as const;

/** Text of one part of a document is kept under Kafka's 1 MB message limit with room for JSON escapes. */
export const DOCUMENT_TEXT_CHARS_PER_RECORD = 300_000;
/** Separator between pages in a document's text: text = pages joined by it, in page order. */
export const DOCUMENT_PAGE_SEPARATOR = '\n\f\n';

export const documentPageSchema = z.object({
  page_index: z.number().int().min(0).describe('0-based'),
  text: z.string().describe('The page\'s text: lines in reading order joined by \\n'),
  char_start: z.number().int().min(0).describe('Offset of the page\'s text in the document text'),
  char_end: z.number().int().min(0).describe('document_text.slice(char_start, char_end) === text'),
  vision_caption: z.string().describe('Caption of the page from its layout (largest text, then the first body line); no vision model'),
  caption_source: z.string().min(1).describe('Which captioner made vision_caption, e.g. layout@1'),
  quote: z.string().nullable().describe('The page\'s first line, verbatim; null for a page without text'),
  width: z.number().nullable().describe('Page width in PDF points; null for an HTML or text document'),
  height: z.number().nullable().describe('Page height in PDF points; null for an HTML or text document'),
});

/** The filing an exhibit document was filed with (document-text@1 `filing`). */
export const documentFilingSchema = z.object({
  accession: z.string().regex(/^\d{10}-\d{2}-\d{6}$/),
  form: z.string().min(1).describe('8-K, 8-K/A, ...'),
  filed_date: date,
  accepted_at: z.string().datetime({ offset: true }).nullable(),
  items: z.array(z.string()).describe('The filing\'s 8-K item numbers (today\'s numbering)'),
  exhibit_type: z.string().min(1).describe('The document\'s type in the submission, as filed (EX-99.1)'),
  sequence: z.number().int().min(1).describe('The document\'s sequence number in the submission'),
  description: z.string().nullable().describe('The document\'s description in the submission, as filed'),
  file_name: z.string().nullable().describe('The document\'s file name; null in old submissions that name none'),
});

/**
 * ir.document-texts.v1 data: the text of one document (an IR PDF, or an exhibit of an SEC filing), page by page. A long document is split
 * into parts of whole pages (at most DOCUMENT_TEXT_CHARS_PER_RECORD characters of page text each);
 * all parts share the key (the document URL), so they stay ordered in one partition.
 */
export const documentTextDataSchema = z.object({
  cik,
  ticker: z.string().nullable(),
  url: z.string().url().describe('The document\'s URL: the same key as its ir.documents.v1 record; for a filing exhibit, its www.sec.gov Archives URL'),
  title: z.string().min(1).describe('Title from the IR page link, else the PDF\'s own metadata title, else the first page\'s caption'),
  doc_type: z.enum(DOC_TYPES),
  doc_group: z.enum(DOC_GROUPS),
  language: z.string().regex(/^[a-z]{2}$/).nullable().describe('ISO 639-1 code detected from the text; null when too little text'),
  page_count: z.number().int().min(1),
  page_separator: z.literal(DOCUMENT_PAGE_SEPARATOR),
  text_length: z.number().int().min(0).describe('Length of the whole document text'),
  pdf: z
    .object({
      bytes: z.number().int().min(1),
      title: z.string().nullable().describe('Info dictionary Title'),
      creator: z.string().nullable(),
      producer: z.string().nullable(),
      created_at: z.string().datetime({ offset: true }).nullable().describe('Info dictionary CreationDate'),
    })
    .nullable()
    .describe('The PDF\'s size and Info dictionary; null for an HTML or text document'),
  format: z.enum(DOCUMENT_FORMATS).optional().describe('How the text was read; absent in records written before it existed (all PDFs)'),
  bytes: z.number().int().min(0).optional().describe('Size of the document\'s bytes as fetched (for a PDF, pdf.bytes)'),
  subject: z.enum(DOC_SUBJECTS).nullable().optional().describe('What the document is about; null or absent when nothing says'),
  filing: documentFilingSchema
    .nullable()
    .optional()
    .describe('For an exhibit of an SEC filing (an 8-K\'s EX-99.1 press release): the filing and the exhibit\'s place in it; null or absent for an IR-site document'),
  no_text: z
    .enum(['images_only', 'empty'])
    .nullable()
    .optional()
    .describe('Why the document has no text: images_only (the exhibit is pictures of its pages), empty; null or absent when it has text'),
  part: z.object({
    index: z.number().int().min(0),
    count: z.number().int().min(1),
  }),
  pages: z.array(documentPageSchema).min(1),
  transcript: transcriptSchema
    .nullable()
    .optional()
    .describe('On the last part of a document whose doc_type is transcript: its call, participants and speaker turns (offsets into the whole text); null or absent otherwise'),
  transcript_gate: z
    .string()
    .nullable()
    .optional()
    .describe('Why a document that looks like a transcript (by its titles or its speaker turns) did not pass the serving gate and kept its type; null or absent otherwise'),
});

export type PageCitation = z.infer<typeof pageCitationSchema>;
export type IssuerRosterEntry = z.infer<typeof issuerRosterEntrySchema>;
export type IssuerRosterData = z.infer<typeof issuerRosterDataSchema>;
export type IssuerDocumentData = z.infer<typeof issuerDocumentDataSchema>;
export type CompanyDescriptionData = z.infer<typeof companyDescriptionDataSchema>;
export type DocumentPage = z.infer<typeof documentPageSchema>;
export type DocumentTextData = z.infer<typeof documentTextDataSchema>;
export type RosterCategory = (typeof ROSTER_CATEGORIES)[number];
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];
export type DocType = (typeof DOC_TYPES)[number];
export type DocGroup = (typeof DOC_GROUPS)[number];
export type DocSubject = (typeof DOC_SUBJECTS)[number];
export type DocumentFormat = (typeof DOCUMENT_FORMATS)[number];
export type DocumentFiling = z.infer<typeof documentFilingSchema>;

export const issuerRosterRecordV1 = envelopeSchema('ir-roster@1', issuerRosterDataSchema);
export const issuerDocumentRecordV1 = envelopeSchema('ir-document@1', issuerDocumentDataSchema);
export const companyDescriptionRecordV1 = envelopeSchema('company-description@1', companyDescriptionDataSchema);
export const documentTextRecordV1 = envelopeSchema('document-text@1', documentTextDataSchema);
export type IssuerRosterRecordV1 = z.infer<typeof issuerRosterRecordV1>;
export type IssuerDocumentRecordV1 = z.infer<typeof issuerDocumentRecordV1>;
export type CompanyDescriptionRecordV1 = z.infer<typeof companyDescriptionRecordV1>;
export type DocumentTextRecordV1 = z.infer<typeof documentTextRecordV1>;
