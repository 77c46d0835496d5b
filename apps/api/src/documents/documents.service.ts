import type { DocumentListFilter, DocumentPageRecord, DocumentRecord, DocumentsRepository, Page, PageRequest } from '@app/persistence';
import { DomainError } from '../platform/api.errors';

export const unknownDocument = (id: number): DomainError =>
  new DomainError('UnknownDocument', `No document with the id ${id} has been indexed.`);

const pageCountText = (n: number): string => (n === 1 ? '1 page (page index 0)' : `${n} pages (page indexes 0 to ${n - 1})`);

/** Document reads: keyset pages of documents and of their pages, single lookups, the whole text. */
export class DocumentsService {
  constructor(private readonly repo: DocumentsRepository) {}

  list(filter: DocumentListFilter, page: PageRequest): Promise<Page<DocumentRecord>> {
    return this.repo.list(filter, page);
  }

  async get(id: number): Promise<DocumentRecord> {
    const record = await this.repo.findById(id);
    if (!record) throw unknownDocument(id);
    return record;
  }

  pages(documentId: number, page: PageRequest): Promise<Page<DocumentPageRecord>> {
    return this.repo.listPages(documentId, page);
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
    const pages = doc.pageCount === null ? [] : await this.repo.listAllPages(doc.id);
    if (doc.pageCount === null || doc.pageSeparator === null || pages.length !== doc.pageCount) {
      const why = doc.pageCount === null ? 'its text has not been extracted yet' : `${pages.length} of its ${doc.pageCount} pages have been received so far`;
      throw new DomainError('DocumentTextUnavailable', `The text of document ${doc.id} is not available: ${why}.`);
    }
    return { separator: doc.pageSeparator, text: pages.map((p) => p.text).join(doc.pageSeparator) };
  }
}
