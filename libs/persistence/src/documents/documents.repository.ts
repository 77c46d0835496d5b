import { pgQueryable, type PgQueryable, type SqlSource } from '../repositories/pg-queryable';
import type { PdfInfo } from './documents.table';
import { statementNamer } from '../repositories/statement-names';

/** One document as the read side returns it (read model, camelCase; not an API shape). */
export interface DocumentRecord {
  id: number;
  url: string;
  cik: string;
  /** The record's ticker, else the ticker of the issuer's listing. */
  ticker: string | null;
  title: string;
  kind: string | null;
  docType: string;
  docGroup: string;
  language: string | null;
  publishedAt: Date | null;
  sortAt: Date;
  /** sort_at to the microsecond, UTC (the keyset value: Date keeps only milliseconds). */
  sortKey: string;
  publishedAtSource: string;
  eventId: number | null;
  pageCount: number | null;
  pageSeparator: string | null;
  textLength: number | null;
  foundOn: string | null;
  linkQuote: string | null;
  linkContentHash: string | null;
  linkSrcId: string | null;
  linkExtractedAt: Date | null;
  textContentHash: string | null;
  textSourceUrl: string | null;
  textQuote: string | null;
  textSrcId: string | null;
  textExtractedAt: Date | null;
  pdfBytes: number | null;
  pdfInfo: PdfInfo | null;
  /** Why a document that looks like a call transcript did not pass the serving gate; null otherwise. */
  transcriptGate: string | null;
  firstSeenAt: Date;
}

/** One page of a document's current text version. */
export interface DocumentPageRecord {
  documentId: number;
  pageIndex: number;
  charStart: number;
  charEnd: number;
  text: string;
  visionCaption: string;
  captionSource: string;
  quote: string | null;
  width: number;
  height: number;
  contentHash: string;
}

export interface DocumentListFilter {
  /** Upper-case `<TICKER>:<MARKET>` symbols: documents of the issuers (CIKs) listed under them. */
  symbols?: string[];
  docTypes?: string[];
}

export interface DocumentListQuery {
  filter: DocumentListFilter;
  direction: 'asc' | 'desc';
  /** Keyset: (sort_at, id) of the last row of the previous page (exclusive). */
  after?: { sortKey: string; id: number };
  /** Rows to fetch (callers ask for page size + 1 to learn has_more). */
  limit: number;
}

const COLUMNS = `d.id, d.url, d.cik,
  coalesce(d.ticker, (SELECT c.ticker FROM companies c WHERE c.cik = d.cik ORDER BY c.symbol LIMIT 1)) AS ticker,
  d.title, d.kind, d.doc_type AS "docType", d.doc_group AS "docGroup", d.language, d.published_at AS "publishedAt",
  d.sort_at AS "sortAt", to_char(d.sort_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "sortKey",
  d.published_at_source AS "publishedAtSource", d.event_id AS "eventId", d.page_count AS "pageCount",
  d.page_separator AS "pageSeparator", d.text_length AS "textLength", d.found_on AS "foundOn", d.link_quote AS "linkQuote",
  d.link_content_hash AS "linkContentHash", d.link_src_id AS "linkSrcId", d.link_extracted_at AS "linkExtractedAt",
  d.text_content_hash AS "textContentHash", d.text_source_url AS "textSourceUrl", d.text_quote AS "textQuote",
  d.text_src_id AS "textSrcId", d.text_extracted_at AS "textExtractedAt", d.pdf_bytes AS "pdfBytes", d.pdf_info AS "pdfInfo", d.transcript_gate AS "transcriptGate",
  d.first_seen_at AS "firstSeenAt"`;

const PAGE_COLUMNS = `document_id AS "documentId", page_index AS "pageIndex", char_start AS "charStart", char_end AS "charEnd",
  text, vision_caption AS "visionCaption", caption_source AS "captionSource", quote, width, height, content_hash AS "contentHash"`;

/**
 * Documents and their pages, read side: keyset pages over (sort_at, id) served by
 * documents_sort_idx (documents_cik_sort_idx when filtered by issuer), pages by page index.
 */
export class DocumentsRepository {
  private readonly pool: PgQueryable;

  /** On a transaction's EntityManager, reads see that transaction's writes. */
  constructor(source: SqlSource) {
    this.pool = pgQueryable(source);
  }

  async list(query: DocumentListQuery): Promise<DocumentRecord[]> {
    const { filter } = query;
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (sql: (p: string) => string, value: unknown): void => {
      params.push(value);
      where.push(sql(`$${params.length}`));
    };
    // Symbols name listings; documents belong to issuers: match through the listing's CIK.
    if (filter.symbols?.length) add((p) => `d.cik IN (SELECT c.cik FROM companies c WHERE c.symbol = ANY(${p}::text[]))`, filter.symbols);
    if (filter.docTypes?.length) add((p) => `d.doc_type = ANY(${p}::text[])`, filter.docTypes);
    const op = query.direction === 'asc' ? '>' : '<';
    if (query.after) {
      params.push(query.after.sortKey, query.after.id);
      where.push(`(d.sort_at, d.id) ${op} ($${params.length - 1}::timestamptz, $${params.length}::integer)`);
    }
    params.push(query.limit);
    const dir = query.direction === 'asc' ? 'ASC' : 'DESC';
    const text =
      `SELECT ${COLUMNS} FROM documents d` +
      (where.length ? ` WHERE ${where.join(' AND ')}` : '') +
      ` ORDER BY d.sort_at ${dir}, d.id ${dir} LIMIT $${params.length}`;
    const result = await this.pool.query<DocumentRecord>({ name: statementName(text), text, values: params });
    return result.rows;
  }

  async findById(id: number): Promise<DocumentRecord | null> {
    const result = await this.pool.query<DocumentRecord>({ name: 'documents_by_id', text: `SELECT ${COLUMNS} FROM documents d WHERE d.id = $1`, values: [id] });
    return result.rows[0] ?? null;
  }

  /** By the document's absolute URL (its natural key, documents_url_uq). */
  async findByUrl(url: string): Promise<DocumentRecord | null> {
    const result = await this.pool.query<DocumentRecord>({ name: 'documents_by_url', text: `SELECT ${COLUMNS} FROM documents d WHERE d.url = $1`, values: [url] });
    return result.rows[0] ?? null;
  }

  /** Many documents by URL in one query (any order; unknown URLs are absent). */
  async findByUrls(urls: readonly string[]): Promise<DocumentRecord[]> {
    if (urls.length === 0) return [];
    const result = await this.pool.query<DocumentRecord>({ name: 'documents_by_urls', text: `SELECT ${COLUMNS} FROM documents d WHERE d.url = ANY($1::text[])`, values: [urls] });
    return result.rows;
  }

  /** Pages after `afterIndex` (exclusive) in page order; every page when `limit` is null. */
  async listPages(documentId: number, afterIndex: number | undefined, limit: number | null): Promise<DocumentPageRecord[]> {
    const result = await this.pool.query<DocumentPageRecord>({
      name: 'document_pages_list',
      text: `SELECT ${PAGE_COLUMNS} FROM document_pages WHERE document_id = $1 AND page_index > $2 ORDER BY page_index LIMIT $3`,
      values: [documentId, afterIndex ?? -1, limit],
    });
    return result.rows;
  }

  async findPage(documentId: number, pageIndex: number): Promise<DocumentPageRecord | null> {
    const result = await this.pool.query<DocumentPageRecord>({
      name: 'document_pages_by_index',
      text: `SELECT ${PAGE_COLUMNS} FROM document_pages WHERE document_id = $1 AND page_index = $2`,
      values: [documentId, pageIndex],
    });
    return result.rows[0] ?? null;
  }
}

const statementName = statementNamer('documents_list');
