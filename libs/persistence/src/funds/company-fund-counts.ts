import type { EntityManager } from 'typeorm';
import { EXPOSURE_ASSET_CATEGORIES } from './funds.table';

/**
 * A fund counts toward a company's `fund_count` when it has a current equity holding of it with a
 * weight: the rows the fund exposure list (sort=weight) shows. `categories` is the placeholder
 * bound to EXPOSURE_ASSET_CATEGORIES.
 */
const countedHolding = (categories: string): string =>
  `h.match_cik IS NOT NULL AND h.is_current AND h.asset_cat = ANY(${categories}::text[]) AND h.pct_val IS NOT NULL`;

/** What a fund contributes to company_fund_counts: the companies it counts toward, and whether it is an ETF. */
export interface FundExposure {
  ciks: ReadonlySet<string>;
  isEtf: boolean;
}

/** A change of company_fund_counts for one company. */
export interface FundCountDelta {
  cik: string;
  funds: number;
  etfFunds: number;
}

/** The fund's contribution as stored now (read in the caller's transaction, under the fund's lock). */
export async function fundExposureOf(m: EntityManager, fundKey: string): Promise<FundExposure> {
  const rows = await m.query<Array<{ ciks: string[]; is_etf: boolean | null }>>(
    `SELECT ARRAY(SELECT DISTINCT h.match_cik FROM fund_holdings h WHERE h.fund_key = $1 AND ${countedHolding('$2')}) AS ciks,
            (SELECT is_etf FROM funds WHERE fund_key = $1) AS is_etf`,
    [fundKey, EXPOSURE_ASSET_CATEGORIES],
  );
  return { ciks: new Set(rows[0]?.ciks ?? []), isEtf: rows[0]?.is_etf === true };
}

/** What moving a fund's contribution from `before` to `after` changes, per company, sorted by CIK (the lock order). Pure. */
export function fundCountDeltas(before: FundExposure, after: FundExposure): FundCountDelta[] {
  const deltas: FundCountDelta[] = [];
  for (const cik of [...new Set([...before.ciks, ...after.ciks])].sort()) {
    const was = before.ciks.has(cik);
    const is = after.ciks.has(cik);
    const delta = { cik, funds: Number(is) - Number(was), etfFunds: Number(is && after.isEtf) - Number(was && before.isEtf) };
    if (delta.funds !== 0 || delta.etfFunds !== 0) deltas.push(delta);
  }
  return deltas;
}

/** The deltas of several funds summed per company, in CIK order, zeros left out. Pure. */
export function mergeFundCountDeltas(deltas: ReadonlyArray<FundCountDelta>): FundCountDelta[] {
  const byCik = new Map<string, FundCountDelta>();
  for (const d of deltas) {
    const sum = byCik.get(d.cik) ?? { cik: d.cik, funds: 0, etfFunds: 0 };
    byCik.set(d.cik, { cik: d.cik, funds: sum.funds + d.funds, etfFunds: sum.etfFunds + d.etfFunds });
  }
  return [...byCik.values()].filter((d) => d.funds !== 0 || d.etfFunds !== 0).sort((a, b) => (a.cik < b.cik ? -1 : a.cik > b.cik ? 1 : 0));
}

/** Applies a batch's merged deltas in one statement, in CIK order, so concurrent batches lock companies in the same order. */
export async function applyFundCountDeltas(m: EntityManager, deltas: ReadonlyArray<FundCountDelta>): Promise<void> {
  if (deltas.length === 0) return;
  await m.query(
    `INSERT INTO company_fund_counts (match_cik, funds, etf_funds)
     SELECT * FROM unnest($1::text[], $2::int[], $3::int[])
     ON CONFLICT (match_cik) DO UPDATE SET funds = company_fund_counts.funds + EXCLUDED.funds, etf_funds = company_fund_counts.etf_funds + EXCLUDED.etf_funds`,
    [deltas.map((d) => d.cik), deltas.map((d) => d.funds), deltas.map((d) => d.etfFunds)],
  );
}

/**
 * Recounts company_fund_counts from fund_holdings and funds: after holdings were loaded around the
 * projection (bench/scale's COPY), or to check the kept counts. Same result as the projection keeps.
 */
export async function rebuildCompanyFundCounts(db: { query(sql: string, params?: unknown[]): Promise<unknown> }): Promise<void> {
  await db.query('DELETE FROM company_fund_counts');
  await db.query(
    `INSERT INTO company_fund_counts (match_cik, funds, etf_funds)
     SELECT h.match_cik, count(DISTINCT h.fund_key), count(DISTINCT h.fund_key) FILTER (WHERE f.is_etf)
       FROM fund_holdings h LEFT JOIN funds f ON f.fund_key = h.fund_key
      WHERE ${countedHolding('$1')}
      GROUP BY h.match_cik`,
    [EXPOSURE_ASSET_CATEGORIES],
  );
}
