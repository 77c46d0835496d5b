import type { EntityManager } from 'typeorm';
import type { FundHoldingsData, RecordEnvelope } from '@app/contracts';
import { isValidCusip } from '@app/edgar';
import { columnArrays, unnestUpsertSql } from '../projections/batch-upsert';
import { upsertColumns } from '../table';
import { CUSIP_CROSSWALK_TABLE } from './institutional.table';

/*
 * cusip_crosswalk: CUSIP -> covered company, from N-PORT holdings the ingestor matched by an
 * identifier (ISIN, CUSIP, LEI, ticker), never by name. 13F positions are matched through it by
 * the exact CUSIP, else by the issuer (the CUSIP's first six characters) when every crosswalk
 * CUSIP of that issuer names one company.
 *
 * The crosswalk writer and the 13F quarter recompute run in separate transactions and neither
 * sees the other's uncommitted rows: a position inserted while the crosswalk row of its CUSIP is
 * being written would miss it both ways. CROSSWALK_LOCK orders them: the writer holds it
 * exclusive over its upsert and re-match, a recompute holds it shared before it writes positions
 * (recomputes do not wait for each other).
 */

/** The transaction-scoped advisory lock (hashtext of this key) between crosswalk writes and 13F recomputes. */
export const CROSSWALK_LOCK = '13f:cusip_crosswalk';

/** Takes CROSSWALK_LOCK shared until the transaction ends: the crosswalk stands still while positions are written. */
export async function lockCrosswalkShared(m: EntityManager): Promise<void> {
  await m.query('SELECT pg_advisory_xact_lock_shared(hashtext($1))', [CROSSWALK_LOCK]);
}

/** The methods whose match is evidence (a name match is a guess). */
const IDENTIFIER_METHODS = new Set(['isin', 'cusip', 'lei', 'ticker']);

export type CrosswalkRow = { cusip: string; cik: string; symbol: string | null; method: string; accession: string; holding_index: number };

/**
 * The crosswalk rows of a batch's (accepted) N-PORT holdings: one per valid CUSIP of a holding
 * matched by an identifier, the last holding of the batch standing for it. Sorted by CUSIP (the
 * upsert's lock order). Pure.
 */
export function crosswalkRows(envelopes: ReadonlyArray<RecordEnvelope<FundHoldingsData>>): CrosswalkRow[] {
  const rows = new Map<string, CrosswalkRow>();
  for (const e of envelopes) {
    for (const h of e.data.holdings) {
      const cusip = h.cusip?.toUpperCase() ?? null;
      if (!cusip || h.match.cik === null || h.match.method === null || !IDENTIFIER_METHODS.has(h.match.method) || !isValidCusip(cusip)) continue;
      rows.set(cusip, { cusip, cik: h.match.cik, symbol: h.match.symbol, method: h.match.method, accession: e.data.accession, holding_index: h.index });
    }
  }
  return [...rows.values()].sort((a, b) => (a.cusip < b.cusip ? -1 : a.cusip > b.cusip ? 1 : 0));
}

const COLUMNS = upsertColumns(CUSIP_CROSSWALK_TABLE);

/* The evidence moves on only when what it says changes (the company, listing or method): re-reading a fund writes nothing. */
const UPSERT_SQL = unnestUpsertSql(
  'cusip_crosswalk',
  COLUMNS,
  'cusip',
  '(cusip_crosswalk.cik, cusip_crosswalk.symbol, cusip_crosswalk.method) IS DISTINCT FROM (EXCLUDED.cik, EXCLUDED.symbol, EXCLUDED.method)',
  'cusip',
);

/*
 * Every position under the issuers ($1: CUSIP prefixes) the batch wrote, matched again as
 * CUSIP_MATCH_JOIN would match it now: the exact CUSIP first, else the issuer when its crosswalk
 * CUSIPs name one company, else none (an issuer that became ambiguous unmatches). The issuer
 * match is computed once per prefix; the positions come through institutional_positions_issuer_idx
 * and the exact CUSIP through the crosswalk's primary key; only rows whose match changes are written.
 */
const REMATCH_SQL = `
  WITH issuers AS (
    SELECT a.prefix, CASE WHEN count(DISTINCT w.cik) = 1 THEN min(w.cik) END AS cik
    FROM unnest($1::text[]) AS a(prefix)
    LEFT JOIN cusip_crosswalk w ON left(w.cusip, 6) = a.prefix
    GROUP BY a.prefix
  ), matched AS (
    SELECT p.manager_cik, p.period, p.cusip, coalesce(x.cik, i.cik) AS cik,
      CASE WHEN x.cik IS NOT NULL THEN 'cusip' WHEN i.cik IS NOT NULL THEN 'cusip_issuer' END AS method
    FROM issuers i
    JOIN institutional_positions p ON left(p.cusip, 6) = i.prefix
    LEFT JOIN cusip_crosswalk x ON x.cusip = p.cusip
  )
  UPDATE institutional_positions t SET cik = m.cik, match_method = m.method
  FROM matched m
  WHERE t.manager_cik = m.manager_cik AND t.period = m.period AND t.cusip = m.cusip
    AND (t.cik, t.match_method) IS DISTINCT FROM (m.cik, m.method)`;

/**
 * Writes the crosswalk rows of a batch's N-PORT holdings and, in the same transaction under
 * CROSSWALK_LOCK (exclusive), matches again every institutional position under the issuers of
 * the CUSIPs written: a position's match is then what the crosswalk says now, whatever order the
 * N-PORT and 13F filings arrived in.
 */
export async function upsertCusipCrosswalk(m: EntityManager, envelopes: ReadonlyArray<RecordEnvelope<FundHoldingsData>>): Promise<void> {
  const rows = crosswalkRows(envelopes);
  if (rows.length === 0) return;
  await m.query('SELECT pg_advisory_xact_lock(hashtext($1))', [CROSSWALK_LOCK]);
  const written = await m.query<Array<{ cusip: string }>>(UPSERT_SQL, columnArrays(rows, COLUMNS));
  if (written.length === 0) return;
  const issuers = [...new Set(written.map((w) => w.cusip.slice(0, 6)))].sort();
  await m.query(REMATCH_SQL, [issuers]);
}
