import { poolOf } from '../repositories/pg-queryable';
import type { DataSource } from 'typeorm';
import type { Pool } from 'pg';
import type { Provenance } from '@app/contracts';
import { keysetOrder, keysetSql, toPage, type KeysetOrder, type Page, type PageRequest } from '../keyset';
import { EXPOSURE_ASSET_CATEGORIES } from './funds.table';

/** One equity holding of a company by a fund, at the fund's latest complete N-PORT report (read model, not an API shape). */
export interface FundExposureRow {
  fundKey: string;
  fundTicker: string | null;
  fundName: string | null;
  isEtf: boolean;
  accession: string;
  holdingIndex: number;
  /** numeric columns as exact decimal text */
  pctVal: string;
  valUsd: string | null;
  balance: string | null;
  units: string | null;
  curCd: string | null;
  /** YYYY-MM-DD (repPdDate) */
  reportDate: string;
  holdingName: string | null;
  matchMethod: string | null;
  matchConfidence: number;
  provenance: Provenance;
}

export type FundExposureSort = 'weight' | 'value';

export interface FundExposureFilter {
  cik: string;
  sort: FundExposureSort;
  etfsOnly: boolean;
  /**
   * YYYY-MM-DD: only reports filed on or before the day. fund_holdings keeps each fund's latest
   * report alone and N-PORT records carry no filing date: a report counts when the filings read
   * model dates its accession (FILED_BY); an earlier report of a fund is not kept to fall back to.
   */
  asOf?: string;
}

/** The funds an as_of answer leaves out, and why (see FundExposureRepository.asOfCoverage). */
export interface FundExposureAsOfCoverage {
  /** Funds whose kept report was filed on or before the day: the ones listed. */
  funds: number;
  /** Funds whose kept report came after the day (filed after it, or its report date is): their report of the day is not kept. */
  replaced: number;
  /** Funds whose kept report has no filing date in the filings read model (and a report date on or before the day). */
  undated: number;
}

/* The holding's report, dated by the filings read model ($3: the day). */
const FILED_BY = `EXISTS (SELECT 1 FROM filings fl WHERE fl.accession = h.accession AND fl.filed_date <= $3::date)`;

const SORT_COLUMN: Record<FundExposureSort, string> = { weight: 'h.pct_val', value: 'h.val_usd' };

/**
 * The exposure list's order, by sort: the sort value (exact decimal text; the list leaves out null
 * values), then accession and holding index; always largest first.
 */
export const FUND_EXPOSURE_ORDER: Readonly<Record<FundExposureSort, KeysetOrder<FundExposureRow>>> = {
  weight: keysetOrder<FundExposureRow>(
    { sql: SORT_COLUMN.weight, type: 'numeric', of: (r) => r.pctVal },
    { sql: 'h.accession', type: 'text', of: (r) => r.accession },
    { sql: 'h.holding_index', type: 'integer', of: (r) => r.holdingIndex },
  ),
  value: keysetOrder<FundExposureRow>(
    { sql: SORT_COLUMN.value, type: 'numeric', of: (r) => r.valUsd ?? '' },
    { sql: 'h.accession', type: 'text', of: (r) => r.accession },
    { sql: 'h.holding_index', type: 'integer', of: (r) => r.holdingIndex },
  ),
};

function exposureWhere(sort: FundExposureSort, etfsOnly: boolean, asOf: boolean): string {
  return `h.match_cik = $1 AND h.is_current AND h.asset_cat = ANY($2::text[]) AND ${SORT_COLUMN[sort]} IS NOT NULL${etfsOnly ? ' AND f.is_etf' : ''}${asOf ? ` AND ${FILED_BY}` : ''}`;
}

/**
 * Fund exposure read side: current equity holdings matched to a company, largest first by weight
 * (pct_val) or value (val_usd), keyset-paginated on (sort value, accession, holding index) over
 * the fund_holdings_exposure_{weight,value}_idx indexes.
 */
export class FundExposureRepository {
  private readonly pool: Pool;

  constructor(dataSource: DataSource) {
    this.pool = poolOf(dataSource);
  }

  /** One page, always largest first (the page's direction is not read). */
  async list(filter: FundExposureFilter, page: PageRequest): Promise<Page<FundExposureRow>> {
    const order = FUND_EXPOSURE_ORDER[filter.sort];
    const params: unknown[] = [filter.cik, EXPOSURE_ASSET_CATEGORIES];
    if (filter.asOf !== undefined) params.push(filter.asOf);
    const keyset = keysetSql(order, { ...page, direction: 'desc' }, params);
    const text = `
      SELECT h.fund_key AS "fundKey", f.fund_ticker AS "fundTicker", coalesce(f.series_name, f.registrant_name) AS "fundName",
        f.is_etf AS "isEtf", h.accession, h.holding_index AS "holdingIndex", h.pct_val::text AS "pctVal",
        h.val_usd::text AS "valUsd", h.balance::text AS balance, h.units, h.cur_cd AS "curCd",
        to_char(h.report_date, 'YYYY-MM-DD') AS "reportDate", h.name AS "holdingName", h.match_method AS "matchMethod",
        h.match_confidence AS "matchConfidence", h.provenance
      FROM fund_holdings h JOIN funds f ON f.fund_key = h.fund_key
      WHERE ${exposureWhere(filter.sort, filter.etfsOnly, filter.asOf !== undefined)}${keyset.predicate ? ` AND ${keyset.predicate}` : ''}
      ${keyset.orderByLimit}`;
    const name = `fund_exposure_${filter.sort}_${filter.etfsOnly ? 'etf' : 'all'}${filter.asOf !== undefined ? '_as_of' : ''}_${page.after ? 'after' : 'first'}`;
    const result = await this.pool.query<FundExposureRow>({ name, text, values: params });
    return toPage(order, result.rows, page.limit);
  }

  /**
   * Funds with a current equity holding of the company (the list's filters, no keyset), as the
   * fund holdings projection keeps them in company_fund_counts: one primary-key read.
   */
  async countFunds(cik: string, etfsOnly: boolean): Promise<number> {
    const result = await this.pool.query<{ n: number }>({
      name: `fund_exposure_count_${etfsOnly ? 'etf' : 'all'}`,
      text: `SELECT ${etfsOnly ? 'etf_funds' : 'funds'} AS n FROM company_fund_counts WHERE match_cik = $1`,
      values: [cik],
    });
    return result.rows[0]?.n ?? 0;
  }

  /**
   * As of a day: the funds with a current, weighted equity holding of the company (countFunds'
   * rule) split by whether their kept report can answer for the day. Counted over the company's
   * holdings (fund_holdings_exposure_weight_idx), not from company_fund_counts, which is today's.
   */
  async asOfCoverage(cik: string, etfsOnly: boolean, asOf: string): Promise<FundExposureAsOfCoverage> {
    const result = await this.pool.query<FundExposureAsOfCoverage>({
      name: `fund_exposure_as_of_coverage_${etfsOnly ? 'etf' : 'all'}`,
      text: `
        SELECT count(DISTINCT h.fund_key) FILTER (WHERE fl.filed_date <= $3::date)::int AS funds,
          count(DISTINCT h.fund_key) FILTER (WHERE fl.filed_date > $3::date OR (fl.filed_date IS NULL AND h.report_date > $3::date))::int AS replaced,
          count(DISTINCT h.fund_key) FILTER (WHERE fl.filed_date IS NULL AND h.report_date <= $3::date)::int AS undated
        FROM fund_holdings h JOIN funds f ON f.fund_key = h.fund_key LEFT JOIN filings fl ON fl.accession = h.accession
        WHERE ${exposureWhere('weight', etfsOnly, false)}`,
      values: [cik, EXPOSURE_ASSET_CATEGORIES, asOf],
    });
    return result.rows[0]!;
  }
}
