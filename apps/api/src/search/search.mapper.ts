import type { SearchHitRecord } from '@app/persistence';
import type { SearchHitBody } from './search.schemas';

/** The API path of the resource a hit names: what a client fetches next. */
export function searchHitUrl(hit: SearchHitRecord): string {
  switch (hit.kind) {
    case 'company':
      return `/v1/companies/${hit.id}`;
    case 'person': {
      const query = `category=${encodeURIComponent(hit.category ?? 'executives')}${hit.isCurrent === false ? '&current_only=false' : ''}`;
      return `/v1/companies/${hit.symbol ?? ''}/executives?${query}`;
    }
    case 'filing':
      return `/v1/filings/${hit.id}`;
    case 'document':
      return `/v1/documents/${hit.documentId ?? hit.id}`;
    case 'document_page':
      return `/v1/documents/${hit.documentId}/pages?page=${hit.pageIndex}`;
  }
}

/** Read model -> one hit of GET /v1/search. */
export function toSearchHit(hit: SearchHitRecord): SearchHitBody {
  return {
    kind: hit.kind,
    id: hit.id,
    title: hit.title,
    snippet: hit.snippet,
    highlights: hit.highlights.map(([start, end]) => ({ start, end })),
    score: hit.score,
    match: hit.match,
    symbol: hit.symbol,
    url: searchHitUrl(hit),
    date: hit.date,
    document_id: hit.documentId,
    page_index: hit.pageIndex,
    accession: hit.accession,
    category: hit.category,
    is_current: hit.isCurrent,
    provenance: hit.provenance,
  };
}
