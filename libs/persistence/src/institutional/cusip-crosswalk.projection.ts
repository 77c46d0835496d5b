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
 */

/** The match of the positions row `p` (a lateral join yielding `matched.cik, matched.method`): exact CUSIP, else an unambiguous issuer. */
export const CUSIP_MATCH_JOIN = `
  LEFT JOIN LATERAL (
    SELECT cik, method FROM (
      SELECT x.cik, 'cusip' AS method, 1 AS rank FROM cusip_crosswalk x WHERE x.cusip = p.cusip
      UNION ALL
      SELECT min(w.cik), 'cusip_issuer', 2 FROM cusip_crosswalk w WHERE left(w.cusip, 6) = left(p.cusip, 6) HAVING count(DISTINCT w.cik) = 1
    ) candidates ORDER BY rank LIMIT 1
  ) matched ON true`;

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

/* Unmatched positions of the issuers the batch brought: matched now (through the partial index on the issuer prefix). */
const REMATCH_SQL = `
  UPDATE institutional_positions t SET cik = m.cik, match_method = m.method
  FROM (
    SELECT p.manager_cik, p.period, p.cusip, matched.cik, matched.method
    FROM institutional_positions p ${CUSIP_MATCH_JOIN}
    WHERE p.cik IS NULL AND left(p.cusip, 6) = ANY($1::text[])
  ) m
  WHERE m.cik IS NOT NULL AND t.manager_cik = m.manager_cik AND t.period = m.period AND t.cusip = m.cusip`;

/**
 * Writes the crosswalk rows of a batch's N-PORT holdings and, in the same transaction, matches
 * the institutional positions that were unmatched for those CUSIPs and their issuers. Positions
 * matched before keep their company (a later crosswalk row does not re-point them).
 */
export async function upsertCusipCrosswalk(m: EntityManager, envelopes: ReadonlyArray<RecordEnvelope<FundHoldingsData>>): Promise<void> {
  const rows = crosswalkRows(envelopes);
  if (rows.length === 0) return;
  const written = await m.query<Array<{ cusip: string }>>(UPSERT_SQL, columnArrays(rows, COLUMNS));
  if (written.length === 0) return;
  const issuers = [...new Set(written.map((w) => w.cusip.slice(0, 6)))].sort();
  await m.query(REMATCH_SQL, [issuers]);
}
