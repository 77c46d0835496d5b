import { z } from 'zod';
import { SEARCH_KINDS } from '@app/persistence';
import { paginationSchema, provenanceSchema } from '@app/resources';
import { params } from '../platform/query.validation';

/** Characters of `q` accepted; longer answers 422 string_too_long (a pasted paragraph fits). */
export const SEARCH_Q_MAX_CHARS = 1000;

/** Query parameters of GET /v1/search. */
export const searchParams = params({
  q: {
    kind: 'string',
    minLength: 1,
    maxLength: SEARCH_Q_MAX_CHARS,
    description:
      `What to look for, 1 to ${SEARCH_Q_MAX_CHARS} characters (longer: 422 string_too_long; NUL: 422 value_error). Words match whole words ` +
      '(English stemming in document text: "leases" finds "leasing"); "quoted words" match as a phrase; -word excludes; OR between words ' +
      'accepts either. Anything else is taken as plain words: no syntax error is possible. A ticker, <TICKER>:<MARKET> symbol, CIK or ' +
      'accession number matches exactly and ranks first; names also match approximately (misspellings, word order, accents)',
  },
  kinds: {
    kind: 'array',
    items: { kind: 'enum', values: SEARCH_KINDS },
    description: 'Only these kinds of hits (default: all); repeat the parameter or separate with commas',
  },
  cursor: { kind: 'string', minLength: 1, maxLength: 1024, description: 'Opaque cursor from the previous page, passed back unchanged (with the same q and kinds)' },
  limit: { kind: 'int', minimum: 1, maximum: 500, default: 50, description: 'Page size, 1 to 500 (free plan and sk_test_ keys: at most 25)' },
});

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
  date: z.string().nullable().describe("Filings: filing date (YYYY-MM-DD); documents and pages: the document's published_at (ISO 8601); otherwise null"),
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
