import type { DocumentFiling, Transcript } from '@app/contracts';
import { boolean, char, date, doublePrecision, integer, jsonb, selectList, serial, text, timestamptz, tsvector, table, type RowOf } from '../table';
import { issuerSymbolSql } from '../companies/issuer-symbol';

export interface PdfInfo {
  title: string | null;
  creator: string | null;
  producer: string | null;
  created_at: string | null;
}

/**
 * One page of a document's current text version. The document text is the pages joined by the
 * document's page separator: text.slice(char_start, char_end) === page text.
 */
export const DOCUMENT_PAGES_TABLE = table('document_pages', ['document_id', 'page_index'], {
  document_id: integer(),
  /** 0-based. */
  page_index: integer(),
  char_start: integer(),
  char_end: integer(),
  text: text(),
  vision_caption: text(),
  /** Which captioner made vision_caption (layout@1: largest text + first body line, no vision model). */
  caption_source: text(),
  quote: text().nullable(),
  /** Null for an HTML or text document (no page size in points). */
  width: doublePrecision().nullable(),
  height: doublePrecision().nullable(),
  /** sha256 of the PDF version this page came from. */
  content_hash: text(),
  /** Search: the page's words (English; its first 200,000 characters). Postgres computes it; never selected. */
  search_vector: tsvector().nullable().generatedAs("to_tsvector('english'::regconfig, \"left\"(text, 200000))"),
});

/**
 * Read model of one issuer document (deck, press release, report), keyed by its URL. Two topics
 * write the same row, each only its own columns, so either may arrive first: the IR page link
 * (ir.documents.v1: title, kind, date, event, link_*) and the PDF text (ir.document-texts.v1:
 * doc type, language, page count, text_*, pdf_*). `sort_at` is the list order: the page's date,
 * else the PDF's creation date, else when the document was first seen.
 */
export const DOCUMENTS_TABLE = table('documents', ['id'], {
  /** The API's integer document id. */
  id: serial('documents', 'id'),
  url: text(),
  cik: char(10),
  ticker: text().nullable(),
  /** The IR page's link text when a link record exists, else the text record's title. */
  title: text(),
  /** The link's kind (presentation, press_release, ...); null until the link record arrives. */
  kind: text().nullable(),
  /** From the PDF text when it has arrived, else derived from the link's kind. */
  doc_type: text(),
  doc_group: text(),
  language: text().nullable(),
  is_pdf: boolean().nullable(),
  /** The date printed next to the link on the IR page (midnight UTC). */
  published_at: timestamptz().nullable(),
  pdf_created_at: timestamptz().nullable(),
  sort_at: timestamptz(),
  /** filing | ir_page | pdf_metadata | first_seen: where sort_at came from. */
  published_at_source: text(),
  /** 1 when the publication date is known (published_at_source other than first_seen), else 0: the list's first sort key. Postgres computes it. */
  dated: integer().generatedAs("((published_at_source <> 'first_seen'::text))::integer"),
  event_id: integer().nullable(),
  /** Null until the text has arrived. */
  page_count: integer().nullable(),
  page_separator: text().nullable(),
  text_length: integer().nullable(),
  /** The IR page the link was read on. */
  found_on: text().nullable(),
  link_quote: text().nullable(),
  /** sha256 of the IR page's bytes. */
  link_content_hash: text().nullable(),
  link_src_id: text().nullable(),
  link_extracted_at: timestamptz().nullable(),
  link_record_id: text().nullable(),
  link_observed_at: timestamptz().nullable(),
  /** sha256 of the PDF bytes whose text and pages are stored: the current version. */
  text_content_hash: text().nullable(),
  text_source_url: text().nullable(),
  /** The first line of the text, verbatim. */
  text_quote: text().nullable(),
  text_src_id: text().nullable(),
  text_extracted_at: timestamptz().nullable(),
  /** The document-text record (a part 0) that last wrote these text columns: a replay of it writes nothing. */
  text_record_id: text().nullable(),
  /** observed_at of the current version's part 0: an older version never replaces a newer one. */
  text_observed_at: timestamptz().nullable(),
  pdf_bytes: integer().nullable(),
  pdf_info: jsonb<PdfInfo>().nullable(),
  /** The earliest observed_at of any record of this URL. */
  first_seen_at: timestamptz(),
  updated_at: timestamptz().default('now()'),
  /** Why a document that looks like a call transcript did not pass the serving gate (its type is kept); null otherwise. */
  transcript_gate: text().nullable(),
  /** pdf | html | text: how the text was read; null for rows written before (all PDFs) and until the text arrives. */
  format: text().nullable(),
  /** earnings | governance | ... (the API's doc_group): from the text record, else from the link's kind and title. */
  subject: text().nullable(),
  /** For an exhibit of an SEC filing: its accession (documents_accession_idx) and the filing and exhibit as document-text@1 states them. */
  accession: text().nullable(),
  filing: jsonb<DocumentFiling>().nullable(),
  /** images_only | empty: why the document has no text; null when it has text. */
  no_text: text().nullable(),
  /** The IR site's URL of the document, when a link record names it (url, or the alias it was merged under). */
  link_url: text().nullable(),
  /** The filing exhibit's URL, when the document was filed as one (url, or the alias it was merged under). */
  filing_url: text().nullable(),
  /** The URL whose text and pages the row holds: one source's text, never two mixed. */
  text_url: text().nullable(),
});

/**
 * The other source's URL of a document seen from two (an IR link and an 8-K exhibit of the same
 * press release): the records of that URL apply to the row the alias names.
 */
export const DOCUMENT_ALIASES_TABLE = table('document_aliases', ['url'], {
  url: text(),
  document_id: integer(),
  created_at: timestamptz().default('now()'),
});

/** An IR event (earnings call, annual meeting, ...) that an issuer page groups documents under. */
export const IR_EVENTS_TABLE = table('ir_events', ['id'], {
  /** The API's event_id. */
  id: serial('ir_events', 'id'),
  cik: char(10),
  /** `<cik>|<event date or empty>|<normalized title>` as ingest-ir builds it. */
  event_key: text(),
  title: text(),
  event_date: date().nullable(),
  updated_at: timestamptz().default('now()'),
});

/**
 * Read model of one first-party call transcript: a document whose text passed the transcript
 * serving gate (document-text@1 `transcript`, on the version's last part). Keyed by the document's
 * URL; its pages (document_pages) hold the text the turns' offsets point into. Listed by call date.
 */
export const TRANSCRIPTS_TABLE = table('transcripts', ['id'], {
  /** The API's transcript id. */
  id: serial('transcripts', 'id'),
  document_id: integer(),
  url: text(),
  cik: char(10),
  ticker: text().nullable(),
  /** The company as the document names it. */
  company: text().nullable(),
  /** The call's title line as printed. */
  title: text().nullable(),
  call_date: date(),
  /** document | pdf_title. */
  date_source: text(),
  participants: jsonb<Transcript['participants']>(),
  turns: jsonb<Transcript['turns']>(),
  turn_count: integer(),
  front_matter: jsonb<Transcript['front_matter']>(),
  back_matter: jsonb<Transcript['back_matter']>().nullable(),
  /** sha256 of the PDF bytes the transcript was split from (the document's text version). */
  content_hash: text(),
  src_id: text(),
  source_url: text(),
  /** The first turn's first line, verbatim. */
  quote: text().nullable(),
  extracted_at: timestamptz().nullable(),
  /** The document-text record (the version's last part) that wrote the row: a replay of it writes nothing. */
  record_id: text(),
  first_seen_at: timestamptz(),
  updated_at: timestamptz().default('now()'),
});

/** The issuer's ticker when the record has none: that of its primary listing, the one `symbol` names. */
const tickerOf = (alias: string) => `coalesce(${alias}.ticker, split_part(${issuerSymbolSql(`${alias}.cik`)}, ':', 1)) AS ticker`;

/** The issuer's symbol: its listing under the record's ticker, else its primary listing. */
const symbolOf = (alias: string) => `${issuerSymbolSql(`${alias}.cik`, `${alias}.ticker`)} AS symbol`;

/** The documents columns of a DocumentRecord (besides ticker, symbol and sortKey, which are computed). */
const DOCUMENT_RECORD_FIELDS = [
  'id', 'url', 'cik', 'title', 'kind', 'doc_type', 'doc_group', 'language', 'published_at', 'sort_at', 'published_at_source', 'dated', 'event_id',
  'page_count', 'page_separator', 'text_length', 'found_on', 'link_quote', 'link_content_hash', 'link_src_id', 'link_extracted_at',
  'text_content_hash', 'text_source_url', 'text_quote', 'text_src_id', 'text_extracted_at', 'pdf_bytes', 'pdf_info', 'transcript_gate',
  'first_seen_at', 'format', 'subject', 'accession', 'filing', 'no_text', 'link_url', 'filing_url', 'text_url',
] as const;

/** One document as the read side returns it (read model, camelCase; not an API shape). */
export type DocumentRecord = RowOf<typeof DOCUMENTS_TABLE.columns, (typeof DOCUMENT_RECORD_FIELDS)[number]> & {
  /** The record's ticker, else the ticker of the issuer's listing. */
  ticker: string | null;
  /** `<TICKER>:<MARKET>` of the issuer's listing (issuerSymbolSql); null when none is known. */
  symbol: string | null;
  /** sort_at to the microsecond, UTC (the keyset value: Date keeps only milliseconds). */
  sortKey: string;
};

/** The select list of a DocumentRecord, on `documents d`. */
export const DOCUMENT_RECORD_COLUMNS = `${selectList(DOCUMENTS_TABLE, DOCUMENT_RECORD_FIELDS, 'd')}, ${tickerOf('d')}, ${symbolOf('d')},
  to_char(d.sort_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "sortKey"`;

/** The transcripts columns of a TranscriptRecord (besides ticker, and the document's language and page count). */
const TRANSCRIPT_RECORD_FIELDS = [
  'id', 'document_id', 'url', 'cik', 'company', 'title', 'call_date', 'date_source', 'participants', 'turns', 'turn_count',
  'front_matter', 'back_matter', 'content_hash', 'src_id', 'source_url', 'quote', 'extracted_at', 'first_seen_at',
] as const;

/** One transcript as the read side returns it (read model, camelCase; not an API shape). */
export type TranscriptRecord = RowOf<typeof TRANSCRIPTS_TABLE.columns, (typeof TRANSCRIPT_RECORD_FIELDS)[number]> &
  /** The document's language and page count, as documents holds them. */
  RowOf<typeof DOCUMENTS_TABLE.columns, 'language' | 'page_count'> & {
    /** The record's ticker, else the ticker of the issuer's listing. */
    ticker: string | null;
    /** `<TICKER>:<MARKET>` of the issuer's listing (issuerSymbolSql); null when none is known. */
    symbol: string | null;
  };

/** A transcript with the document text its turns' offsets point into. */
export interface TranscriptWithText extends TranscriptRecord {
  /** The pages of the current text version joined by the document's page separator. */
  documentText: string;
}

/** The select list of a TranscriptRecord, on `transcripts t JOIN documents d`. */
export const TRANSCRIPT_RECORD_COLUMNS = `${selectList(TRANSCRIPTS_TABLE, TRANSCRIPT_RECORD_FIELDS, 't')}, ${tickerOf('t')}, ${symbolOf('t')},
  ${selectList(DOCUMENTS_TABLE, ['language', 'page_count'], 'd')}`;

/** The document text of the transcript's version: its pages (that version only) joined by the separator. */
export const TRANSCRIPT_TEXT_COLUMN = `(SELECT string_agg(p.text, d.page_separator ORDER BY p.page_index) FROM document_pages p
   WHERE p.document_id = t.document_id AND p.content_hash = t.content_hash) AS "documentText"`;

/*
 * A transcript whose version's pages are gone is held back: part 0 of a new PDF version replaced
 * them and the version's last part, which upserts the row (same id) or deletes it, has not landed.
 */
export const TRANSCRIPT_TEXT_PRESENT = `EXISTS (SELECT 1 FROM document_pages p WHERE p.document_id = t.document_id AND p.content_hash = t.content_hash)`;
