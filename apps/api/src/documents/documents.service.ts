import type { DocumentListFilter, DocumentPageRecord, DocumentRecord, DocumentsRepository } from '@app/persistence';
import { DomainError } from '../platform/api.errors';

export interface DocumentPage {
  rows: DocumentRecord[];
  hasMore: boolean;
}

export interface PagesPage {
  rows: DocumentPageRecord[];
  hasMore: boolean;
}

export const unknownDocument = (id: number): DomainError =>
  new DomainError('UnknownDocument', `No document with the id ${id} has been indexed.`);

const pageCountText = (n: number): string => (n === 1 ? '1 page (page index 0)' : `${n} pages (page indexes 0 to ${n - 1})`);

/** Document reads: keyset pages of documents and of their pages, single lookups, the whole text. */
export class DocumentsService {
  constructor(private readonly repo: DocumentsRepository) {}

  async list(filter: DocumentListFilter, direction: 'asc' | 'desc', limit: number, after: { sortKey: string; id: number } | undefined): Promise<DocumentPage> {
    const rows = await this.repo.list({ filter, direction, limit: limit + 1, after });
    const hasMore = rows.length > limit;
    if (hasMore) rows.length = limit;
    return { rows, hasMore };
  }

  async get(id: number): Promise<DocumentRecord> {
    const record = await this.repo.findById(id);
    if (!record) throw unknownDocument(id);
    return record;
  }

  async pages(documentId: number, limit: number, afterIndex: number | undefined): Promise<PagesPage> {
    const rows = await this.repo.listPages(documentId, afterIndex, limit + 1);
    const hasMore = rows.length > limit;
    if (hasMore) rows.length = limit;
    return { rows, hasMore };
  }

  /** One page by index; 404 naming the page count when the document has no such page. */
  async page(doc: DocumentRecord, pageIndex: number): Promise<DocumentPageRecord> {
    if (doc.pageCount === null) {
      throw new DomainError('UnknownPage', `Document ${doc.id} has no pages yet: its text has not been extracted.`);
    }
    if (pageIndex >= doc.pageCount) {
      throw new DomainError('UnknownPage', `Document ${doc.id} has ${pageCountText(doc.pageCount)}; there is no page ${pageIndex}.`);
    }
    const page = await this.repo.findPage(doc.id, pageIndex);
    if (!page) {
      throw new DomainError('UnknownPage', `Page ${pageIndex} of document ${doc.id} (${pageCountText(doc.pageCount)}) has not been received yet.`);
    }
    return page;
  }

  /**
   * The whole text: the pages joined by the separator. Only a complete version is served (while a
   * new PDF version arrives part by part, pages are missing and the offsets would not hold).
   */
  async text(doc: DocumentRecord): Promise<{ separator: string; text: string }> {
    const pages = doc.pageCount === null ? [] : await this.repo.listPages(doc.id, undefined, null);
    if (doc.pageCount === null || doc.pageSeparator === null || pages.length !== doc.pageCount) {
      const why = doc.pageCount === null ? 'its text has not been extracted yet' : `${pages.length} of its ${doc.pageCount} pages have been received so far`;
      throw new DomainError('DocumentTextUnavailable', `The text of document ${doc.id} is not available: ${why}.`);
    }
    return { separator: doc.pageSeparator, text: pages.map((p) => p.text).join(doc.pageSeparator) };
  }
}
