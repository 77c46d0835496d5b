import { previousQuarterEnd, type Provenance } from '@app/contracts';
import { keysetOrder, keysetSql, toPage, type KeysetOrder, type Page, type PageRequest } from '../keyset';
import { pgQueryable, type PgQueryable, type SqlSource } from '../repositories/pg-queryable';
import { CUSIP_MATCH_JOIN } from './institutional.table';

/**
 * One served 13F position (institutional_positions) with what a reader needs beside it: the
 * manager's name and quarter total (for the weight), the filing's date and provenance, the
 * infoTable row as filed, and the company a CUSIP is matched to. Read model, not an API shape.
 * bigint columns come as decimal text (pg's default: exact beyond 2^53).
 */
export interface InstitutionalPositionRow {
  managerCik: string;
  managerName: string | null;
  /** YYYY-MM-DD, the quarter end */
  period: string;
  cusip: string;
  /** The matched company's CIK; null when the CUSIP is unmatched. */
  cik: string | null;
  /**
   * The listing (`<TICKER>:US`) the CUSIP is a share of: matched by its own CUSIP, the crosswalk
   * row's symbol (what the N-PORT holding named); matched by issuer prefix (no crosswalk row of
   * its own), the company's symbol when it has exactly one listing, else null (which share class
   * is not known). Null when unmatched.
   */
  symbol: string | null;
  matchMethod: string | null;
  issuer: string;
  classTitle: string | null;
  shares: string;
  principal: string;
  valueUsd: string;
  putShares: string;
  putValueUsd: string;
  callShares: string;
  callValueUsd: string;
  prevShares: string | null;
  shareDelta: string | null;
  /** The change sort's key: shareDelta, or below every delta when there is none. */
  changeRank: string;
  change: string | null;
  /**
   * The filing and infoTable row the position comes from (never null: NOT NULL columns); a
   * sold_out row cites the previous quarter's row, the position that was sold. filedDate, quote
   * and provenance are joined from that filing and row.
   */
  accession: string;
  holdingIndex: number;
  filedDate: string | null;
  quote: string | null;
  provenance: Provenance | null;
  /** The manager's whole quarter in USD (institutional_manager_quarters.value_usd_total). */
  managerValueTotal: string | null;
}

export type HoldersSort = 'value' | 'shares' | 'change';
export type PortfolioSort = 'value' | 'change';

/** Holders of a company (its CIK: every CUSIP matched to it) or of one CUSIP, at one quarter end. */
export type HoldersTarget = { cik: string } | { cusip: string };

const manager = { sql: 'p.manager_cik', type: 'text', of: (r: InstitutionalPositionRow) => r.managerCik, reverse: true } as const;
const cusip = { sql: 'p.cusip', type: 'text', of: (r: InstitutionalPositionRow) => r.cusip, reverse: true } as const;

/**
 * The holders lists' orders, the institutional_positions_holders_{value,shares,change}_idx
 * indexes' after (cik, period): largest first, ties by manager then CUSIP ascending;
 * change is the share delta, largest first, rows without one (no previous quarter known) last
 * (change_rank).
 */
export const HOLDERS_ORDER: Readonly<Record<HoldersSort, KeysetOrder<InstitutionalPositionRow>>> = {
  value: keysetOrder<InstitutionalPositionRow>({ sql: 'p.value_usd', type: 'bigint', of: (r) => Number(r.valueUsd) }, manager, cusip),
  shares: keysetOrder<InstitutionalPositionRow>({ sql: 'p.shares', type: 'bigint', of: (r) => Number(r.shares) }, manager, cusip),
  change: keysetOrder<InstitutionalPositionRow>({ sql: 'p.change_rank', type: 'bigint', of: (r) => Number(r.changeRank) }, manager, cusip),
};

/**
 * Holders of one CUSIP (institutional_positions_cusip_idx after (cusip, period)): by value, then
 * manager; the CUSIP route serves this one order.
 */
export const CUSIP_HOLDERS_ORDER = keysetOrder<InstitutionalPositionRow>({ sql: 'p.value_usd', type: 'bigint', of: (r) => Number(r.valueUsd) }, manager);

/**
 * A manager's portfolio: by value (institutional_positions_portfolio_idx after (manager_cik,
 * period)), or by share delta, which no index holds (one manager's quarter is sorted: thousands
 * of rows at most).
 */
export const PORTFOLIO_ORDER: Readonly<Record<PortfolioSort, KeysetOrder<InstitutionalPositionRow>>> = {
  value: keysetOrder<InstitutionalPositionRow>({ sql: 'p.value_usd', type: 'bigint', of: (r) => Number(r.valueUsd) }, cusip),
  change: keysetOrder<InstitutionalPositionRow>({ sql: 'p.change_rank', type: 'bigint', of: (r) => Number(r.changeRank) }, cusip),
};

/** One 13F filer, as institutional_managers keeps it. */
export interface InstitutionalManagerRow {
  cik: string;
  name: string | null;
  fileNumber: string | null;
  /** YYYY-MM-DD: the newest quarter end it reported */
  latestPeriod: string;
  /** Search only: how well the name matches (word similarity, 0..1); 1 for a CIK match or no query. */
  score: number;
}

/** One 13F filing of a manager (thirteenf_filings), amendments and notices included. */
export interface ThirteenFFilingRow {
  accession: string;
  form: string;
  reportType: string;
  amendmentNumber: number | null;
  amendmentType: string | null;
  period: string;
  filedDate: string;
  supersededBy: string | null;
  holdingsTotal: number;
  entryTotal: number | null;
  /** tableValueTotal as filed (decimal text), in valueUnit */
  valueTotal: string | null;
  valueUnit: string;
  unitBasis: string;
  unitFlag: string | null;
  sourceUrl: string;
}

/** One quarter of a manager (institutional_manager_quarters). */
export interface ManagerQuarterRow {
  period: string;
  reportType: string;
  accessions: string[];
  positions: number;
  valueUsdTotal: string;
  unitFlag: string | null;
}

/** A manager search: by name (trigram word similarity on search_fold), or one CIK. */
export type ManagerSearch = { cik: string } | { name: string } | Record<string, never>;

/** Search results by score, then CIK; without a query, by CIK. */
export const MANAGER_SEARCH_ORDER = keysetOrder<InstitutionalManagerRow>(
  { sql: 'score', type: 'float8', of: (r) => r.score },
  { sql: 'cik', type: 'text', of: (r) => r.cik },
);

/** At most this many quarters are listed as available (a century of quarters). */
const QUARTERS_LISTED = 400;

/**
 * The listing symbol of a matched CUSIP (see InstitutionalPositionRow.symbol): the crosswalk row
 * `cw` of the CUSIP when it names the matched company `cik` (a position keeps its match when the
 * crosswalk later re-points the CUSIP), else, for an issuer-prefix match, the company's only
 * listing (companies_cik_idx; the rule of HoldingMatcher.listingOf for a holding that names no
 * ticker). The crosswalk is joined by its primary key alone: a condition on its cik would be
 * pushed down as a filter on a column the key does not lead with.
 */
const symbolSql = (p: string, cw: string, cik = `${p}.cik`) => `CASE WHEN ${cw}.cik = ${cik} THEN ${cw}.symbol
    WHEN ${p}.match_method = 'cusip_issuer' THEN (SELECT min(c.symbol) FROM companies c WHERE c.cik = ${cik} HAVING count(*) = 1) END`;

const POSITION_COLUMNS = `
  p.manager_cik AS "managerCik", coalesce(q.manager_name, m.name) AS "managerName", to_char(p.period, 'YYYY-MM-DD') AS period,
  p.cusip, p.cik, ${symbolSql('p', 'cw')} AS symbol, p.match_method AS "matchMethod", p.issuer, p.class_title AS "classTitle",
  p.shares::text AS shares, p.principal::text AS principal, p.value_usd::text AS "valueUsd",
  p.put_shares::text AS "putShares", p.put_value_usd::text AS "putValueUsd", p.call_shares::text AS "callShares", p.call_value_usd::text AS "callValueUsd",
  p.prev_shares::text AS "prevShares", p.share_delta::text AS "shareDelta", p.change_rank::text AS "changeRank", p.change,
  p.accession, p.holding_index AS "holdingIndex", to_char(f.filed_date, 'YYYY-MM-DD') AS "filedDate", h.quote, f.provenance,
  q.value_usd_total::text AS "managerValueTotal"`;

// Every join is by primary key (cusip: text = text): a nested loop over the ordered index scan
// keeps the order.
const POSITION_JOINS = `
  LEFT JOIN thirteenf_holdings h ON h.accession = p.accession AND h.holding_index = p.holding_index
  LEFT JOIN thirteenf_filings f ON f.accession = p.accession
  LEFT JOIN institutional_manager_quarters q ON q.manager_cik = p.manager_cik AND q.period = p.period
  LEFT JOIN institutional_managers m ON m.cik = p.manager_cik
  LEFT JOIN cusip_crosswalk cw ON cw.cusip = p.cusip`;

/*
 * A company's 13F positions at a quarter ($2; $3 the quarter before) as of a day ($4), from the
 * filings as filed (thirteenf_filings, thirteenf_holdings keep every filing, superseded or not),
 * by the projection's rules: per manager quarter, the complete filings filed on or before the day
 * make it as quarterFilings does (the latest original or restatement in filing order, then the
 * new-holdings amendments filed after it); positions are summed as INSERT_POSITIONS_SQL sums them,
 * matched by today's crosswalk (CUSIP_MATCH_JOIN); change compares with the quarter before as of
 * the same day, and a position held long then and gone now is a sold_out row of zeros citing the
 * earlier holding. The managers are those today's positions of the company name at either quarter
 * (the holders index), and the holdings read are those of the company's CUSIP issuers (prefixes).
 */
const AS_OF_POSITIONS_CTE = `
  WITH managers AS (
    SELECT DISTINCT manager_cik FROM institutional_positions WHERE cik = $1 AND period IN ($2::date, $3::date)
  ), issuers AS (
    SELECT DISTINCT left(cusip, 6) AS prefix FROM institutional_positions WHERE cik = $1 AND period IN ($2::date, $3::date)
  ), filed AS (
    SELECT f.manager_cik, f.period, f.accession, f.amendment_type, f.report_type, f.manager_name,
      row_number() OVER (PARTITION BY f.manager_cik, f.period
        ORDER BY f.filed_date, f.accepted_at NULLS FIRST, f.amendment_number NULLS FIRST, f.accession) AS ord
    FROM managers m JOIN thirteenf_filings f ON f.manager_cik = m.manager_cik AND f.period IN ($2::date, $3::date)
    WHERE f.filed_date <= $4::date AND f.chunks_seen = f.chunk_count
  ), base AS (
    SELECT DISTINCT ON (manager_cik, period) manager_cik, period, ord, accession FROM filed
    WHERE amendment_type IS DISTINCT FROM 'new_holdings' ORDER BY manager_cik, period, ord DESC
  ), cur AS (
    SELECT fd.* FROM filed fd LEFT JOIN base b ON b.manager_cik = fd.manager_cik AND b.period = fd.period
    WHERE fd.accession = b.accession OR (fd.amendment_type = 'new_holdings' AND (b.ord IS NULL OR fd.ord > b.ord))
  ), quarters AS (
    SELECT manager_cik, period, array_agg(accession ORDER BY ord) AS accessions, (array_agg(report_type ORDER BY ord))[1] AS report_type,
      (array_agg(manager_name ORDER BY ord DESC))[1] AS manager_name
    FROM cur GROUP BY manager_cik, period
  ), summed AS (
    SELECT c.manager_cik, c.period, h.cusip,
      coalesce(sum(h.shares) FILTER (WHERE h.put_call IS NULL AND h.share_type = 'SH'), 0) AS shares,
      coalesce(sum(h.shares) FILTER (WHERE h.put_call IS NULL AND h.share_type = 'PRN'), 0) AS principal,
      coalesce(sum(h.value_usd) FILTER (WHERE h.put_call IS NULL), 0) AS value_usd,
      coalesce(sum(h.shares) FILTER (WHERE h.put_call = 'put'), 0) AS put_shares,
      coalesce(sum(h.value_usd) FILTER (WHERE h.put_call = 'put'), 0) AS put_value_usd,
      coalesce(sum(h.shares) FILTER (WHERE h.put_call = 'call'), 0) AS call_shares,
      coalesce(sum(h.value_usd) FILTER (WHERE h.put_call = 'call'), 0) AS call_value_usd,
      (array_agg(h.issuer ORDER BY c.ord, h.holding_index))[1] AS issuer,
      (array_agg(h.class_title ORDER BY c.ord, h.holding_index))[1] AS class_title,
      (array_agg(h.accession ORDER BY c.ord, h.holding_index))[1] AS accession,
      (array_agg(h.holding_index ORDER BY c.ord, h.holding_index))[1] AS holding_index
    FROM cur c JOIN thirteenf_holdings h ON h.accession = c.accession
    WHERE left(h.cusip, 6) IN (SELECT prefix FROM issuers)
    GROUP BY c.manager_cik, c.period, h.cusip
  ), pos AS (
    SELECT p.*, matched.cik, matched.method AS match_method FROM summed p ${CUSIP_MATCH_JOIN} WHERE matched.cik = $1
  ), now_q AS (
    SELECT q.manager_cik, q.manager_name, q.accessions,
      EXISTS (SELECT 1 FROM quarters b WHERE b.manager_cik = q.manager_cik AND b.period = $3::date AND b.report_type <> 'notice') AS has_prev
    FROM quarters q WHERE q.period = $2::date
  ), rows AS (
    SELECT p.manager_cik, p.cusip, p.cik, p.match_method, p.issuer, p.class_title, p.shares, p.principal, p.value_usd, p.put_shares, p.put_value_usd,
      p.call_shares, p.call_value_usd, p.accession, p.holding_index, n.has_prev,
      p.shares + p.principal AS now_long, coalesce(pp.shares + pp.principal, 0) AS prev_long
    FROM pos p JOIN now_q n ON n.manager_cik = p.manager_cik
    LEFT JOIN pos pp ON n.has_prev AND pp.manager_cik = p.manager_cik AND pp.period = $3::date AND pp.cusip = p.cusip
    WHERE p.period = $2::date
    UNION ALL
    SELECT pp.manager_cik, pp.cusip, pp.cik, pp.match_method, pp.issuer, pp.class_title, 0, 0, 0, 0, 0, 0, 0, pp.accession, pp.holding_index, true,
      0, pp.shares + pp.principal
    FROM pos pp JOIN now_q n ON n.manager_cik = pp.manager_cik AND n.has_prev
    WHERE pp.period = $3::date AND pp.shares + pp.principal > 0
      AND NOT EXISTS (SELECT 1 FROM pos p WHERE p.manager_cik = pp.manager_cik AND p.period = $2::date AND p.cusip = pp.cusip)
      AND (SELECT report_type FROM quarters q WHERE q.manager_cik = pp.manager_cik AND q.period = $2::date) <> 'notice'
  ), served AS (
    SELECT r.*, $2::date AS period,
      CASE WHEN r.has_prev THEN r.prev_long END AS prev_shares,
      CASE WHEN r.has_prev THEN r.now_long - r.prev_long END AS share_delta,
      COALESCE(CASE WHEN r.has_prev THEN r.now_long - r.prev_long END, '-9007199254740991'::bigint) AS change_rank,
      CASE WHEN NOT r.has_prev OR (r.now_long = 0 AND r.prev_long = 0) THEN NULL
           WHEN r.now_long = 0 THEN 'sold_out'
           WHEN r.prev_long = 0 THEN 'new'
           WHEN r.now_long > r.prev_long THEN 'increased'
           WHEN r.now_long < r.prev_long THEN 'decreased'
           ELSE 'unchanged' END AS change,
      n.manager_name AS quarter_manager_name,
      -- The quarter's total as stored when the same filings make it, else summed from them.
      CASE WHEN s.accessions = n.accessions THEN s.value_usd_total
           ELSE (SELECT coalesce(sum(h.value_usd), 0) FROM thirteenf_holdings h WHERE h.accession = ANY(n.accessions) AND h.put_call IS NULL) END AS manager_value_total
    FROM rows r JOIN now_q n ON n.manager_cik = r.manager_cik
    LEFT JOIN institutional_manager_quarters s ON s.manager_cik = r.manager_cik AND s.period = $2::date
  )`;

const AS_OF_POSITION_COLUMNS = `
  p.manager_cik AS "managerCik", coalesce(p.quarter_manager_name, m.name) AS "managerName", to_char(p.period, 'YYYY-MM-DD') AS period,
  p.cusip, p.cik, ${symbolSql('p', 'cw')} AS symbol, p.match_method AS "matchMethod", p.issuer, p.class_title AS "classTitle",
  p.shares::text AS shares, p.principal::text AS principal, p.value_usd::text AS "valueUsd",
  p.put_shares::text AS "putShares", p.put_value_usd::text AS "putValueUsd", p.call_shares::text AS "callShares", p.call_value_usd::text AS "callValueUsd",
  p.prev_shares::text AS "prevShares", p.share_delta::text AS "shareDelta", p.change_rank::text AS "changeRank", p.change,
  p.accession, p.holding_index AS "holdingIndex", to_char(f.filed_date, 'YYYY-MM-DD') AS "filedDate", h.quote, f.provenance,
  p.manager_value_total::text AS "managerValueTotal"`;

/**
 * 13F read side: holders of a company or a CUSIP, a manager's portfolio, managers and their
 * filings. Every list is keyset-paged in the order of its index (HOLDERS_ORDER, PORTFOLIO_ORDER).
 */
export class InstitutionalHoldersRepository {
  private readonly pool: PgQueryable;

  constructor(source: SqlSource) {
    this.pool = pgQueryable(source);
  }

  /** One page of a company's or a CUSIP's holders at `period`, always largest first. */
  async holders(target: HoldersTarget, period: string, sort: HoldersSort, page: PageRequest): Promise<Page<InstitutionalPositionRow>> {
    const byCik = 'cik' in target;
    const order = byCik ? HOLDERS_ORDER[sort] : CUSIP_HOLDERS_ORDER;
    const params: unknown[] = [byCik ? target.cik : target.cusip, period];
    const keyset = keysetSql(order, { ...page, direction: 'desc' }, params);
    const text = `SELECT ${POSITION_COLUMNS} FROM institutional_positions p ${POSITION_JOINS}
      WHERE p.${byCik ? 'cik' : 'cusip'} = $1 AND p.period = $2::date${keyset.predicate ? ` AND ${keyset.predicate}` : ''}
      ${keyset.orderByLimit}`;
    const name = `thirteenf_holders_${byCik ? sort : 'cusip'}_${page.after ? (page.after[0] === null ? 'after_null' : 'after') : 'first'}`;
    const result = await this.pool.query<InstitutionalPositionRow>({ name, text, values: params });
    return toPage(order, result.rows, page.limit);
  }

  /**
   * One page of a company's holders at `period` as of a day (AS_OF_POSITIONS_CTE), always largest
   * first, in HOLDERS_ORDER.
   */
  async holdersAsOf(cik: string, period: string, asOf: string, sort: HoldersSort, page: PageRequest): Promise<Page<InstitutionalPositionRow>> {
    const order = HOLDERS_ORDER[sort];
    const params: unknown[] = [cik, period, previousQuarterEnd(period), asOf];
    const keyset = keysetSql(order, { ...page, direction: 'desc' }, params);
    const text = `${AS_OF_POSITIONS_CTE}
      SELECT ${AS_OF_POSITION_COLUMNS} FROM served p
      LEFT JOIN thirteenf_holdings h ON h.accession = p.accession AND h.holding_index = p.holding_index
      LEFT JOIN thirteenf_filings f ON f.accession = p.accession
      LEFT JOIN institutional_managers m ON m.cik = p.manager_cik
      LEFT JOIN cusip_crosswalk cw ON cw.cusip = p.cusip
      ${keyset.predicate ? `WHERE ${keyset.predicate}` : ''} ${keyset.orderByLimit}`;
    const name = `thirteenf_holders_as_of_${sort}_${page.after ? (page.after[0] === null ? 'after_null' : 'after') : 'first'}`;
    const result = await this.pool.query<InstitutionalPositionRow>({ name, text, values: params });
    return toPage(order, result.rows, page.limit);
  }

  /** The CUSIPs of a company's positions at `period` as of a day (AS_OF_POSITIONS_CTE), sorted. */
  async cusipsAsOf(cik: string, period: string, asOf: string): Promise<string[]> {
    const result = await this.pool.query<{ cusip: string }>({
      name: 'thirteenf_cusips_of_company_as_of',
      text: `${AS_OF_POSITIONS_CTE} SELECT DISTINCT cusip FROM served ORDER BY cusip`,
      values: [cik, period, previousQuarterEnd(period), asOf],
    });
    return result.rows.map((r) => r.cusip);
  }

  /**
   * Of the given quarter ends with positions of the company today, those for which one of the
   * managers of those positions had a complete 13F of the quarter filed on or before the day,
   * newest first.
   */
  async holderPeriodsFiledBy(cik: string, periods: readonly string[], asOf: string): Promise<string[]> {
    const result = await this.pool.query<{ period: string }>({
      name: 'thirteenf_holder_periods_filed_by',
      text: `
        SELECT to_char(q.period, 'YYYY-MM-DD') AS period FROM unnest($2::date[]) AS q(period)
        WHERE EXISTS (
          SELECT 1 FROM institutional_positions p JOIN thirteenf_filings f ON f.manager_cik = p.manager_cik AND f.period = p.period
          WHERE p.cik = $1 AND p.period = q.period AND f.filed_date <= $3::date AND f.chunks_seen = f.chunk_count)
        ORDER BY q.period DESC`,
      values: [cik, periods, asOf],
    });
    return result.rows.map((r) => r.period);
  }

  /** One page of a manager's positions at `period` (sold-out rows included), always largest first. */
  async portfolio(managerCik: string, period: string, sort: PortfolioSort, page: PageRequest): Promise<Page<InstitutionalPositionRow>> {
    const order = PORTFOLIO_ORDER[sort];
    const params: unknown[] = [managerCik, period];
    const keyset = keysetSql(order, { ...page, direction: 'desc' }, params);
    const text = `SELECT ${POSITION_COLUMNS} FROM institutional_positions p ${POSITION_JOINS}
      WHERE p.manager_cik = $1 AND p.period = $2::date${keyset.predicate ? ` AND ${keyset.predicate}` : ''}
      ${keyset.orderByLimit}`;
    const name = `thirteenf_portfolio_${sort}_${page.after ? (page.after[0] === null ? 'after_null' : 'after') : 'first'}`;
    const result = await this.pool.query<InstitutionalPositionRow>({ name, text, values: params });
    return toPage(order, result.rows, page.limit);
  }

  /**
   * Quarter ends with positions of the company (or CUSIP), newest first: a skip scan of the
   * holders index, one probe per quarter instead of reading every position.
   */
  async holderPeriods(target: HoldersTarget): Promise<string[]> {
    const byCik = 'cik' in target;
    const column = byCik ? 'cik' : 'cusip';
    const result = await this.pool.query<{ period: string }>({
      name: `thirteenf_holder_periods_${column}`,
      text: `
        WITH RECURSIVE periods AS (
          (SELECT period, 1 AS n FROM institutional_positions WHERE ${column} = $1 ORDER BY period DESC LIMIT 1)
          UNION ALL
          SELECT (SELECT p.period FROM institutional_positions p WHERE p.${column} = $1 AND p.period < periods.period ORDER BY p.period DESC LIMIT 1), n + 1
          FROM periods WHERE periods.period IS NOT NULL AND n < ${QUARTERS_LISTED}
        )
        SELECT to_char(period, 'YYYY-MM-DD') AS period FROM periods WHERE period IS NOT NULL`,
      values: [byCik ? target.cik : target.cusip],
    });
    return result.rows.map((r) => r.period);
  }

  /**
   * The CUSIPs of a company's positions at one quarter end, sorted: those matched to it by their
   * own CUSIP and those matched by issuer prefix (which have no crosswalk row). An index-only read
   * of institutional_positions_holders_value_idx over the company's quarter.
   */
  async cusipsOf(cik: string, period: string): Promise<string[]> {
    const result = await this.pool.query<{ cusip: string }>({
      name: 'thirteenf_cusips_of_company',
      text: `SELECT DISTINCT cusip FROM institutional_positions WHERE cik = $1 AND period = $2::date ORDER BY cusip`,
      values: [cik, period],
    });
    return result.rows.map((r) => r.cusip);
  }

  /**
   * What is known of a CUSIP: its issuer and class as last filed (newest position), else from
   * SEC's Official List; the company it is matched to (the newest position's match, else the
   * crosswalk's) and the listing symbol by the positions' rule. Null when neither knows it.
   * Every read is by index: institutional_positions_cusip_idx, thirteenf_securities_cusip_idx,
   * the crosswalk's primary key.
   */
  async security(cusipValue: string): Promise<{ cusip: string; issuer: string; classTitle: string | null; cik: string | null; symbol: string | null } | null> {
    const result = await this.pool.query<{ cusip: string; issuer: string; classTitle: string | null; cik: string | null; symbol: string | null }>({
      name: 'thirteenf_security',
      text: `
        SELECT s.cusip, s.issuer, s.class_title AS "classTitle", coalesce(s.cik, cw.cik) AS cik, ${symbolSql('s', 'cw', 'coalesce(s.cik, cw.cik)')} AS symbol
        FROM (
          (SELECT cusip, issuer, class_title, cik, match_method, 0 AS rank FROM institutional_positions WHERE cusip = $1::text ORDER BY period DESC, value_usd DESC LIMIT 1)
          UNION ALL
          (SELECT cusip, issuer, description, NULL, NULL, 1 FROM thirteenf_securities WHERE cusip = $1::text ORDER BY quarter DESC LIMIT 1)
          ORDER BY rank LIMIT 1
        ) s
        LEFT JOIN cusip_crosswalk cw ON cw.cusip = s.cusip`,
      values: [cusipValue],
    });
    return result.rows[0] ?? null;
  }

  async manager(cik: string): Promise<InstitutionalManagerRow | null> {
    const result = await this.pool.query<InstitutionalManagerRow>({
      name: 'thirteenf_manager',
      text: `SELECT cik, name, file_number AS "fileNumber", to_char(latest_period, 'YYYY-MM-DD') AS "latestPeriod", 1::float8 AS score FROM institutional_managers WHERE cik = $1`,
      values: [cik],
    });
    return result.rows[0] ?? null;
  }

  /**
   * Managers by name (search_fold(name) word-similar to the query, over the trigram index), by
   * CIK, or all; best match first, then CIK (descending, as the page runs).
   */
  async searchManagers(search: ManagerSearch, page: PageRequest): Promise<Page<InstitutionalManagerRow>> {
    const params: unknown[] = [];
    let score = '1::float8';
    let where = 'true';
    if ('cik' in search) {
      params.push(search.cik);
      where = 'm.cik = $1';
    } else if ('name' in search) {
      params.push(search.name);
      score = `word_similarity(search_fold($1), search_fold(coalesce(m.name, '')))::float8`;
      where = `search_fold(coalesce(m.name, '')) %> search_fold($1)`;
    }
    const keyset = keysetSql(MANAGER_SEARCH_ORDER, page, params);
    const text = `SELECT * FROM (
        SELECT m.cik, m.name, m.file_number AS "fileNumber", to_char(m.latest_period, 'YYYY-MM-DD') AS "latestPeriod", ${score} AS score
        FROM institutional_managers m WHERE ${where}
      ) s${keyset.predicate ? ` WHERE ${keyset.predicate}` : ''} ${keyset.orderByLimit}`;
    const kind = 'cik' in search ? 'cik' : 'name' in search ? 'name' : 'all';
    const result = await this.pool.query<InstitutionalManagerRow>({ name: `thirteenf_managers_${kind}_${page.after ? 'after' : 'first'}`, text, values: params });
    return toPage(MANAGER_SEARCH_ORDER, result.rows, page.limit);
  }

  /** Every 13F filing of a manager, newest quarter first (thirteenf_filings_manager_idx). */
  async filingsOf(managerCik: string): Promise<ThirteenFFilingRow[]> {
    const result = await this.pool.query<ThirteenFFilingRow>({
      name: 'thirteenf_filings_of_manager',
      text: `
        SELECT accession, form, report_type AS "reportType", amendment_number AS "amendmentNumber", amendment_type AS "amendmentType",
          to_char(period, 'YYYY-MM-DD') AS period, to_char(filed_date, 'YYYY-MM-DD') AS "filedDate", superseded_by AS "supersededBy",
          holdings_total AS "holdingsTotal", entry_total AS "entryTotal", value_total::text AS "valueTotal", value_unit AS "valueUnit",
          unit_basis AS "unitBasis", unit_flag AS "unitFlag", source_url AS "sourceUrl"
        FROM thirteenf_filings WHERE manager_cik = $1
        -- Newest first in the order the projection applies a quarter's filings (acceptance, not accession, within a day).
        ORDER BY period DESC, filed_date DESC, accepted_at DESC NULLS LAST, amendment_number DESC NULLS LAST, accession DESC`,
      values: [managerCik],
    });
    return result.rows;
  }

  /** A manager's quarters as served, newest first. */
  async quartersOf(managerCik: string): Promise<ManagerQuarterRow[]> {
    const result = await this.pool.query<ManagerQuarterRow>({
      name: 'thirteenf_quarters_of_manager',
      text: `
        SELECT to_char(period, 'YYYY-MM-DD') AS period, report_type AS "reportType", accessions, positions,
          value_usd_total::text AS "valueUsdTotal", unit_flag AS "unitFlag"
        FROM institutional_manager_quarters WHERE manager_cik = $1 ORDER BY period DESC LIMIT ${QUARTERS_LISTED}`,
      values: [managerCik],
    });
    return result.rows;
  }
}
