import { z } from 'zod';
import { SEARCH_KINDS, type SearchHitRecord } from '@app/persistence';
import { dateField, dateTimeField, paginationSchema, provenanceSchema } from './shared.resource';

export const searchHitSchema = z.object({
  kind: z.enum(SEARCH_KINDS).describe('company, person (an executive, IR contact or analyst on an issuer roster), filing, document, document_page'),
  id: z
    .string()
    .describe(
      "The hit's id, as the resource's endpoint names it: the symbol (company), the accession (filing), the document id (document), " +
        '<document id>:<page index> (document_page), <cik>:<category>:<source>:<person key> (person: the roster entry\'s natural key)',
    ),
  title: z.string().describe('Company or person name; filing as <filer> <form> filed <date>; document title; "<document title> — page <n>" (n 1-based)'),
  snippet: z
    .string()
    .describe('Plain text (never markup): where the query matched, cut from the text for pages, whole for names and titles'),
  highlights: z
    .array(z.object({ start: z.number().int(), end: z.number().int() }))
    .describe('Matched words in snippet: [start, end) offsets in UTF-16 code units (JavaScript string indexes). Empty for identifier and name matches'),
  score: z
    .number()
    .describe('Relevance, higher first; comparable between hits of one query only. Exact identifiers score 90 and above, names up to about 15, text up to about 12'),
  match: z.enum(['symbol', 'ticker', 'cik', 'accession', 'name', 'text']).describe('Why it matched: an exact identifier, a name (exact or approximate), or words of a text'),
  symbol: z.string().nullable().describe("<TICKER>:<MARKET> of the hit's issuer (its primary listing); null when no listing of the issuer is known"),
  url: z
    .string()
    .describe(
      'API path of the resource: /v1/companies/{symbol}, /v1/companies/{symbol}/executives?category=... (people; &current_only=false when the ' +
        'person is no longer current), /v1/filings/{accession}, /v1/documents/{id}, /v1/documents/{id}/pages?page={page index}',
    ),
  date: z.union([dateField(), dateTimeField()]).nullable().describe("Filings: filing date (YYYY-MM-DD); documents and pages: the document's published_at (ISO 8601); otherwise null"),
  document_id: z.number().int().nullable().describe('Documents and document pages'),
  page_index: z.number().int().nullable().describe('Document pages: 0-based page index'),
  accession: z.string().nullable().describe('Filings; people read from a Form 4: the filing'),
  category: z.string().nullable().describe('People: executives, ir or analysts'),
  is_current: z.boolean().nullable().describe('People: whether the executives endpoint counts the person as current'),
  provenance: provenanceSchema.nullable().describe("The hit's provenance, as its own endpoint gives it"),
});

export const searchListSchema = z.object({ data: z.array(searchHitSchema), pagination: paginationSchema });

export type SearchHitBody = z.infer<typeof searchHitSchema>;
export type SearchListBody = z.infer<typeof searchListSchema>;


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
