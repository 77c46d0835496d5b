import type { DataSource } from 'typeorm';
import { SEARCH_CANDIDATES_PER_KIND, SEARCH_FILERS_PER_QUERY, SEARCH_KINDS, SearchRepository, type SearchAfter, type SearchKind, type SearchRepositoryOptions } from '@app/persistence';
import type { Principal } from '../auth/api-keys.service';
import { ValidationError, type ValidationItem } from '../platform/api.errors';
import { CursorCodec, filterHash } from '../platform/cursor.codec';
import { LEGACY_TEXT_KEY, legacyKey } from '../platform/cursor.codec';
import { missingItem, QueryParser, valueErrorItem } from '../platform/query.validation';
import type { BoundRoute, RouteDefinition } from '../platform/route.registry';
import { planLimitItem, type PlanTable } from '../rate-limit/plans';
import { toSearchHit } from './search.mapper';
import { SEARCH_Q_MAX_CHARS, searchListSchema, searchParams, type SearchListBody } from './search.schemas';
import { SearchService } from './search.service';

export const searchRoutes = {
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
} satisfies Record<string, RouteDefinition>;

const parser = new QueryParser(searchParams);
const KIND_SET = new Set<string>(SEARCH_KINDS);
const MAX_ID_LENGTH = 512;

/** Normal form of a query: NFKC (full-width letters, ligatures), whitespace runs as one space, trimmed, bounded. */
export function normalizeQuery(q: string): string {
  const text = q.normalize('NFKC').replace(/\s+/gu, ' ').trim();
  // NFKC can lengthen a few characters: keep the bound (by code point, never splitting a pair).
  return text.length <= SEARCH_Q_MAX_CHARS ? text : Array.from(text).slice(0, SEARCH_Q_MAX_CHARS).join('').trim();
}

/** The keyset position a cursor carries: [score, kind, id] of the last hit, or null when it is malformed. */
export function cursorPosition(k: string): SearchAfter | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(k);
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) return null;
  const [score, kind, id] = parsed as unknown[];
  if (typeof score !== 'number' || !Number.isFinite(score)) return null;
  if (typeof kind !== 'string' || !KIND_SET.has(kind)) return null;
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ID_LENGTH) return null;
  return { score, kind: kind as SearchKind, id };
}

/** HTTP side of search: parse and validate, call the service, map to the response shape. */
export class SearchController {
  constructor(
    private readonly service: SearchService,
    private readonly cursors: CursorCodec,
    private readonly plans: PlanTable,
  ) {}

  routes(): BoundRoute[] {
    return [{ definition: searchRoutes.search, handler: (req) => this.search(req.query as Record<string, unknown>, req.principal!) }];
  }

  async search(query: Record<string, unknown>, principal: Principal): Promise<SearchListBody> {
    const items: ValidationItem[] = [];
    const p = parser.parse(query, items);
    if (query.q === undefined) items.push(missingItem(['query', 'q']));
    const q = typeof p.q === 'string' ? normalizeQuery(p.q) : '';
    if (typeof p.q === 'string' && q.length === 0) items.push(valueErrorItem(['query', 'q'], p.q, 'q must contain a character other than whitespace'));
    const overCap = items.length === 0 ? planLimitItem(p.limit as number | undefined, query.limit, this.plans, principal) : null;
    if (overCap) items.push(overCap);
    if (items.length) throw new ValidationError(items);

    const asked = p.kinds as string[] | undefined;
    // Canonical order, so equal filters hash alike whatever order the client named them in.
    const kinds = asked?.length ? SEARCH_KINDS.filter((k) => asked.includes(k)) : [...SEARCH_KINDS];
    const f = filterHash('search', { q, kinds });
    let after: SearchAfter | undefined;
    if (p.cursor !== undefined) {
      const decoded = this.cursors.decode(p.cursor as string, { f, d: 'desc', order: LEGACY_TEXT_KEY });
      const position = decoded ? cursorPosition(legacyKey(decoded.k)) : null;
      if (!position) throw new ValidationError([valueErrorItem(['query', 'cursor'], p.cursor, 'Invalid cursor')]);
      after = position;
    }
    const page = await this.service.search(q, kinds, p.limit as number, after);
    const last = page.rows[page.rows.length - 1];
    return {
      data: page.rows.map(toSearchHit),
      pagination: {
        next_cursor: page.hasMore && last ? this.cursors.encode({ k: [JSON.stringify([last.score, last.kind, last.id])], d: 'desc', f }) : null,
        has_more: page.hasMore,
      },
    };
  }
}

/** Wires the search controller on the api's DataSource (called from api.context). */
export function createSearchController(dataSource: DataSource, cursors: CursorCodec, plans: PlanTable, options: SearchRepositoryOptions = {}): SearchController {
  return new SearchController(new SearchService(new SearchRepository(dataSource, options)), cursors, plans);
}
