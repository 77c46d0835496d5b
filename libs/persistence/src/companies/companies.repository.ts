import { poolOf } from '../repositories/pg-queryable';
import type { DataSource } from 'typeorm';
import type { Pool } from 'pg';
import type { Provenance } from '@app/contracts';
import { statementNamer } from '../repositories/statement-names';
import { keysetOrder, keysetSql, toPage, type Page, type PageRequest } from '../keyset';
import { selectList, type RowOf } from '../table';
import { COMPANIES_TABLE } from './companies.table';

/** The companies columns of a CompanyListing (besides the resolved isin). */
const LISTING_FIELDS = ['symbol', 'ticker', 'market', 'name', 'cik', 'figi', 'issuer_id'] as const;

/** One listing as the list endpoint reads it (read model, camelCase; not an API shape). */
export type CompanyListing = RowOf<typeof COMPANIES_TABLE.columns, (typeof LISTING_FIELDS)[number]> & { isin: string | null };

/** The companies columns a CompanyRecord adds to its listing. */
const DETAIL_FIELDS = [
  'listing_exchange', 'website', 'country', 'is_etf', 'is_fund', 'is_adr', 'status', 'description', 'description_provenance',
  'sec_detail', 'provenance', 'observed_at', 'updated_at',
] as const;

/** The issuer's own description of itself, read from its IR pages (company_descriptions). */
export interface IssuerDescription {
  description: string;
  srcId: string;
  sourceUrl: string;
  quote: string;
  contentHash: string;
  /** ISO 8601, UTC. */
  extractedAt: string | null;
}

/** An identifier an N-PORT holding gives a listing (ISIN) or an issuer (LEI), with the holding it came from. */
export interface IdentifierCandidate {
  value: string;
  /** filed (the holding's own identifier) or cusip (an ISIN computed from its US CUSIP). */
  derivation: string;
  fundKey: string;
  fundName: string | null;
  accession: string;
  holdingIndex: number;
  /** YYYY-MM-DD: the date the fund's holdings are as of. */
  reportDate: string;
  cusip: string | null;
  provenance: Provenance;
}

/** Everything stored about one listing. */
export interface CompanyRecord extends CompanyListing, RowOf<typeof COMPANIES_TABLE.columns, (typeof DETAIL_FIELDS)[number]> {
  /**
   * The ISINs the resolution of `isin` weighed: every distinct one holdings of the listing's own
   * issuer (CIK) gave on the newest report date (one: `isin`; two or more: ambiguous, `isin` null).
   */
  isinCandidates: IdentifierCandidate[];
  /** Every distinct LEI holdings gave the issuer. */
  leiCandidates: IdentifierCandidate[];
  /** Null until the issuer's IR pages have given a description. */
  issuerDescription: IssuerDescription | null;
  /** The opening of Item 1 of the issuer's newest 10-K that gave one (tenk_descriptions); null until then. */
  tenkDescription: { description: string; provenance: Provenance } | null;
}

/** Filters of the company list; every array is already normalized by the caller (upper case, padded CIKs). */
export interface CompanyListFilter {
  /** Case-insensitive substring of name or ticker. */
  q?: string;
  markets?: string[];
  tickers?: string[];
  ciks?: string[];
  isins?: string[];
  figis?: string[];
  issuerIds?: number[];
  activeOnly: boolean;
}

/** The company list's order: the symbol alone (companies have no date field). */
export const COMPANIES_ORDER = keysetOrder<CompanyListing>({ sql: 'symbol', type: 'text', of: (c) => c.symbol });

/*
 * A listing's ISIN is resolved from its candidates (company_identifiers) when read, so the company
 * and fund-holdings projections stay independent: either may land first. Only candidates of the
 * listing's own issuer count (ci.cik = companies.cik: a ticker another issuer held before keeps its
 * ISIN to itself), and of those only the ones of the newest report date any holding gave (a CUSIP
 * that changed leaves the old ISIN behind, not ambiguous). The one value when there is exactly one,
 * else null (none, or ambiguous). The detail's isinCandidates are the same set, so the API decides
 * nothing itself: `isin` is the decision, the candidates its sources.
 */
const ISIN_CANDIDATES = `FROM company_identifiers ci WHERE ci.scheme = 'isin' AND ci.subject = companies.symbol AND ci.cik = companies.cik
  AND ci.report_date = (SELECT max(n.report_date) FROM company_identifiers n WHERE n.scheme = 'isin' AND n.subject = companies.symbol AND n.cik = companies.cik)`;
const RESOLVED_ISIN = `(SELECT min(ci.value) ${ISIN_CANDIDATES} HAVING count(*) = 1)`;
const LIST_COLUMNS = `${selectList(COMPANIES_TABLE, LISTING_FIELDS)}, ${RESOLVED_ISIN} AS isin`;
const IDENTIFIER_JSON = `jsonb_build_object('value', ci.value, 'derivation', ci.derivation, 'fundKey', ci.fund_key, 'fundName', ci.fund_name,
     'accession', ci.accession, 'holdingIndex', ci.holding_index, 'reportDate', to_char(ci.report_date, 'YYYY-MM-DD'), 'cusip', ci.cusip,
     'provenance', ci.provenance)`;
const DETAIL_COLUMNS = `${LIST_COLUMNS}, ${selectList(COMPANIES_TABLE, DETAIL_FIELDS)},
  (SELECT jsonb_build_object('description', cd.description, 'srcId', cd.src_id, 'sourceUrl', cd.source_url, 'quote', cd.quote,
     'contentHash', cd.content_hash, 'extractedAt', to_char(cd.extracted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
   FROM company_descriptions cd WHERE cd.cik = companies.cik) AS "issuerDescription",
  (SELECT jsonb_build_object('description', td.description, 'provenance', td.provenance)
   FROM tenk_descriptions td WHERE td.cik = companies.cik) AS "tenkDescription",
  (SELECT coalesce(jsonb_agg(${IDENTIFIER_JSON} ORDER BY ci.value), '[]') ${ISIN_CANDIDATES}) AS "isinCandidates",
  (SELECT coalesce(jsonb_agg(${IDENTIFIER_JSON} ORDER BY ci.value), '[]') FROM company_identifiers ci
    WHERE ci.scheme = 'lei' AND ci.subject = companies.cik) AS "leiCandidates"`;

/** Escapes LIKE wildcards so `q` is a plain substring. */
function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Companies read model, read side. Raw parameterized SQL on the DataSource's pg pool (no entity
 * hydration): the list is the hottest query of the API. The SQL text depends only on which filters
 * are present, so each shape is a named prepared statement, planned once per connection.
 */
export class CompaniesRepository {
  private readonly pool: Pool;

  constructor(dataSource: DataSource) {
    this.pool = poolOf(dataSource);
  }

  async list(filter: CompanyListFilter, page: PageRequest): Promise<Page<CompanyListing>> {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (sql: (p: string) => string, value: unknown): void => {
      params.push(value);
      where.push(sql(`$${params.length}`));
    };
    if (filter.activeOnly) where.push(`status = 'active'`);
    if (filter.q !== undefined) add((p) => `(name ILIKE ${p} OR ticker ILIKE ${p})`, likePattern(filter.q));
    if (filter.markets?.length) add((p) => `market = ANY(${p}::text[])`, filter.markets);
    if (filter.tickers?.length) add((p) => `upper(ticker) = ANY(${p}::text[])`, filter.tickers);
    if (filter.ciks?.length) add((p) => `cik = ANY(${p}::bpchar[])`, filter.ciks);
    // The candidates' value index finds the few listings; the resolved ISIN must then be the one asked for.
    if (filter.isins?.length) {
      add((p) => `(symbol, cik) IN (SELECT ci.subject, ci.cik FROM company_identifiers ci WHERE ci.scheme = 'isin' AND ci.value = ANY(${p}::text[])) AND ${RESOLVED_ISIN} = ANY(${p}::text[])`, filter.isins);
    }
    if (filter.figis?.length) add((p) => `figi = ANY(${p}::text[])`, filter.figis);
    if (filter.issuerIds?.length) add((p) => `issuer_id = ANY(${p}::bigint[])`, filter.issuerIds);
    // One column: the keyset is the plain `symbol > $n` the primary key serves.
    const keyset = keysetSql(COMPANIES_ORDER, page, params);
    if (keyset.predicate) where.push(keyset.predicate);
    const text = `SELECT ${LIST_COLUMNS} FROM companies` + (where.length ? ` WHERE ${where.join(' AND ')}` : '') + ` ${keyset.orderByLimit}`;
    const result = await this.pool.query<CompanyListing>({ name: statementName(text), text, values: params });
    return toPage(COMPANIES_ORDER, result.rows, page.limit);
  }

  /** One listing by its exact symbol ('MSFT:US'), or null; with the issuer's own description when captured. */
  async findBySymbol(symbol: string): Promise<CompanyRecord | null> {
    const result = await this.pool.query<CompanyRecord>({
      name: 'companies_by_symbol',
      text: `SELECT ${DETAIL_COLUMNS} FROM companies WHERE symbol = $1`,
      values: [symbol],
    });
    return result.rows[0] ?? null;
  }
}

const statementName = statementNamer('companies_list');
