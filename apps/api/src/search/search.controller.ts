import { SEARCH_CANDIDATES_PER_KIND, SEARCH_FILERS_PER_QUERY, SEARCH_KINDS, SEARCH_ORDER, SearchRepository } from '@app/persistence';
import { searchListSchema, toSearchHit } from '@app/resources';
import type { ValidationItem } from '../platform/api.errors';
import { missingItem, valueErrorItem } from '../platform/query.validation';
import { defineRoutes } from '../platform/route.registry';
import type { RouteModule } from '../platform/route.module';
import { SEARCH_Q_MAX_CHARS, searchParams } from './search.schemas';
import { SearchService } from './search.service';

export const searchRoutes = defineRoutes({
  search: {
    method: 'GET',
    url: '/v1/search',
    operationId: 'search',
    summary: 'Search companies, people, filings and documents',
    description:
      'One query over companies (name, ticker, CIK), people on issuer rosters (executives, IR contacts, analysts: name, role, affiliation), ' +
      "filings (form, primary document description, filer name), documents (title) and document pages (text), ranked by relevance across kinds. " +
      'Each hit names the resource the API serves (`kind`, `id`, `url`) with a plain-text snippet and the offsets of the matched words. ' +
      'An exact ticker, symbol, CIK or accession number ranks first; then names (approximate: misspellings, word order and accents, ' +
      '"elon musk" finds "Musk Elon") and text (a phrase pasted from a page finds that page). ' +
      `\`q\` takes 1 to ${SEARCH_Q_MAX_CHARS} characters (longer: 422 string_too_long); its whitespace is collapsed, and a q of only ` +
      'whitespace answers 422 value_error. Any other text is a valid query, operators and quotes included: nothing in q can cause an error. ' +
      'Keyset-paginated by relevance (score, then kind and id): a cursor is valid only with the same q and kinds (else 422 value_error on cursor); ' +
      'there is no `direction`. ' +
      `Hits are the best among the first ${SEARCH_CANDIDATES_PER_KIND} candidates of each kind (the server's SEARCH_CANDIDATES_PER_KIND), ` +
      'taken best first by a cheap order of the kind: companies by exact identifier then name similarity, people by name similarity, ' +
      'filings by accession, then form (newest first), then newest filed among the text matches, ' +
      'documents by title relevance, pages newest document first; a query matching more than that (a common word) ranks only those, ' +
      'and paging does not reach past them. For filings the text matches considered are the newest filings of the ' +
      `listed companies whose name best matches q (up to ${SEARCH_FILERS_PER_QUERY}: a company name finds that filer's latest filings, ` +
      'however many it has) and, when those are fewer than the cap, the first matches in storage order (about the order the filings were projected), not the newest of all: ' +
      'a query matching every filing of a large filer costs the same as one matching a few. ' +
      "`limit` above the plan's cap answers 422 less_than_equal with the cap in ctx. " +
      'A search running longer than the server allows is cancelled: 503 search-timeout with Retry-After.',
    tags: ['search'],
    errors: [503],
    query: searchParams,
    response: searchListSchema,
  },
});

/** Normal form of a query: NFKC (full-width letters, ligatures), whitespace runs as one space, trimmed, bounded. */
export function normalizeQuery(q: string): string {
  const text = q.normalize('NFKC').replace(/\s+/gu, ' ').trim();
  // NFKC can lengthen a few characters: keep the bound (by code point, never splitting a pair).
  return text.length <= SEARCH_Q_MAX_CHARS ? text : Array.from(text).slice(0, SEARCH_Q_MAX_CHARS).join('').trim();
}

/**
 * q is required and must hold more than whitespace. Checked after the parse, so its items follow
 * the parse's (as they always have); a q given but invalid already has its item.
 */
function checkQ({ query }: { query: { q?: string } }, items: ValidationItem[]): void {
  if (query.q === undefined) {
    if (!items.some((item) => item.loc[0] === 'query' && item.loc[1] === 'q')) items.push(missingItem(['query', 'q']));
  } else if (normalizeQuery(query.q).length === 0) {
    items.push(valueErrorItem(['query', 'q'], query.q, 'q must contain a character other than whitespace'));
  }
}

/** HTTP side of search: typed input in, one ranked page out. */
export const searchApi: RouteModule = {
  routes: searchRoutes,
  bind({ binder, paging, dataSource, config }) {
    const service = new SearchService(
      new SearchRepository(dataSource, { statementTimeoutMs: config.SEARCH_STATEMENT_TIMEOUT_MS, candidatesPerKind: config.SEARCH_CANDIDATES_PER_KIND }),
    );
    return [
      binder.bind(searchRoutes.search, {
        check: checkQ,
        handle: ({ principal, query }) => {
          // checkQ let only a q with a character through.
          const q = normalizeQuery(query.q ?? '');
          const asked = query.kinds;
          // Canonical order, so equal filters hash alike whatever order the client named them in.
          const kinds = asked?.length ? SEARCH_KINDS.filter((k) => asked.includes(k)) : [...SEARCH_KINDS];
          // Best first only: the route has no direction.
          return paging.list(principal, query, { list: 'search', filters: { q, kinds }, order: SEARCH_ORDER, defaultDirection: 'desc' }, (page) => service.search({ q, kinds }, page), toSearchHit);
        },
      }),
    ];
  },
};
