import { poolOf } from './pg-queryable';
import { issuerSymbolSql } from '../companies/issuer-symbol';
import type { DataSource } from 'typeorm';
import type { Pool, QueryResultRow } from 'pg';
import type { Provenance } from '@app/contracts';
import { secRosterCurrentSince } from '../roster/roster.repository';
import { keysetOrder, toPage, type Page, type PageRequest } from '../keyset';

/** What one search hit is: each kind is a resource the API serves. */
export const SEARCH_KINDS = ['company', 'person', 'filing', 'document', 'document_page'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

/** Why a hit matched: an exact identifier, a (fuzzy) name, or words of a text. */
export type SearchMatch = 'symbol' | 'ticker' | 'cik' | 'accession' | 'name' | 'text';

/** Characters of page text a snippet is cut from (ts_headline parses all it is given, so bound it). */
export const SEARCH_HEADLINE_CHARS = 10_000;
/** Names are compared with the query's first characters only: names are short, and trigram work grows with the query. */
export const SEARCH_NAME_QUERY_MAX_CHARS = 100;
/**
 * Candidates ranked per kind and query (the API's SEARCH_CANDIDATES_PER_KIND overrides it): each
 * branch takes at most this many of its matches, best first by a cheap order of its own, before
 * the full score is computed (see SEARCH_SQL). 500, not the 2,000 it was: each filing candidate is
 * a heap row read at random, and 2,000 of them took 50-400 ms per search at 10,000,000 filings
 * (bench/scale), most of it reads from disk; 500 is still ten pages of 50 per kind.
 */
export const SEARCH_CANDIDATES_PER_KIND = 500;
/**
 * At most this many filers' newest filings are filing candidates (see SEARCH_SQL): the companies
 * whose name matches the query best, a few when they tie ("apple": Apple Inc., Apple Hospitality
 * REIT). Each adds at most SEARCH_CANDIDATES_PER_KIND heap rows to a search.
 */
export const SEARCH_FILERS_PER_QUERY = 3;
/** How long the search statement may run (ms) before Postgres cancels it (57014 query_canceled). */
export const SEARCH_STATEMENT_TIMEOUT_MS = 3000;

/** One search hit (read model, camelCase; not an API shape). */
export interface SearchHitRecord {
  kind: SearchKind;
  /**
   * The hit's id, unique within its kind and stable across rebuilds of the read models: the symbol,
   * the accession, the document id, `<document id>:<page index>`, and for a person
   * `<cik>:<category>:<source>:<person key>` (the roster entry's natural key).
   */
  id: string;
  title: string;
  /** Plain text (never markup); `highlights` locates the matched words in it. */
  snippet: string;
  /** [start, end) offsets into `snippet`, in UTF-16 code units (JavaScript string indexes). */
  highlights: Array<[number, number]>;
  /** Higher is better; comparable across kinds within one query. */
  score: number;
  match: SearchMatch;
  /** The listing the hit belongs to (<TICKER>:<MARKET>), when the issuer has one. */
  symbol: string | null;
  /** YYYY-MM-DD (filings) or an ISO 8601 time (documents, pages: the document's published_at); null for companies and people. */
  date: string | null;
  provenance: Provenance | null;
  accession: string | null;
  documentId: number | null;
  pageIndex: number | null;
  /** People: executives | ir | analysts. */
  category: string | null;
  /** People: whether the executives endpoint lists them with current_only=true. */
  isCurrent: boolean | null;
}

/** The keyset position after the last hit of a page: hits are ordered by (score desc, kind, id), kind and id in byte order. */
export interface SearchAfter {
  score: number;
  kind: string;
  id: string;
}

/** What a search looks for. */
export interface SearchFilter {
  /** The query text, already normalized (trimmed, whitespace collapsed) and bounded by the caller. */
  q: string;
  kinds: readonly SearchKind[];
  /** YYYY-MM-DD: SEC roster entries count as current when filed on or after it (default: 18 months ago). */
  currentSince?: string;
  /** Candidates ranked per kind (default SEARCH_CANDIDATES_PER_KIND). */
  candidatesPerKind?: number;
}

/** SEARCH_SQL's inputs: the filter, the rows to read (the page's size and one more) and the bound of the previous page. */
export interface SearchQuery extends SearchFilter {
  limit: number;
  after?: SearchAfter;
}

const SEARCH_HIT_ID_MAX_CHARS = 512;

/**
 * Hits by relevance: score descending, then kind and id ascending in byte order. SEARCH_SQL states
 * that mixed order itself (keysetSql gives one direction to every column); this declaration gives
 * the cursor's key, and the values it may hold.
 */
export const SEARCH_ORDER = keysetOrder<SearchHitRecord>(
  { sql: 'score', type: 'float8', of: (h) => h.score },
  { sql: 'kind', type: 'text', of: (h) => h.kind, accepts: (v) => SEARCH_KINDS.some((k) => k === v) },
  { sql: 'id', type: 'text', of: (h) => h.id, accepts: (v) => typeof v === 'string' && v.length > 0 && v.length <= SEARCH_HIT_ID_MAX_CHARS },
);

const TICKER_RE = /^[A-Za-z0-9.-]{1,10}$/;
const SYMBOL_RE = /^[A-Za-z0-9.-]{1,10}:[A-Za-z]{2,6}$/;
const CIK_RE = /^\d{1,10}$/;
const ACCESSION_RE = /^(\d{10})-?(\d{2})-?(\d{6})$/;

/**
 * The bound parameters of SEARCH_SQL for one query. Exported so the bench runs the very statement
 * the API runs. The query text is only ever a parameter: never part of the SQL.
 */
export function searchParams(query: SearchQuery): unknown[] {
  const q = query.q;
  const acc = ACCESSION_RE.exec(q);
  return [
    q, // $1
    SYMBOL_RE.test(q) ? q.toUpperCase() : TICKER_RE.test(q) ? q.toUpperCase() : null, // $2 ticker or symbol
    CIK_RE.test(q) ? q.padStart(10, '0') : null, // $3
    acc ? `${acc[1]}-${acc[2]}-${acc[3]}` : null, // $4
    Array.from(q).slice(0, SEARCH_NAME_QUERY_MAX_CHARS).join(''), // $5 what names are compared with
    [...query.kinds], // $6
    query.after?.score ?? null, // $7
    query.after?.kind ?? null, // $8
    query.after?.id ?? null, // $9
    query.limit, // $10
    query.currentSince ?? secRosterCurrentSince(new Date()), // $11
    q.includes(' '), // $12 several words: a phrase match counts
    query.candidatesPerKind ?? SEARCH_CANDIDATES_PER_KIND, // $13 candidates ranked per kind
  ];
}

// The keyset bound of a branch (its kind is a constant there): strictly after $7/$8/$9 in (score desc, kind, id).
const AFTER = `($7::float8 IS NULL OR b.score < $7 OR (b.score = $7 AND (b.kind > $8::text COLLATE "C" OR (b.kind = $8 AND b.id > $9::text COLLATE "C"))))`;
const BRANCH_ORDER = `ORDER BY b.score DESC, b.id COLLATE "C" LIMIT $10`;
/*
 * A snippet: matched words come back between chr(2) and chr(3) (removed from the text first), so
 * it stays plain text and splitHighlights turns the marks into offsets.
 */
const HEADLINE = (config: 'english' | 'simple', text: string, options: string): string =>
  `ts_headline('${config}', translate(${text}, chr(2) || chr(3), ''), websearch_to_tsquery('${config}', $1), '${options}, StartSel=' || chr(2) || ', StopSel=' || chr(3))`;

/*
 * One statement: a UNION ALL of one candidate query per kind, each selected through its own
 * index (see the search migration: the expressions here must match the indexes'), ranked, then
 * the page's snippets.
 *
 * Scores, comparable across kinds: an exact identifier (ticker or symbol, CIK, accession) adds
 * 100 (CIK 90), so it comes first. A name scores 10 x word_similarity^2 (the query against the
 * best-matching stretch of the name; squared, so near misses of short queries fall well behind)
 * + 2 x similarity (the whole name: shorter, closer names first) + 3 x its words' rank. Text ranks
 * use ts_rank_cd (cover density: query words close together rank higher) normalized to [0, 1)
 * and weighted by kind: page 5, document title 6, filing 4; a page or title holding the query's
 * words as a phrase (two words or more, in order) adds 6, so a pasted sentence finds its page
 * ahead of names that merely share a word; a filing whose form is the query adds 8; filings break
 * ties newest first (filed date / 1e12, at most ~0.002). A person the executives endpoint no
 * longer counts as current scores 0.9x.
 *
 * websearch_to_tsquery accepts any text (quotes, operators, unbalanced syntax) without error;
 * trigram functions likewise. The kinds array switches branches off (a one-time filter: a
 * disabled branch reads nothing). No condition is guarded by a parameter (a guarded OR arm cannot
 * be an index condition in a generic plan): names are compared with the query's first 100
 * characters ($5) instead.
 *
 * Candidates are capped per kind ($13, a few hundred): each branch's innermost query takes its
 * matches in a cheap order of its own and keeps the first $13, and only those are scored. A common
 * word (or `inc`, `10-Q`) matches far more rows than a page shows, and the full scores
 * (ts_rank_cd over a page's whole vector, to_tsvector of names) are what costs; the cheap orders
 * read no more than the index and heap already give: companies: an exact identifier first, then
 * word_similarity to the name; people: word_similarity; filings: see below; documents: the title's
 * text rank; pages: the most recently added documents first, each in page order. Each cheap order
 * ends with the row's unique key and none is an order an index offers (mixed directions,
 * expressions), so the planner cannot walk an index in that order and filter it: a rare word still
 * goes through the text indexes. Hits are thus the best among the first $13 candidates of each
 * kind (the route's description says so).
 *
 * Filings are the one kind whose matches grow with the table (a filer's name matches all its
 * filings), so their candidates come from four sources, each read in an index's order and stopped
 * at $13 rows, and the heap rows read are bounded whatever the table holds: the accession ($4);
 * the newest filings of the form the query names (filings_search_form_idx); the **filers**, the
 * companies whose name matches as well as the best match (equal word_similarity, so a near miss
 * costs no reads; at most SEARCH_FILERS_PER_QUERY, lowest CIK first), each its newest $13 filings
 * matching the text (filings_cik_filed_date_accession_idx backwards, LATERAL); and, only when the
 * filers yield fewer than $13 rows (a one-time filter on their count: the window's scan is then
 * never executed), the **text window**: the first $13 rows of filings_search_idx in storage order,
 * not the newest of all matches (a GIN index gives no date order). The cheap order (accession,
 * form, newest filed first) picks $13 of that union. Filers not in companies (funds, people) are
 * reached through the window only; when the window runs, the text index still reads the query's
 * whole posting list (bench/scale/README.md has the figures at 10,000,000 filings).
 *
 * Pagination is keyset over (score desc, kind, id), not OFFSET: a hit added or removed while a
 * client pages does not shift the later pages (no repeats, no gaps), and every branch applies the
 * bound before its own LIMIT, so a deep page keeps limit + 1 rows per branch instead of sorting
 * offset + limit (each page still scores all of a branch's capped candidates: no index holds
 * scores). The candidate cap comes first and never depends on the cursor: the capped set is a
 * function of the query and the data alone (a total order, ties broken by the unique key), so every
 * page of one query ranks the very same candidates and the pages partition that one ranking; the
 * keyset bound then applies to the scored candidates. (Bounding before capping would draw each page
 * from a different set: hits of a later page could outrank the earlier pages'.) Past the cap,
 * nothing is reached by paging: the last page says has_more false. A hit whose score changes
 * between two pages can move across the bound, and a row added or removed between two pages can
 * push a candidate past the cap or pull one in; the data changes rarely.
 * Scores are float8 and travel in the cursor as JSON numbers: float8 text and JS numbers both
 * round-trip exactly, so the equality in the bound holds.
 */
/** The prepared statement's name on each pooled connection. */
export const SEARCH_STATEMENT_NAME = 'search_hits';

export const SEARCH_SQL = `
WITH filer_filings AS (
  -- The filing branch's filer source: a CTE, read twice (its rows, and their count that gates the text window).
  SELECT f.accession, f.form, f.filed_date, f.search_vector
  FROM (
    SELECT c.cik FROM (
      SELECT c.cik, c.ws, max(c.ws) OVER () AS best FROM (
        SELECT c.cik, max(word_similarity(search_fold($5), search_fold(c.name))) AS ws FROM companies c
        WHERE 'filing' = ANY($6::text[])
          AND (search_fold(c.name) %> search_fold($5) OR to_tsvector('simple', c.name) @@ websearch_to_tsquery('simple', $1))
        GROUP BY c.cik
      ) c
    ) c
    -- Only the names matching best: a near miss ("Microstrategy" for microsoft) would cost $13 heap rows for no candidate.
    WHERE c.ws = c.best
    ORDER BY c.cik
    LIMIT ${SEARCH_FILERS_PER_QUERY}
  ) c
  CROSS JOIN LATERAL (
    SELECT f.accession, f.form, f.filed_date, f.search_vector FROM filings f
    WHERE f.cik = c.cik
    ORDER BY f.filed_date DESC, f.accession DESC
    LIMIT $13
  ) f
  WHERE f.search_vector @@ websearch_to_tsquery('simple', $1)
),
hits AS (
  (SELECT b.* FROM (
    SELECT 'company'::text AS kind, c.symbol AS id, NULL::int AS ref, NULL::int AS ref2, NULL::boolean AS cur,
      (CASE WHEN c.symbol = $2 OR upper(c.ticker) = $2 THEN 100 WHEN c.cik = $3 THEN 90 ELSE 0 END
        + 10 * word_similarity(search_fold($5), search_fold(c.name)) ^ 2 + 2 * similarity(search_fold($5), search_fold(c.name))
        + 3 * ts_rank_cd(to_tsvector('simple', c.name), websearch_to_tsquery('simple', $1), 32))::float8 AS score,
      CASE WHEN c.symbol = $2 THEN 'symbol' WHEN upper(c.ticker) = $2 THEN 'ticker' WHEN c.cik = $3 THEN 'cik' ELSE 'name' END AS match
    FROM (
      SELECT c.symbol, c.ticker, c.cik, c.name FROM companies c
      WHERE 'company' = ANY($6::text[])
        AND (c.symbol = $2 OR upper(c.ticker) = $2 OR c.cik = $3
          OR search_fold(c.name) %> search_fold($5)
          OR to_tsvector('simple', c.name) @@ websearch_to_tsquery('simple', $1))
      ORDER BY CASE WHEN c.symbol = $2 OR upper(c.ticker) = $2 OR c.cik = $3 THEN 0 ELSE 1 END,
        word_similarity(search_fold($5), search_fold(c.name)) DESC, c.symbol COLLATE "C"
      LIMIT $13
    ) c
  ) b WHERE ${AFTER} ${BRANCH_ORDER})
  UNION ALL
  (SELECT b.* FROM (
    SELECT 'person'::text AS kind, r.cik || ':' || r.category || ':' || r.source_provider || ':' || r.person_key AS id, r.id AS ref, NULL::int AS ref2, cur.v AS cur,
      ((10 * word_similarity(search_fold($5), search_fold(r.name)) ^ 2 + 2 * similarity(search_fold($5), search_fold(r.name))
        + 3 * ts_rank_cd(to_tsvector('simple', r.name || ' ' || r.role || ' ' || r.affiliation), websearch_to_tsquery('simple', $1), 32))
        * CASE WHEN cur.v THEN 1 ELSE 0.9 END)::float8 AS score,
      'name'::text AS match
    FROM (
      SELECT r.id, r.cik, r.category, r.source_provider, r.person_key, r.name, r.role, r.affiliation, r.is_current, r.last_filed_at
      FROM roster_entries r
      WHERE 'person' = ANY($6::text[])
        AND (search_fold(r.name) %> search_fold($5)
          OR to_tsvector('simple', r.name || ' ' || r.role || ' ' || r.affiliation) @@ websearch_to_tsquery('simple', $1))
        -- A person is reached through the issuer's listing (GET /v1/companies/{symbol}/executives).
        AND EXISTS (SELECT 1 FROM companies c WHERE c.cik = r.cik)
      ORDER BY word_similarity(search_fold($5), search_fold(r.name)) DESC, r.id
      LIMIT $13
    ) r
    -- Current as the executives endpoint counts it (an SEC entry also needs a recent Form 4).
    CROSS JOIN LATERAL (SELECT r.is_current AND (r.source_provider <> 'sec' OR coalesce(r.last_filed_at >= $11::date, false)) AS v) cur
  ) b WHERE ${AFTER} ${BRANCH_ORDER})
  UNION ALL
  (SELECT b.* FROM (
    SELECT 'filing'::text AS kind, f.accession AS id, NULL::int AS ref, NULL::int AS ref2, NULL::boolean AS cur,
      (CASE WHEN f.accession = $4 THEN 100 ELSE 0 END + CASE WHEN upper(f.form) = upper($1) THEN 8 ELSE 0 END
        + 4 * ts_rank_cd(f.search_vector, websearch_to_tsquery('simple', $1), 32)
        + extract(epoch FROM f.filed_date)::float8 / 1e12)::float8 AS score,
      CASE WHEN f.accession = $4 THEN 'accession' ELSE 'text' END AS match
    FROM (
      SELECT f.accession, f.form, f.filed_date, f.search_vector FROM (
        (SELECT f.accession, f.form, f.filed_date, f.search_vector FROM filings f
          WHERE 'filing' = ANY($6::text[]) AND f.accession = $4)
        UNION
        (SELECT f.accession, f.form, f.filed_date, f.search_vector FROM filings f
          WHERE 'filing' = ANY($6::text[]) AND upper(f.form) = upper($1)
          ORDER BY upper(f.form), f.filed_date DESC, f.accession COLLATE "C"
          LIMIT $13)
        UNION
        (SELECT f.accession, f.form, f.filed_date, f.search_vector FROM filer_filings f)
        UNION
        -- The text window, read only when the filer source leaves room: a one-time filter (its count
        -- is an InitPlan), so when the filers alone fill the cap the index scan is never executed.
        (SELECT f.accession, f.form, f.filed_date, f.search_vector FROM filings f
          WHERE 'filing' = ANY($6::text[]) AND (SELECT count(*) FROM filer_filings) < $13
            AND f.search_vector @@ websearch_to_tsquery('simple', $1)
          LIMIT $13)
      ) f
      ORDER BY CASE WHEN f.accession = $4 THEN 0 WHEN upper(f.form) = upper($1) THEN 1 ELSE 2 END, f.filed_date DESC, f.accession COLLATE "C"
      LIMIT $13
    ) f
  ) b WHERE ${AFTER} ${BRANCH_ORDER})
  UNION ALL
  (SELECT b.* FROM (
    SELECT 'document'::text AS kind, d.id::text AS id, d.id AS ref, NULL::int AS ref2, NULL::boolean AS cur,
      (6 * ts_rank_cd(to_tsvector('english', d.title), websearch_to_tsquery('english', $1), 32)
        + CASE WHEN $12 AND to_tsvector('english', d.title) @@ phraseto_tsquery('english', $1) THEN 6 ELSE 0 END)::float8 AS score,
      'text'::text AS match
    FROM (
      SELECT d.id, d.title FROM documents d
      WHERE 'document' = ANY($6::text[]) AND to_tsvector('english', d.title) @@ websearch_to_tsquery('english', $1)
      ORDER BY ts_rank_cd(to_tsvector('english', d.title), websearch_to_tsquery('english', $1), 32) DESC, d.id
      LIMIT $13
    ) d
  ) b WHERE ${AFTER} ${BRANCH_ORDER})
  UNION ALL
  (SELECT b.* FROM (
    SELECT 'document_page'::text AS kind, p.document_id || ':' || p.page_index AS id, p.document_id AS ref, p.page_index AS ref2, NULL::boolean AS cur,
      (5 * ts_rank_cd(p.search_vector, websearch_to_tsquery('english', $1), 32)
        + CASE WHEN $12 AND p.search_vector @@ phraseto_tsquery('english', $1) THEN 6 ELSE 0 END)::float8 AS score,
      'text'::text AS match
    FROM (
      SELECT p.document_id, p.page_index, p.search_vector FROM document_pages p
      WHERE 'document_page' = ANY($6::text[]) AND p.search_vector @@ websearch_to_tsquery('english', $1)
      ORDER BY p.document_id DESC, p.page_index
      LIMIT $13
    ) p
  ) b WHERE ${AFTER} ${BRANCH_ORDER})
),
page AS (SELECT * FROM hits ORDER BY score DESC, kind COLLATE "C", id COLLATE "C" LIMIT $10)
-- What is shown of each hit, read back for the page's hits only: one small lookup per hit by its
-- key (scalar subqueries, each evaluated only for its own kind, and cheap to plan).
SELECT h.kind, h.id, h.score, h.match, h.cur AS "isCurrent",
  CASE h.kind
    WHEN 'company' THEN (SELECT jsonb_build_object('title', c.name, 'plain', c.name || ' (' || c.symbol || ') · CIK ' || c.cik, 'symbol', c.symbol,
        'provenance', c.provenance) FROM companies c WHERE c.symbol = h.id)
    WHEN 'person' THEN (SELECT jsonb_build_object('title', r.name, 'plain', r.name || ' · ' || r.role || ' · ' || r.affiliation, 'symbol', ${issuerSymbolSql('r.cik')},
        'category', r.category, 'accession', r.accession,
        'provenance', jsonb_build_object('src_id', r.src_id, 'source_provider', r.source_provider, 'source_url', r.source_url, 'accession', r.accession,
          'quote', r.quote, 'content_hash', r.content_hash, 'extracted_at', r.extracted_at)) FROM roster_entries r WHERE r.id = h.ref)
    WHEN 'filing' THEN (SELECT jsonb_build_object('title', f.company_name || ' ' || f.form || ' filed ' || to_char(f.filed_date, 'YYYY-MM-DD'),
        'marked', ${HEADLINE('simple', `f.form || coalesce(' · ' || nullif(f.primary_doc_description, f.form), '') || ' · ' || f.company_name || ' · filed ' || to_char(f.filed_date, 'YYYY-MM-DD')`, 'HighlightAll=true')},
        'symbol', ${issuerSymbolSql('f.cik')}, 'date', to_char(f.filed_date, 'YYYY-MM-DD'), 'accession', f.accession, 'provenance', f.provenance)
        FROM filings f WHERE f.accession = h.id)
    WHEN 'document' THEN (SELECT jsonb_build_object('title', d.title, 'marked', ${HEADLINE('english', 'd.title', 'HighlightAll=true')},
        'symbol', ${issuerSymbolSql('d.cik')}, 'date', d.sort_at, 'documentId', d.id,
        'provenance', CASE WHEN d.text_content_hash IS NOT NULL AND d.text_src_id IS NOT NULL THEN
          jsonb_build_object('src_id', d.text_src_id, 'source_provider', 'issuer_page', 'source_url', coalesce(d.text_source_url, d.url),
            'citation_url', d.url, 'accession', NULL, 'quote', d.text_quote, 'content_hash', d.text_content_hash, 'extracted_at', d.text_extracted_at)
        ELSE
          jsonb_build_object('src_id', coalesce(d.link_src_id, ''), 'source_provider', 'issuer_page', 'source_url', d.found_on,
            'citation_url', d.url, 'accession', NULL, 'quote', d.link_quote, 'content_hash', d.link_content_hash, 'extracted_at', d.link_extracted_at)
        END) FROM documents d WHERE d.id = h.ref)
    ELSE (SELECT jsonb_build_object('title', d.title || ' — page ' || (p.page_index + 1),
        'marked', ${HEADLINE('english', `left(p.text, ${SEARCH_HEADLINE_CHARS})`, 'MaxFragments=2, MaxWords=24, MinWords=10, ShortWord=2, FragmentDelimiter=" … "')},
        'symbol', ${issuerSymbolSql('d.cik')}, 'date', d.sort_at, 'documentId', p.document_id, 'pageIndex', p.page_index,
        'provenance', jsonb_build_object('src_id', coalesce(d.text_src_id, ''), 'source_provider', 'issuer_page', 'source_url', coalesce(d.text_source_url, d.url),
          'citation_url', d.url || '#page=' || (p.page_index + 1), 'accession', NULL, 'quote', p.quote, 'content_hash', p.content_hash,
          'extracted_at', d.text_extracted_at))
        FROM document_pages p JOIN documents d ON d.id = p.document_id WHERE p.document_id = h.ref AND p.page_index = h.ref2)
  END AS shown
FROM page h
ORDER BY h.score DESC, h.kind COLLATE "C", h.id COLLATE "C"`;

interface SearchRow {
  kind: SearchKind;
  id: string;
  score: number;
  match: SearchMatch;
  isCurrent: boolean | null;
  shown: {
    title: string;
    /** A text to show as it is (companies, people)... */
    plain?: string;
    /** ...or ts_headline's output, marked. */
    marked?: string;
    symbol?: string | null;
    date?: string;
    provenance: Provenance;
    accession?: string | null;
    documentId?: number;
    pageIndex?: number;
    category?: string;
  } | null;
}

const iso = (t: string): string => new Date(t).toISOString();

function toHit(row: SearchRow): SearchHitRecord | null {
  const s = row.shown;
  // The row went between ranking and reading it back (a concurrent delete): skip it.
  if (!s) return null;
  const { snippet, highlights } = s.marked !== undefined ? splitHighlights(s.marked) : { snippet: s.plain ?? '', highlights: [] };
  // Provenance built in SQL (people, documents, pages) carries JSON timestamps (session time zone,
  // microseconds): the read side's form is toISOString(). Companies and filings keep their record's.
  const built = row.kind === 'person' || row.kind === 'document' || row.kind === 'document_page';
  const provenance = built && typeof s.provenance.extracted_at === 'string' ? { ...s.provenance, extracted_at: iso(s.provenance.extracted_at) } : s.provenance;
  return {
    kind: row.kind,
    id: row.id,
    title: s.title,
    snippet,
    highlights,
    score: row.score,
    match: row.match,
    symbol: s.symbol ?? null,
    date: s.date === undefined ? null : row.kind === 'filing' ? s.date : iso(s.date),
    provenance: provenance ?? null,
    accession: s.accession ?? null,
    documentId: s.documentId ?? null,
    pageIndex: s.pageIndex ?? null,
    category: s.category ?? null,
    isCurrent: row.isCurrent,
  };
}

/**
 * ts_headline's output -> plain text and highlight offsets: drops the chr(2)/chr(3) markers and
 * collapses whitespace runs (page text keeps its line breaks) to one space.
 */
export function splitHighlights(marked: string): { snippet: string; highlights: Array<[number, number]> } {
  let snippet = '';
  const highlights: Array<[number, number]> = [];
  let open: number | null = null;
  let space = false;
  for (const ch of marked) {
    if (ch === '\u0002') {
      if (space) snippet += ' ';
      space = false;
      open = snippet.length;
    } else if (ch === '\u0003') {
      if (open !== null && snippet.length > open) highlights.push([open, snippet.length]);
      open = null;
    } else if (/\s/.test(ch)) {
      space = snippet.length > 0;
    } else {
      if (space) snippet += ' ';
      space = false;
      snippet += ch;
    }
  }
  return { snippet, highlights };
}

/**
 * Opens the transaction the statement runs in (one round trip: a simple query of four
 * statements): read only, the generic plan (below), no JIT, and a statement timeout, so a query
 * that would run long is cancelled by Postgres (57014 query_canceled) instead of holding a
 * connection. No JIT: the generic plan's estimates grow with the filings table (a LIMIT $13 is
 * guessed at a tenth of the matches), and at 10,000,000 filings they cross jit_above_cost
 * (100,000): compiling the statement's ~190 functions took 130 ms of a 5 ms execution
 * (bench/scale), on every request, since a prepared statement's JIT code is not kept.
 */
export function searchTransactionStart(statementTimeoutMs: number = SEARCH_STATEMENT_TIMEOUT_MS): string {
  // Interpolated into SQL (SET takes no parameters): an integer only.
  if (!Number.isSafeInteger(statementTimeoutMs) || statementTimeoutMs < 1) throw new RangeError(`statement timeout must be a positive integer of ms, got ${statementTimeoutMs}`);
  return `BEGIN READ ONLY; SET LOCAL plan_cache_mode = force_generic_plan; SET LOCAL jit = off; SET LOCAL statement_timeout = ${statementTimeoutMs}`;
}

/** The transaction start with the default statement timeout (the bench's pgbench script uses it). */
export const SEARCH_TRANSACTION_START = searchTransactionStart();

export interface SearchStatementOptions {
  /** Default SEARCH_STATEMENT_TIMEOUT_MS. */
  statementTimeoutMs?: number;
}

/**
 * Runs SEARCH_SQL as a prepared statement on its generic plan. Planning this statement costs more
 * than running it (about 2.5 ms against 1 ms for a selective query), and its generic plan is as
 * good as a custom one: every candidate condition takes its values as index keys at run time
 * (search.int-spec checks that plan). Left to itself (plan_cache_mode auto), Postgres keeps
 * planning a statement per execution when the first executions on a connection were selective
 * ones; the setting is per session, so it is set for this statement's transaction only, leaving
 * the other statements on the shared connections alone. Exported for the bench: the same path.
 * A statement cancelled by the timeout rejects with the pg error (code 57014).
 */
export async function runSearchStatement<R extends QueryResultRow>(pool: Pool, values: unknown[], options: SearchStatementOptions = {}): Promise<R[]> {
  const start = searchTransactionStart(options.statementTimeoutMs);
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query(start);
    const result = await client.query<R>({ name: SEARCH_STATEMENT_NAME, text: SEARCH_SQL, values });
    await client.query('COMMIT');
    return result.rows;
  } catch (err) {
    // Whatever failed after BEGIN (a SET of the start included, the statement, COMMIT), the
    // connection goes back to the pool outside any transaction: never in an aborted one, where
    // every later statement of its next user would fail. (Outside a transaction ROLLBACK only warns.)
    await client.query('ROLLBACK').catch((rollback: Error) => {
      broken = rollback;
    });
    throw err;
  } finally {
    // A connection that cannot even roll back is discarded, not returned to the pool.
    client.release(broken);
  }
}

/** Whether an error is Postgres cancelling a statement (57014 query_canceled: the statement timeout, or a cancel request). */
export function isQueryCanceled(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '57014';
}

export interface SearchRepositoryOptions {
  /** Default SEARCH_STATEMENT_TIMEOUT_MS. */
  statementTimeoutMs?: number;
  /** Default SEARCH_CANDIDATES_PER_KIND. */
  candidatesPerKind?: number;
}

/**
 * Search over the read models: companies (name, ticker, CIK), people on rosters (executives, IR
 * contacts, analysts), filings (form, primary document description, filer), documents (title) and
 * document pages (text). One statement per page of hits; Postgres full-text search and pg_trgm,
 * no search server.
 */
export class SearchRepository {
  private readonly pool: Pool;

  constructor(
    dataSource: DataSource,
    private readonly options: SearchRepositoryOptions = {},
  ) {
    this.pool = poolOf(dataSource);
  }

  /** One page of hits, ranked. Rejects with the pg error 57014 (see isQueryCanceled) when the statement timeout cancels it. */
  async search(filter: SearchFilter, page: PageRequest): Promise<Page<SearchHitRecord>> {
    const [score, kind, id] = page.after ?? [];
    const after = page.after ? { score: Number(score), kind: String(kind), id: String(id) } : undefined;
    // SEARCH_SQL ranks a union and keeps its own keyset bound: it reads one hit more than the page, toPage cuts it.
    const values = searchParams({ candidatesPerKind: this.options.candidatesPerKind, ...filter, limit: page.limit + 1, after });
    const rows = await runSearchStatement<SearchRow>(this.pool, values, { statementTimeoutMs: this.options.statementTimeoutMs });
    return toPage(SEARCH_ORDER, rows.map(toHit).filter((h): h is SearchHitRecord => h !== null), page.limit);
  }
}
