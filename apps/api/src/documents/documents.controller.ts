import { DOCUMENT_PAGES_ORDER, DOCUMENTS_ORDER, DocumentsRepository, type DocumentListFilter, type DocumentPageRecord, type DocumentRecord } from '@app/persistence';
import { documentDetailSchema, documentListSchema, documentPagesSchema, documentTextSchema, toDocument, toDocumentDetail, toDocumentPage } from '@app/resources';
import type { ListScope, PageParams } from '../platform/paging';
import { defineRoutes } from '../platform/route.registry';
import type { RouteModule } from '../platform/route.module';
import { documentIdParam, documentPagesParams, documentsListParams } from './documents.schemas';
import { DocumentsService } from './documents.service';

export const documentsRoutes = defineRoutes({
  list: {
    method: 'GET',
    url: '/v1/documents',
    operationId: 'listDocuments',
    summary: 'List documents',
    description:
      "Issuer documents (slide decks, press releases, transcripts, reports) linked from the issuers' IR pages or filed as exhibits of their 8-Ks " +
      "(an earnings release is EX-99.1 of the Item 2.02 8-K), keyset-paginated. published_at is when the exhibit's filing was accepted, " +
      "else the date the IR page prints next to the link, else the PDF's creation date, else when the document was first seen; published_at_source " +
      '(filing, ir_page, pdf_metadata, first_seen) says which. Order, by default: documents with a known publication date (published_at_source other ' +
      'than first_seen) first, newest published_at first; then those dated only by their first sighting (first_seen), newest first; then id. ' +
      '`direction=asc` reverses the whole order. ' +
      "`doc_types` or `doc_groups` outside their lists answer 422 literal_error; `limit` above the plan's cap answers 422 less_than_equal.",
    tags: ['documents'],
    query: documentsListParams,
    response: documentListSchema,
  },
  get: {
    method: 'GET',
    url: '/v1/documents/:doc_id',
    operationId: 'getDocument',
    summary: 'One document',
    description: 'A document by id, with page_count; 404 `unknown-document` when there is none.',
    tags: ['documents'],
    path: documentIdParam,
    response: documentDetailSchema,
    errors: [404],
  },
  pages: {
    method: 'GET',
    url: '/v1/documents/:doc_id/pages',
    operationId: 'listDocumentPages',
    summary: "A document's pages",
    description:
      'Pages of the current text version in page order (an HTML exhibit is split at its page breaks), keyset-paginated; with `page`, only that page (404 `unknown-page` naming the page count when ' +
      'there is no such page). vision_caption comes from the page layout (the largest text, then the first body line), not from a vision model; ' +
      'the captioner is replaceable and named in caption_source.',
    tags: ['documents'],
    path: documentIdParam,
    query: documentPagesParams,
    response: documentPagesSchema,
    errors: [404],
  },
  text: {
    method: 'GET',
    url: '/v1/documents/:doc_id/text',
    operationId: 'getDocumentText',
    summary: "A document's whole text",
    description:
      "The document's text: its pages joined by page_separator, so text.slice(char_start, char_end) is each page's text. " +
      '404 `document-text-unavailable` until every page of the current PDF version has arrived.',
    tags: ['documents'],
    path: documentIdParam,
    response: documentTextSchema,
    errors: [404],
  },
});

/** HTTP side of documents: typed input in, the service, the response shapes out. */
export const documentsApi: RouteModule = {
  routes: documentsRoutes,
  bind({ binder, paging, dataSource }) {
    const service = new DocumentsService(new DocumentsRepository(dataSource));
    return [
      binder.bind(documentsRoutes.list, {
        handle: ({ principal, query }) => {
          const filter: DocumentListFilter = {
            symbols: query.symbols?.length ? [...new Set(query.symbols.map((s) => s.toUpperCase()))].sort() : undefined,
            docTypes: query.doc_types?.length ? [...new Set(query.doc_types)].sort() : undefined,
            docGroups: query.doc_groups?.length ? [...new Set(query.doc_groups)].sort() : undefined,
          };
          const scope: ListScope<DocumentRecord> = { list: 'documents', filters: { ...filter }, order: DOCUMENTS_ORDER, defaultDirection: 'desc' };
          return paging.list(principal, query, scope, (page) => service.list(filter, page), toDocument);
        },
      }),
      binder.bind(documentsRoutes.get, { handle: async ({ path }) => toDocumentDetail(await service.get(path.doc_id)) }),
      binder.bind(documentsRoutes.pages, {
        handle: async ({ principal, query, path }) => {
          const doc = await service.get(path.doc_id);
          if (query.page !== undefined) {
            const page = await service.page(doc, query.page);
            return { document_id: doc.id, data: [toDocumentPage(doc, page)], pagination: { next_cursor: null, has_more: false } };
          }
          // Pages are always in page order: a cursor of the other direction is refused.
          const params: PageParams = { cursor: query.cursor, limit: query.limit, direction: 'asc' };
          const scope: ListScope<DocumentPageRecord> = { list: 'document-pages', filters: { doc_id: doc.id }, order: DOCUMENT_PAGES_ORDER, defaultDirection: 'asc' };
          const page = await paging.list(principal, params, scope, (p) => service.pages(doc.id, p), (row) => toDocumentPage(doc, row));
          return { document_id: doc.id, ...page };
        },
      }),
      binder.bind(documentsRoutes.text, {
        handle: async ({ path }) => {
          const doc = await service.get(path.doc_id);
          const { separator, text } = await service.text(doc);
          return { document_id: doc.id, page_separator: separator, text_length: text.length, text };
        },
      }),
    ];
  },
};
