import type { DocumentPageRecord, DocumentRecord } from '@app/persistence';
import { toDocument as toDocumentResource, toDocumentDetail as toDocumentDetailResource, toDocumentPage as toDocumentPageResource } from '@app/resources';
import type { DocumentBody, DocumentDetailBody, DocumentPageBody } from './documents.schemas';

// The mappings live in @app/resources (`ir_document.created` events carry the same resource);
// typed here against the response schemas so the two cannot drift.

/** Read model -> the spec's document list item (plus url, kind, published_at_source, found_on). */
export const toDocument: (d: DocumentRecord) => DocumentBody = toDocumentResource;

export const toDocumentDetail: (d: DocumentRecord) => DocumentDetailBody = toDocumentDetailResource;

/** Read model -> the spec's document page (plus text, caption source, quote, size and provenance). */
export const toDocumentPage: (d: DocumentRecord, p: DocumentPageRecord) => DocumentPageBody = toDocumentPageResource;
