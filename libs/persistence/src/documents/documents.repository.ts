import { pgQueryable, type PgQueryable, type SqlSource } from '../repositories/pg-queryable';
import { selectList, type RowOf } from '../table';
import { DOCUMENT_PAGES_TABLE, DOCUMENT_RECORD_COLUMNS, type DocumentRecord } from './documents.table';
import { statementNamer } from '../repositories/statement-names';

/** The columns of a DocumentPageRecord. */
const DOCUMENT_PAGE_RECORD_FIELDS = [
  'document_id', 'page_index', 'char_start', 'char_end', 'text', 'vision_caption', 'caption_source', 'quote', 'width', 'height', 'content_hash',
] as const;

/** One page of a document's current text version. */
export type DocumentPageRecord = RowOf<typeof DOCUMENT_PAGES_TABLE.columns, (typeof DOCUMENT_PAGE_RECORD_FIELDS)[number]>;

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

const PAGE_COLUMNS = selectList(DOCUMENT_PAGES_TABLE, DOCUMENT_PAGE_RECORD_FIELDS);

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
      `SELECT ${DOCUMENT_RECORD_COLUMNS} FROM documents d` +
      (where.length ? ` WHERE ${where.join(' AND ')}` : '') +
      ` ORDER BY d.sort_at ${dir}, d.id ${dir} LIMIT $${params.length}`;
    const result = await this.pool.query<DocumentRecord>({ name: statementName(text), text, values: params });
    return result.rows;
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
