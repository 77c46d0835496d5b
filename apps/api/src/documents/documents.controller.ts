import type { DataSource } from 'typeorm';
import { DocumentsRepository, type DocumentListFilter } from '@app/persistence';
import type { Principal } from '../auth/api-keys.service';
import { ValidationError, type ValidationItem } from '../platform/api.errors';
import { CursorCodec, filterHash } from '../platform/cursor.codec';
import { LEGACY_TEXT_KEY, legacyKey } from '../platform/cursor.codec';
import { QueryParser, valueErrorItem, type ParamSpecs, type ParamValues } from '../platform/query.validation';
import type { BoundRoute, RouteDefinition } from '../platform/route.registry';
import { planLimitItem, type PlanTable } from '../rate-limit/plans';
import { toDocument, toDocumentDetail, toDocumentPage } from './documents.mapper';
import {
  documentDetailSchema,
  documentIdParam,
  documentListSchema,
  documentPagesParams,
  documentPagesSchema,
  documentsListParams,
  documentTextSchema,
  type DocumentDetailBody,
  type DocumentListBody,
  type DocumentPagesBody,
  type DocumentTextBody,
} from './documents.schemas';
import { DocumentsService } from './documents.service';

export const documentsRoutes = {
  list: {
    method: 'GET',
    url: '/v1/documents',
    operationId: 'listDocuments',
    summary: 'List documents',
    description:
      "Issuer documents (slide decks, press releases, reports) linked from the issuers' IR pages, keyset-paginated by " +
      'published_at then id, newest first by default (`direction=asc` for oldest first). published_at is the date the IR page ' +
      "prints next to the link, else the PDF's creation date, else when the document was first seen (published_at_source). " +
      "`doc_types` outside the list answer 422 literal_error; `limit` above the plan's cap answers 422 less_than_equal.",
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
      'Pages of the current PDF version in page order, keyset-paginated; with `page`, only that page (404 `unknown-page` naming the page count when ' +
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
} satisfies Record<string, RouteDefinition>;

const listParser = new QueryParser(documentsListParams);
const idParser = new QueryParser(documentIdParam);
const pagesParser = new QueryParser(documentPagesParams);

const CURSOR_KEY = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)\|(\d{1,10})$/;

/** HTTP side of documents: parse and validate, call the service, map to the response shapes. */
export class DocumentsController {
  constructor(
    private readonly service: DocumentsService,
    private readonly cursors: CursorCodec,
    private readonly plans: PlanTable,
  ) {}

  routes(): BoundRoute[] {
    return [
      { definition: documentsRoutes.list, handler: (req) => this.list(req.query as Record<string, unknown>, req.principal!) },
      { definition: documentsRoutes.get, handler: (req) => this.get(req.params as Record<string, unknown>) },
      {
        definition: documentsRoutes.pages,
        handler: (req) => this.pages(req.params as Record<string, unknown>, req.query as Record<string, unknown>, req.principal!),
      },
      { definition: documentsRoutes.text, handler: (req) => this.text(req.params as Record<string, unknown>) },
    ];
  }

  async list(query: Record<string, unknown>, principal: Principal): Promise<DocumentListBody> {
    const items: ValidationItem[] = [];
    const p = listParser.parse(query, items);
    this.checkLimit(p, query, principal, items);
    if (items.length) throw new ValidationError(items);
    const symbols = p.symbols as string[] | undefined;
    const docTypes = p.doc_types as string[] | undefined;
    const filter: DocumentListFilter = {
      symbols: symbols?.length ? [...new Set(symbols.map((s) => s.toUpperCase()))].sort() : undefined,
      docTypes: docTypes?.length ? [...new Set(docTypes)].sort() : undefined,
    };
    const f = filterHash('documents', { ...filter });
    let direction = p.direction as 'asc' | 'desc' | undefined;
    let after: { sortKey: string; id: number } | undefined;
    if (p.cursor !== undefined) {
      const decoded = this.cursors.decode(p.cursor as string, { f, d: direction, order: LEGACY_TEXT_KEY });
      const m = decoded ? CURSOR_KEY.exec(legacyKey(decoded.k)) : null;
      if (!decoded || !m) throw new ValidationError([valueErrorItem(['query', 'cursor'], p.cursor, 'Invalid cursor')]);
      after = { sortKey: m[1]!, id: Number(m[2]) };
      direction = decoded.d;
    }
    direction ??= 'desc';
    const page = await this.service.list(filter, direction, p.limit as number, after);
    const last = page.rows[page.rows.length - 1];
    return {
      data: page.rows.map(toDocument),
      pagination: {
        next_cursor: page.hasMore && last ? this.cursors.encode({ k: [`${last.sortKey}|${last.id}`], d: direction, f }) : null,
        has_more: page.hasMore,
      },
    };
  }

  async get(params: Record<string, unknown>): Promise<DocumentDetailBody> {
    return toDocumentDetail(await this.service.get(this.documentId(params)));
  }

  async pages(params: Record<string, unknown>, query: Record<string, unknown>, principal: Principal): Promise<DocumentPagesBody> {
    const items: ValidationItem[] = [];
    const path = idParser.parse(params, items, 'path');
    const p = pagesParser.parse(query, items);
    this.checkLimit(p, query, principal, items);
    if (items.length) throw new ValidationError(items);
    const doc = await this.service.get(path.doc_id as number);
    if (p.page !== undefined) {
      const page = await this.service.page(doc, p.page as number);
      return { document_id: doc.id, data: [toDocumentPage(doc, page)], pagination: { next_cursor: null, has_more: false } };
    }
    const f = filterHash('document-pages', { doc_id: doc.id });
    let afterIndex: number | undefined;
    if (p.cursor !== undefined) {
      const decoded = this.cursors.decode(p.cursor as string, { f, d: 'asc', order: LEGACY_TEXT_KEY });
      if (!decoded || !/^\d{1,7}$/.test(legacyKey(decoded.k))) throw new ValidationError([valueErrorItem(['query', 'cursor'], p.cursor, 'Invalid cursor')]);
      afterIndex = Number(legacyKey(decoded.k));
    }
    const page = await this.service.pages(doc.id, p.limit as number, afterIndex);
    const last = page.rows[page.rows.length - 1];
    return {
      document_id: doc.id,
      data: page.rows.map((row) => toDocumentPage(doc, row)),
      pagination: {
        next_cursor: page.hasMore && last ? this.cursors.encode({ k: [String(last.pageIndex)], d: 'asc', f }) : null,
        has_more: page.hasMore,
      },
    };
  }

  async text(params: Record<string, unknown>): Promise<DocumentTextBody> {
    const doc = await this.service.get(this.documentId(params));
    const { separator, text } = await this.service.text(doc);
    return { document_id: doc.id, page_separator: separator, text_length: text.length, text };
  }

  private documentId(params: Record<string, unknown>): number {
    const items: ValidationItem[] = [];
    const path = idParser.parse(params, items, 'path');
    if (items.length) throw new ValidationError(items);
    return path.doc_id as number;
  }

  private checkLimit(p: ParamValues<ParamSpecs>, query: Record<string, unknown>, principal: Principal, items: ValidationItem[]): void {
    const overCap = items.length === 0 ? planLimitItem(p.limit as number | undefined, query.limit, this.plans, principal) : null;
    if (overCap) items.push(overCap);
  }
}

/** Wires the documents controller on the api's DataSource (called from api.context). */
export function createDocumentsController(dataSource: DataSource, cursors: CursorCodec, plans: PlanTable): DocumentsController {
  return new DocumentsController(new DocumentsService(new DocumentsRepository(dataSource)), cursors, plans);
}
