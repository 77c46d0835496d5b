import { DOC_GROUPS, DOC_SUBJECTS } from '@app/contracts';
import { SYMBOL_PATTERN } from '../companies/companies.schemas';
import { CURSOR_PARAM, LIMIT_PARAM, params } from '../platform/query.validation';

/** Query parameters of GET /v1/documents. */
export const documentsListParams = params({
  symbols: {
    kind: 'array',
    items: { kind: 'string', pattern: SYMBOL_PATTERN },
    description:
      "<TICKER>:<MARKET> symbols (case-insensitive): documents of the listed companies' issuers (by CIK); a symbol no company is listed under matches nothing. " +
      'Repeat the parameter or separate with commas',
  },
  doc_types: {
    kind: 'array',
    items: { kind: 'enum', values: DOC_GROUPS },
    description: 'Document types; repeat the parameter or separate with commas',
  },
  doc_groups: {
    kind: 'array',
    items: { kind: 'enum', values: DOC_SUBJECTS },
    description: 'What documents are about; repeat the parameter or separate with commas',
  },
  cursor: CURSOR_PARAM,
  limit: LIMIT_PARAM,
  direction: { kind: 'enum', values: ['asc', 'desc'], description: 'desc (default): dated documents newest first, then first-seen-only ones newest first; asc: the reverse' },
});

export const documentIdParam = params({
  doc_id: { kind: 'int', minimum: 1, maximum: 2_147_483_647, description: 'Document id (integer)' },
});

/** Query parameters of GET /v1/documents/{doc_id}/pages. */
export const documentPagesParams = params({
  page: { kind: 'int', minimum: 0, maximum: 1_000_000, description: '0-based page index: only that page (404 when the document has no such page). Omitted: every page, keyset-paginated' },
  cursor: CURSOR_PARAM,
  limit: LIMIT_PARAM,
});
