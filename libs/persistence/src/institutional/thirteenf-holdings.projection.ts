import type { EntityManager } from 'typeorm';
import { contentHash, nextQuarterEnd, previousQuarterEnd, stableStringify, type RecordEnvelope, type ThirteenFHoldingsData } from '@app/contracts';
import type { BatchOutcome } from '../projections/batch-outcome';
import { columnArrays, unnestUpsertSql } from '../projections/batch-upsert';
import { lockKeys, OutcomeTally } from '../projections/batch-reduction';
import { upsertColumns } from '../table';
import { lockCrosswalkShared } from './cusip-crosswalk.projection';
import { CUSIP_MATCH_JOIN, THIRTEENF_FILINGS_TABLE, THIRTEENF_HOLDINGS_TABLE } from './institutional.table';
import { planChunks, quarterFilings, type QuarterFiling, type StoredChunks } from './thirteenf-plan';

/*
 * edgar.13f-holdings.v1 -> thirteenf_filings and thirteenf_holdings (every filing as filed), then
 * per manager quarter whose filings changed: institutional_positions (what is served),
 * institutional_manager_quarters and institutional_managers, in the caller's transaction.
 *
 * A quarter is recomputed whole from its complete filings (quarterFilings: the latest original or
 * restatement plus the new-holdings amendments filed after it), so the result does not depend on
 * arrival order nor on how chunks are cut into batches. The change columns compare with the
 * manager's previous calendar quarter and are recomputed for the next quarter too, which may have
 * landed first. change follows the long position (shares + principal, the options apart): a CUSIP
 * held long last quarter and absent now gets a `sold_out` row of zeros citing the previous
 * quarter's holding (its accession and holding_index), so its quote is that holding's infoTable
 * row; one still filed for its options alone is its own `sold_out` row.
 */

/** The unit check flag: the values per share contradict the previous quarter's by a factor near 1000. */
export const UNIT_CONTRADICTS_PREVIOUS_QUARTER = 'contradicts_previous_quarter';
/** The check needs this many positions held both quarters (one stock's split is no evidence). */
const UNIT_CHECK_MIN_POSITIONS = 3;

/** The thirteenf_holdings rows of one record; pure. */
export function thirteenFHoldingRows(envelope: RecordEnvelope<ThirteenFHoldingsData>) {
  const d = envelope.data;
  return d.holdings.map((h) => ({
    accession: d.accession,
    holding_index: h.index,
    cusip: h.cusip,
    issuer: h.issuer,
    class_title: h.class_title,
    figi: h.figi,
    value_filed: h.value_filed,
    // bigint columns: a thousands value with decimals is rounded to the dollar.
    value_usd: Math.round(h.value_usd),
    shares: Math.round(h.shares),
    share_type: h.share_type,
    put_call: h.put_call,
    discretion: h.discretion,
    other_managers: h.other_managers,
    voting_sole: Math.round(h.voting.sole),
    voting_shared: Math.round(h.voting.shared),
    voting_none: Math.round(h.voting.none),
    quote: h.quote,
  }));
}

/** The thirteenf_filings row of one record with the filing's chunk bookkeeping; pure. */
export function thirteenFFilingRow(envelope: RecordEnvelope<ThirteenFHoldingsData>, chunks: Pick<StoredChunks, 'chunk_count' | 'chunk_hashes'>) {
  const d = envelope.data;
  return {
    accession: d.accession,
    manager_cik: d.manager.cik,
    manager_name: d.manager.name,
    form: d.form,
    report_type: d.report_type,
    amendment_number: d.amendment?.number ?? null,
    amendment_type: d.amendment?.type ?? null,
    period: d.period,
    filed_date: d.filed_date,
    accepted_at: d.accepted_at,
    file_number: d.manager.file_number,
    other_managers: d.other_managers,
    included_managers: d.included_managers,
    entry_total: d.summary.entry_total,
    value_total: d.summary.value_total,
    value_unit: d.value_unit.unit,
    unit_basis: d.value_unit.basis,
    unit_flag: d.value_unit.flag,
    holdings_total: d.chunk.holdings_total,
    chunks_seen: chunks.chunk_hashes.filter((h) => h !== null).length,
    chunk_count: chunks.chunk_count,
    chunk_hashes: chunks.chunk_hashes,
    superseded_by: null,
    source_url: d.source_url,
    provenance: envelope.provenance,
    record_id: envelope.id,
  };
}

const HOLDING_COLUMNS = upsertColumns(THIRTEENF_HOLDINGS_TABLE);
const UPSERT_HOLDINGS_SQL = unnestUpsertSql('thirteenf_holdings', HOLDING_COLUMNS, 'accession, holding_index', 'true', '1', { updatedAt: false });

const FILING_COLUMNS = upsertColumns(THIRTEENF_FILINGS_TABLE);
/* superseded_by is the quarter's to set; the unit check's flag survives a redelivered header (the quarter recomputes it). */
const UPSERT_FILINGS_SQL = unnestUpsertSql('thirteenf_filings', FILING_COLUMNS, 'accession', 'true', '1', { keep: ['superseded_by'] });

/** The stored rows a written chunk replaces: its index range [from, to], and every row at or past the filing's holdings_total. */
export interface ChunkTrim {
  accession: string;
  from: number;
  to: number;
  total: number;
}

const LAST_INDEX = 2 ** 31 - 1;

/**
 * What writing one chunk deletes first, so a filing read again with fewer rows (the same chunk
 * count) serves none of the dropped ones: the chunk's index range (the last chunk's runs to the
 * end) and the rows at or past holdings_total, which no chunk of this reading writes. Pure.
 */
export function chunkTrim(d: Pick<ThirteenFHoldingsData, 'accession' | 'chunk' | 'holdings'>): ChunkTrim {
  const indexes = d.holdings.map((h) => h.index);
  const last = d.chunk.index === d.chunk.count - 1;
  return {
    accession: d.accession,
    from: indexes.length > 0 ? Math.min(...indexes) : d.chunk.holdings_total,
    to: last ? LAST_INDEX : indexes.length > 0 ? Math.max(...indexes) : -1,
    total: d.chunk.holdings_total,
  };
}

const TRIM_HOLDINGS_SQL = `
  DELETE FROM thirteenf_holdings h
  USING unnest($1::text[], $2::int[], $3::int[], $4::int[]) AS t(accession, index_from, index_to, total)
  WHERE h.accession = t.accession AND (h.holding_index >= t.total OR h.holding_index BETWEEN t.index_from AND t.index_to)`;

const STORED_FILINGS_SQL = `
  SELECT accession, manager_cik, to_char(period, 'YYYY-MM-DD') AS period, chunk_count, chunk_hashes
  FROM thirteenf_filings WHERE accession = ANY($1::text[])`;

/** A manager's quarter. */
export interface ManagerQuarter {
  manager_cik: string;
  period: string;
}

const quarterId = (q: ManagerQuarter): string => `${q.manager_cik}|${q.period}`;

/**
 * Projects a batch of 13f-holdings@1 records (chunks of 13F filings, offset order) in the caller's
 * transaction. Under the advisory locks of the batch's managers (one ordered statement):
 * 1. per filing, its chunks are folded over the stored bookkeeping (planChunks): a redelivered
 *    chunk (same data hash for its index) writes nothing and counts once;
 * 2. the stored rows the changed chunks replace go (all of a filing cut differently, else each
 *    chunk's index range and the rows past holdings_total: chunkTrim), then one upsert of the
 *    holdings of those chunks, one of their filings;
 * 3. every manager quarter holding a filing that changed and is complete is recomputed
 *    (recomputeQuarters), with the change columns of its next quarter.
 * Keys are accessions: inserted when the filing had no row, updated when a chunk changed it.
 */
export async function projectThirteenFHoldings(m: EntityManager, envelopes: ReadonlyArray<RecordEnvelope<ThirteenFHoldingsData>>): Promise<BatchOutcome> {
  if (envelopes.length === 0) return { inserted: [], updated: [], unchanged: 0 };
  await lockKeys(m, envelopes.map((e) => `13f:${e.data.manager.cik}`));
  const byAccession = new Map<string, number[]>();
  envelopes.forEach((e, i) => {
    const list = byAccession.get(e.data.accession);
    if (list) list.push(i);
    else byAccession.set(e.data.accession, [i]);
  });
  const accessions = [...byAccession.keys()].sort();
  const stored = new Map(
    (await m.query<Array<ManagerQuarter & StoredChunks & { accession: string }>>(STORED_FILINGS_SQL, [accessions])).map((s) => [s.accession, s]),
  );

  const written = new Set<number>();
  const resets: string[] = [];
  const trims: ChunkTrim[] = [];
  const filings: Array<ReturnType<typeof thirteenFFilingRow>> = [];
  const holdings: Array<ReturnType<typeof thirteenFHoldingRows>[number]> = [];
  const quarters = new Map<string, ManagerQuarter>();
  for (const accession of accessions) {
    const indexes = byAccession.get(accession)!;
    const before = stored.get(accession);
    const plan = planChunks(
      before,
      indexes.map((i) => ({ index: envelopes[i]!.data.chunk.index, count: envelopes[i]!.data.chunk.count, hash: contentHash(stableStringify(envelopes[i]!.data)) })),
    );
    if (plan.write.length === 0) continue;
    if (plan.reset) resets.push(accession);
    const writers = plan.write.map((k) => indexes[k]!);
    for (const i of writers) {
      written.add(i);
      holdings.push(...thirteenFHoldingRows(envelopes[i]!));
      trims.push(chunkTrim(envelopes[i]!.data));
    }
    // The header of the last chunk written stands for the filing.
    const last = envelopes[writers[writers.length - 1]!]!;
    filings.push(thirteenFFilingRow(last, plan));
    const quarter = { manager_cik: last.data.manager.cik, period: last.data.period };
    if (plan.completeAfter) quarters.set(quarterId(quarter), quarter);
    // A complete filing read again (under another period, or incomplete again) leaves its former quarter.
    if (before && plan.completeBefore) quarters.set(quarterId(before), { manager_cik: before.manager_cik, period: before.period });
  }
  if (resets.length > 0) await m.query('DELETE FROM thirteenf_holdings WHERE accession = ANY($1::text[])', [resets]);
  if (trims.length > 0) await m.query(TRIM_HOLDINGS_SQL, [trims.map((t) => t.accession), trims.map((t) => t.from), trims.map((t) => t.to), trims.map((t) => t.total)]);
  if (holdings.length > 0) await m.query(UPSERT_HOLDINGS_SQL, columnArrays(holdings, HOLDING_COLUMNS));
  if (filings.length > 0) await m.query(UPSERT_FILINGS_SQL, columnArrays(filings, FILING_COLUMNS));
  await recomputeQuarters(m, [...quarters.values()]);

  const tally = new OutcomeTally();
  const seen = new Set(stored.keys());
  envelopes.forEach((e, i) => {
    if (!written.has(i)) return tally.add(e.key, 'unchanged');
    tally.add(e.key, seen.has(e.data.accession) ? 'updated' : 'inserted');
    seen.add(e.data.accession);
  });
  return tally.result();
}

interface StoredQuarterFiling extends ManagerQuarter, QuarterFiling {
  report_type: string;
  manager_name: string | null;
  other_managers: unknown;
  superseded_by: string | null;
}

/* The complete filings of the quarters, through thirteenf_filings_manager_idx. */
const QUARTER_FILINGS_SQL = `
  SELECT f.manager_cik, to_char(f.period, 'YYYY-MM-DD') AS period, f.accession, to_char(f.filed_date, 'YYYY-MM-DD') AS filed_date,
    to_char(f.accepted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS accepted_at, f.amendment_number,
    f.amendment_type, f.report_type, f.manager_name, f.other_managers, f.superseded_by
  FROM unnest($1::bpchar[], $2::date[]) AS q(manager_cik, period)
  JOIN thirteenf_filings f ON f.manager_cik = q.manager_cik AND f.period = q.period
  WHERE f.chunks_seen = f.chunk_count`;

const SET_SUPERSEDED_SQL = `
  UPDATE thirteenf_filings f SET superseded_by = x.superseded_by, updated_at = now()
  FROM unnest($1::text[], $2::text[]) AS x(accession, superseded_by)
  WHERE f.accession = x.accession`;

const DELETE_POSITIONS_SQL = `
  DELETE FROM institutional_positions p
  USING unnest($1::bpchar[], $2::date[]) AS q(manager_cik, period)
  WHERE p.manager_cik = q.manager_cik AND p.period = q.period`;

/*
 * One row per CUSIP of the quarter's current filings: the security itself (SH shares, PRN
 * principal, value) apart from the puts and calls; issuer, class and provenance of the first row
 * (current filings in order, then holding index).
 */
const INSERT_POSITIONS_SQL = `
  WITH current_filings AS (
    SELECT * FROM unnest($1::bpchar[], $2::date[], $3::text[], $4::int[]) AS c(manager_cik, period, accession, ord)
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
    FROM current_filings c JOIN thirteenf_holdings h ON h.accession = c.accession
    GROUP BY c.manager_cik, c.period, h.cusip
  )
  INSERT INTO institutional_positions (manager_cik, period, cusip, cik, match_method, issuer, class_title, shares, principal, value_usd,
    put_shares, put_value_usd, call_shares, call_value_usd, prev_shares, share_delta, change, accession, holding_index)
  SELECT p.manager_cik, p.period, p.cusip, matched.cik, matched.method, p.issuer, p.class_title, p.shares, p.principal, p.value_usd,
    p.put_shares, p.put_value_usd, p.call_shares, p.call_value_usd, NULL, NULL, NULL, p.accession, p.holding_index
  FROM summed p ${CUSIP_MATCH_JOIN}`;

/* The quarter rows; positions and total from the positions just written. A quarter with no complete filing left goes. */
const UPSERT_QUARTERS_SQL = `
  INSERT INTO institutional_manager_quarters (manager_cik, period, manager_name, report_type, accessions, other_managers, positions, value_usd_total, unit_flag, updated_at)
  SELECT q.manager_cik, q.period, q.manager_name, q.report_type, string_to_array(q.accessions, ' '), q.other_managers::jsonb,
    coalesce(s.positions, 0), coalesce(s.value_usd_total, 0),
    (SELECT min(f.unit_flag) FROM thirteenf_filings f WHERE f.accession = ANY(string_to_array(q.accessions, ' ')) AND f.unit_flag <> '${UNIT_CONTRADICTS_PREVIOUS_QUARTER}'),
    now()
  FROM unnest($1::bpchar[], $2::date[], $3::text[], $4::text[], $5::text[], $6::text[]) AS q(manager_cik, period, manager_name, report_type, accessions, other_managers)
  LEFT JOIN LATERAL (
    SELECT count(*)::int AS positions, sum(p.value_usd) AS value_usd_total FROM institutional_positions p
    WHERE p.manager_cik = q.manager_cik AND p.period = q.period
  ) s ON true
  ON CONFLICT (manager_cik, period) DO UPDATE SET
    manager_name = EXCLUDED.manager_name, report_type = EXCLUDED.report_type, accessions = EXCLUDED.accessions,
    other_managers = EXCLUDED.other_managers, positions = EXCLUDED.positions, value_usd_total = EXCLUDED.value_usd_total,
    unit_flag = EXCLUDED.unit_flag, updated_at = now()`;

const DELETE_QUARTERS_SQL = `
  DELETE FROM institutional_manager_quarters m
  USING unnest($1::bpchar[], $2::date[]) AS q(manager_cik, period)
  WHERE m.manager_cik = q.manager_cik AND m.period = q.period`;

/*
 * The quarters whose change columns are computed ($1..$3: manager, period, previous period), with
 * whether each was filed with holdings (not a notice) and whether its previous quarter was.
 */
const CHANGE_QUARTERS = `
  cq AS (
    SELECT q.manager_cik, q.period, q.prev,
      EXISTS (SELECT 1 FROM institutional_manager_quarters m WHERE m.manager_cik = q.manager_cik AND m.period = q.prev AND m.report_type <> 'notice') AS has_prev
    FROM unnest($1::bpchar[], $2::date[], $3::date[]) AS q(manager_cik, period, prev)
    WHERE EXISTS (SELECT 1 FROM institutional_manager_quarters m WHERE m.manager_cik = q.manager_cik AND m.period = q.period AND m.report_type <> 'notice')
  )`;

/* The rows INSERT_SOLD_OUT_SQL made: sold_out rows citing a holding that is not of the quarter's current filings. */
const DELETE_SOLD_OUT_SQL = `
  DELETE FROM institutional_positions p
  USING unnest($1::bpchar[], $2::date[]) AS q(manager_cik, period), institutional_manager_quarters m
  WHERE p.manager_cik = q.manager_cik AND p.period = q.period AND p.change = 'sold_out'
    AND m.manager_cik = q.manager_cik AND m.period = q.period AND p.accession <> ALL(m.accessions)`;

/*
 * change on the long position (shares + principal; puts and calls apart) against the previous
 * quarter's (0 when it has no row): from 0 to more is new, from more to 0 sold_out (the row stays
 * for its options), 0 both times null (options only: no long position to compare). prev_shares
 * and share_delta are set whenever the previous quarter was filed; all three are null when it was not.
 */
const SET_CHANGES_SQL = `
  WITH ${CHANGE_QUARTERS}, longs AS (
    SELECT p.manager_cik, p.period, p.cusip, cq.has_prev, p.shares + p.principal AS now_long, coalesce(pp.shares + pp.principal, 0) AS prev_long
    FROM cq
    JOIN institutional_positions p ON p.manager_cik = cq.manager_cik AND p.period = cq.period
    LEFT JOIN institutional_positions pp ON cq.has_prev AND pp.manager_cik = cq.manager_cik AND pp.period = cq.prev AND pp.cusip = p.cusip
  ), computed AS (
    SELECT manager_cik, period, cusip,
      CASE WHEN has_prev THEN prev_long END AS prev_shares,
      CASE WHEN has_prev THEN now_long - prev_long END AS share_delta,
      CASE WHEN NOT has_prev OR (now_long = 0 AND prev_long = 0) THEN NULL
           WHEN now_long = 0 THEN 'sold_out'
           WHEN prev_long = 0 THEN 'new'
           WHEN now_long > prev_long THEN 'increased'
           WHEN now_long < prev_long THEN 'decreased'
           ELSE 'unchanged' END AS change
    FROM longs
  )
  UPDATE institutional_positions t SET prev_shares = c.prev_shares, share_delta = c.share_delta, change = c.change
  FROM computed c
  WHERE t.manager_cik = c.manager_cik AND t.period = c.period AND t.cusip = c.cusip
    AND (t.prev_shares, t.share_delta, t.change) IS DISTINCT FROM (c.prev_shares, c.share_delta, c.change)`;

/*
 * Held long last quarter, absent now: a row of zeros citing last quarter's holding (accession,
 * holding_index), whose infoTable row is its quote. A previous row without a long position (options
 * only, or itself such a row of zeros) makes none.
 */
const INSERT_SOLD_OUT_SQL = `
  WITH ${CHANGE_QUARTERS}
  INSERT INTO institutional_positions (manager_cik, period, cusip, cik, match_method, issuer, class_title, shares, principal, value_usd,
    put_shares, put_value_usd, call_shares, call_value_usd, prev_shares, share_delta, change, accession, holding_index)
  SELECT cq.manager_cik, cq.period, pp.cusip, pp.cik, pp.match_method, pp.issuer, pp.class_title, 0, 0, 0, 0, 0, 0, 0,
    pp.shares + pp.principal, -(pp.shares + pp.principal), 'sold_out', pp.accession, pp.holding_index
  FROM cq
  JOIN institutional_positions pp ON cq.has_prev AND pp.manager_cik = cq.manager_cik AND pp.period = cq.prev AND pp.shares + pp.principal > 0
  WHERE NOT EXISTS (SELECT 1 FROM institutional_positions p WHERE p.manager_cik = cq.manager_cik AND p.period = cq.period AND p.cusip = pp.cusip)`;

/*
 * The unit check: the median, over the securities held both quarters (shares, a value), of the
 * value per share now over the value per share then. Near 1000 or 1/1000 the two quarters' units
 * disagree: the quarter and its current filings are flagged (values are never rescaled). A flag
 * the check no longer supports is cleared; the parser's own flags stay.
 */
const UNIT_CHECK_SQL = `
  WITH ${CHANGE_QUARTERS}, ratios AS (
    SELECT cq.manager_cik, cq.period,
      CASE WHEN count(*) >= ${UNIT_CHECK_MIN_POSITIONS} THEN
        percentile_cont(0.5) WITHIN GROUP (ORDER BY (p.value_usd::float8 / p.shares) / (pp.value_usd::float8 / pp.shares)) END AS ratio
    FROM cq
    JOIN institutional_positions p ON p.manager_cik = cq.manager_cik AND p.period = cq.period AND p.shares > 0 AND p.value_usd > 0
    JOIN institutional_positions pp ON cq.has_prev AND pp.manager_cik = cq.manager_cik AND pp.period = cq.prev AND pp.cusip = p.cusip
      AND pp.shares > 0 AND pp.value_usd > 0
    GROUP BY cq.manager_cik, cq.period
  ), checked AS (
    SELECT cq.manager_cik, cq.period, coalesce(r.ratio BETWEEN 500 AND 2000 OR r.ratio BETWEEN 1.0 / 2000 AND 1.0 / 500, false) AS contradicts
    FROM cq LEFT JOIN ratios r ON r.manager_cik = cq.manager_cik AND r.period = cq.period
  ), filings AS (
    UPDATE thirteenf_filings f SET unit_flag = CASE WHEN c.contradicts THEN '${UNIT_CONTRADICTS_PREVIOUS_QUARTER}' END, updated_at = now()
    FROM checked c JOIN institutional_manager_quarters m ON m.manager_cik = c.manager_cik AND m.period = c.period
    WHERE f.accession = ANY(m.accessions)
      AND ((c.contradicts AND f.unit_flag IS NULL) OR (NOT c.contradicts AND f.unit_flag = '${UNIT_CONTRADICTS_PREVIOUS_QUARTER}'))
    RETURNING 1
  )
  UPDATE institutional_manager_quarters m
  SET unit_flag = CASE WHEN c.contradicts THEN '${UNIT_CONTRADICTS_PREVIOUS_QUARTER}'
                       WHEN m.unit_flag = '${UNIT_CONTRADICTS_PREVIOUS_QUARTER}' THEN NULL ELSE m.unit_flag END
  FROM checked c
  WHERE m.manager_cik = c.manager_cik AND m.period = c.period
    AND m.unit_flag IS DISTINCT FROM CASE WHEN c.contradicts THEN '${UNIT_CONTRADICTS_PREVIOUS_QUARTER}'
                                          WHEN m.unit_flag = '${UNIT_CONTRADICTS_PREVIOUS_QUARTER}' THEN NULL ELSE m.unit_flag END`;

/* Name and file number from the manager's latest complete filing (latest period, then filing order as byFiling); latest_period from its quarters. A manager with no quarter left goes. */
const UPSERT_MANAGERS_SQL = `
  WITH latest AS (
    SELECT manager_cik, max(period) AS latest_period FROM institutional_manager_quarters WHERE manager_cik = ANY($1::bpchar[]) GROUP BY manager_cik
  )
  INSERT INTO institutional_managers (cik, name, file_number, latest_period, updated_at)
  SELECT DISTINCT ON (f.manager_cik) f.manager_cik, f.manager_name, f.file_number, l.latest_period, now()
  FROM latest l JOIN thirteenf_filings f ON f.manager_cik = l.manager_cik AND f.chunks_seen = f.chunk_count
  ORDER BY f.manager_cik, f.period DESC, f.filed_date DESC, f.accepted_at DESC NULLS LAST, f.amendment_number DESC NULLS LAST, f.accession DESC
  ON CONFLICT (cik) DO UPDATE SET name = EXCLUDED.name, file_number = EXCLUDED.file_number, latest_period = EXCLUDED.latest_period, updated_at = now()
  WHERE (institutional_managers.name, institutional_managers.file_number, institutional_managers.latest_period)
    IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.file_number, EXCLUDED.latest_period)`;

const DELETE_MANAGERS_SQL = `
  DELETE FROM institutional_managers i WHERE i.cik = ANY($1::bpchar[])
    AND NOT EXISTS (SELECT 1 FROM institutional_manager_quarters m WHERE m.manager_cik = i.cik)`;

/**
 * Recomputes the given manager quarters from their complete filings, set-based (a fixed number of
 * statements however many quarters): supersession, positions (under CROSSWALK_LOCK, shared), the
 * quarter rows, then the change columns and the unit check of these quarters and of their next
 * quarters, then the managers.
 * Sorted, so concurrent batches (other managers) touch rows in one order.
 */
export async function recomputeQuarters(m: EntityManager, quarters: ReadonlyArray<ManagerQuarter>): Promise<void> {
  if (quarters.length === 0) return;
  const sorted = [...new Map(quarters.map((q) => [quarterId(q), q])).values()].sort((a, b) => (quarterId(a) < quarterId(b) ? -1 : 1));
  const ciks = sorted.map((q) => q.manager_cik);
  const periods = sorted.map((q) => q.period);
  const filings = await m.query<StoredQuarterFiling[]>(QUARTER_FILINGS_SQL, [ciks, periods]);
  const byQuarter = new Map<string, StoredQuarterFiling[]>();
  for (const f of filings) {
    const list = byQuarter.get(quarterId(f));
    if (list) list.push(f);
    else byQuarter.set(quarterId(f), [f]);
  }

  const superseded: Array<{ accession: string; superseded_by: string | null }> = [];
  const current: Array<ManagerQuarter & { accession: string; ord: number }> = [];
  const rows: Array<ManagerQuarter & { manager_name: string | null; report_type: string; accessions: string; other_managers: string }> = [];
  const emptied: ManagerQuarter[] = [];
  for (const q of sorted) {
    const list = byQuarter.get(quarterId(q)) ?? [];
    if (list.length === 0) {
      emptied.push(q);
      continue;
    }
    const plan = quarterFilings(list);
    for (const f of list) {
      const by = plan.supersededBy.get(f.accession) ?? null;
      if (by !== f.superseded_by) superseded.push({ accession: f.accession, superseded_by: by });
    }
    plan.current.forEach((accession, ord) => current.push({ ...q, accession, ord }));
    const of = new Map(list.map((f) => [f.accession, f]));
    // The report the quarter rests on names its type and other managers; the latest current filing its manager name.
    const base = of.get(plan.base ?? plan.current[0]!)!;
    const latest = of.get(plan.current[plan.current.length - 1]!)!;
    rows.push({
      ...q,
      manager_name: latest.manager_name ?? base.manager_name,
      report_type: base.report_type,
      accessions: plan.current.join(' '),
      other_managers: JSON.stringify(base.other_managers),
    });
  }

  if (superseded.length > 0) await m.query(SET_SUPERSEDED_SQL, [superseded.map((s) => s.accession), superseded.map((s) => s.superseded_by)]);
  // Before the first write to positions (a crosswalk writer holding the lock may be updating them):
  // positions are matched against a crosswalk no writer is changing, and a writer that comes after sees them.
  await lockCrosswalkShared(m);
  await m.query(DELETE_POSITIONS_SQL, [ciks, periods]);
  if (current.length > 0) {
    await m.query(INSERT_POSITIONS_SQL, [current.map((c) => c.manager_cik), current.map((c) => c.period), current.map((c) => c.accession), current.map((c) => c.ord)]);
  }
  if (rows.length > 0) {
    await m.query(UPSERT_QUARTERS_SQL, [
      rows.map((r) => r.manager_cik),
      rows.map((r) => r.period),
      rows.map((r) => r.manager_name),
      rows.map((r) => r.report_type),
      rows.map((r) => r.accessions),
      rows.map((r) => r.other_managers),
    ]);
  }
  if (emptied.length > 0) await m.query(DELETE_QUARTERS_SQL, [emptied.map((q) => q.manager_cik), emptied.map((q) => q.period)]);

  // These quarters compare with their previous ones; their next quarters (which may have landed first) with them.
  const compared = [...new Map([...sorted, ...sorted.map((q) => ({ ...q, period: nextQuarterEnd(q.period) }))].map((q) => [quarterId(q), q])).values()].sort((a, b) =>
    quarterId(a) < quarterId(b) ? -1 : 1,
  );
  const params = [compared.map((q) => q.manager_cik), compared.map((q) => q.period), compared.map((q) => previousQuarterEnd(q.period))];
  await m.query(DELETE_SOLD_OUT_SQL, params.slice(0, 2));
  await m.query(SET_CHANGES_SQL, params);
  await m.query(INSERT_SOLD_OUT_SQL, params);
  await m.query(UNIT_CHECK_SQL, params);

  const managers = [...new Set(ciks)];
  await m.query(UPSERT_MANAGERS_SQL, [managers]);
  await m.query(DELETE_MANAGERS_SQL, [managers]);
}
