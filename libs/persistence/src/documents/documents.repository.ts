import { pgQueryable, type PgQueryable, type SqlSource } from '../repositories/pg-queryable';
import { selectList, type RowOf } from '../table';
import { DOCUMENT_PAGES_TABLE, DOCUMENT_RECORD_COLUMNS, type DocumentRecord } from './documents.table';
import { statementNamer } from '../repositories/statement-names';
import { keysetOrder, keysetSql, toPage, type Page, type PageRequest } from '../keyset';

/** The columns of a DocumentPageRecord. */
const DOCUMENT_PAGE_RECORD_FIELDS = [
  'document_id', 'page_index', 'char_start', 'char_end', 'text', 'vision_caption', 'caption_source', 'quote', 'width', 'height', 'content_hash',
] as const;

/** One page of a document's current text version. */
export type DocumentPageRecord = RowOf<typeof DOCUMENT_PAGES_TABLE.columns, (typeof DOCUMENT_PAGE_RECORD_FIELDS)[number]>;

export interface DocumentListFilter {
  /** Upper-case `<TICKER>:<MARKET>` symbols: documents of the issuers (CIKs) listed under them. */
  symbols?: string[];
  /** The API's doc_type: the documents' coarse type (doc_group column). */
  docTypes?: string[];
  /** The API's doc_group: what documents are about (subject column; 'other' includes documents nothing says about). */
  docGroups?: string[];
}

/**
 * The document list's order: documents with a known publication date (dated 1) before those dated
 * only by their first sighting, then sort_at (to the microsecond, as sortKey carries it), then id.
 */
export const DOCUMENTS_ORDER = keysetOrder<DocumentRecord>(
  { sql: 'd.dated', type: 'integer', of: (d) => d.dated, accepts: (v) => v === 0 || v === 1 },
  { sql: 'd.sort_at', type: 'timestamptz', of: (d) => d.sortKey },
  { sql: 'd.id', type: 'integer', of: (d) => d.id },
);

/** A document's pages, in page order (always ascending). */
export const DOCUMENT_PAGES_ORDER = keysetOrder<DocumentPageRecord>({ sql: 'page_index', type: 'integer', of: (p) => p.pageIndex });

const PAGE_COLUMNS = selectList(DOCUMENT_PAGES_TABLE, DOCUMENT_PAGE_RECORD_FIELDS);

/**
 * Documents and their pages, read side: keyset pages over (dated, sort_at, id) served by
 * documents_sort_idx (documents_cik_sort_idx when filtered by issuer), pages by page index.
 */
export class DocumentsRepository {
  private readonly pool: PgQueryable;

  /** On a transaction's EntityManager, reads see that transaction's writes. */
  constructor(source: SqlSource) {
    this.pool = pgQueryable(source);
  }

  async list(filter: DocumentListFilter, page: PageRequest): Promise<Page<DocumentRecord>> {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (sql: (p: string) => string, value: unknown): void => {
      params.push(value);
      where.push(sql(`$${params.length}`));
    };
    // Symbols name listings; documents belong to issuers: match through the listing's CIK.
    if (filter.symbols?.length) add((p) => `d.cik IN (SELECT c.cik FROM companies c WHERE c.symbol = ANY(${p}::text[]))`, filter.symbols);
    if (filter.docTypes?.length) add((p) => `d.doc_group = ANY(${p}::text[])`, filter.docTypes);
    if (filter.docGroups?.length) add((p) => `coalesce(d.subject, 'other') = ANY(${p}::text[])`, filter.docGroups);
    const keyset = keysetSql(DOCUMENTS_ORDER, page, params);
    if (keyset.predicate) where.push(keyset.predicate);
    const text = `SELECT ${DOCUMENT_RECORD_COLUMNS} FROM documents d` + (where.length ? ` WHERE ${where.join(' AND ')}` : '') + ` ${keyset.orderByLimit}`;
    const result = await this.pool.query<DocumentRecord>({ name: statementName(text), text, values: params });
    return toPage(DOCUMENTS_ORDER, result.rows, page.limit);
  }

  async findById(id: number): Promise<DocumentRecord | null> {
    const result = await this.pool.query<DocumentRecord>({ name: 'documents_by_id', text: `SELECT ${DOCUMENT_RECORD_COLUMNS} FROM documents d WHERE d.id = $1`, values: [id] });
    return result.rows[0] ?? null;
  }

  /** By the document's absolute URL (its natural key, documents_url_uq). */
  async findByUrl(url: string): Promise<DocumentRecord | null> {
    const result = await this.pool.query<DocumentRecord>({ name: 'documents_by_url', text: `SELECT ${DOCUMENT_RECORD_COLUMNS} FROM documents d WHERE d.url = $1`, values: [url] });
    return result.rows[0] ?? null;
  }

  /** One keyset page of a document's pages. */
  async listPages(documentId: number, page: PageRequest): Promise<Page<DocumentPageRecord>> {
    const params: unknown[] = [documentId];
    const keyset = keysetSql(DOCUMENT_PAGES_ORDER, page, params);
    const text = `SELECT ${PAGE_COLUMNS} FROM document_pages WHERE document_id = $1` + (keyset.predicate ? ` AND ${keyset.predicate}` : '') + ` ${keyset.orderByLimit}`;
    const result = await this.pool.query<DocumentPageRecord>({ name: pagesStatementName(text), text, values: params });
    return toPage(DOCUMENT_PAGES_ORDER, result.rows, page.limit);
  }

  /** Every page of a document, in page order (the whole text). */
  async listAllPages(documentId: number): Promise<DocumentPageRecord[]> {
    const result = await this.pool.query<DocumentPageRecord>({
      name: 'document_pages_all',
      text: `SELECT ${PAGE_COLUMNS} FROM document_pages WHERE document_id = $1 ORDER BY page_index`,
      values: [documentId],
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
const pagesStatementName = statementNamer('document_pages_list');
