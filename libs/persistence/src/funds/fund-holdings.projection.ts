import type { EntityManager } from 'typeorm';
import { contentHash, stableStringify, type FundHoldingsData, type RecordEnvelope } from '@app/contracts';
import type { BatchOutcome } from '../projections/batch-outcome';
import { columnArrays, unnestUpsertSql } from '../projections/batch-upsert';
import { upsertColumns } from '../table';
import { COMPANY_IDENTIFIERS_TABLE } from '../companies/companies.table';
import { FUND_HOLDINGS_TABLE } from './funds.table';
import { upsertCusipCrosswalk } from '../institutional/cusip-crosswalk.projection';
import { applyFundCountDeltas, fundCountDeltas, fundExposureOf, mergeFundCountDeltas, type FundCountDelta } from './company-fund-counts';

/** One fund_holdings row of a fund-holdings@1 record's holding; pure, so it is tested without a database. */
export function fundHoldingRows(envelope: RecordEnvelope<FundHoldingsData>) {
  const d = envelope.data;
  return d.holdings.map((h) => ({
    accession: d.accession,
    holding_index: h.index,
    fund_key: d.fund.key,
    report_date: d.fund.report_date,
    name: h.name,
    title: h.title,
    lei: h.lei,
    cusip: h.cusip,
    isin: h.isin,
    ticker: h.ticker,
    other_ids: h.other_ids,
    balance: h.balance,
    units: h.units,
    cur_cd: h.cur_cd,
    val_usd: h.val_usd,
    pct_val: h.pct_val,
    payoff_profile: h.payoff_profile,
    asset_cat: h.asset_cat,
    asset_conditional: h.asset_conditional,
    issuer_cat: h.issuer_cat,
    issuer_conditional: h.issuer_conditional,
    inv_country: h.inv_country,
    fair_val_level: h.fair_val_level,
    is_restricted: h.is_restricted,
    match_cik: h.match.cik,
    match_symbol: h.match.symbol,
    match_method: h.match.method,
    match_confidence: h.match.confidence,
    // Each row cites its own holding: the record's provenance with the holding's verbatim quote.
    provenance: { ...envelope.provenance, quote: h.quote },
    record_id: envelope.id,
    data_hash: contentHash(stableStringify(h)),
  }));
}

/** One company_identifiers row: an ISIN of a listing or an LEI of an issuer, as one holding gives it. */
export type IdentifierRow = {
  scheme: 'isin' | 'lei';
  subject: string;
  value: string;
  cik: string;
  derivation: 'filed' | 'cusip';
  fund_key: string;
  fund_name: string | null;
  accession: string;
  holding_index: number;
  report_date: string;
  cusip: string | null;
  provenance: RecordEnvelope['provenance'];
};

/**
 * The identifier candidates of a batch's holdings, one per (scheme, subject, value), each citing
 * the newest holding that gave it (later report date, then later accession, then the first
 * holding). Only holdings matched by an identifier or a ticker count (a name match is a guess);
 * an ISIN only from common equity (EC: the listing's share, not a bond or a preferred) on a known
 * listing; an LEI (the issuer's) from any such holding that files one. Pure.
 */
export function identifierRows(envelopes: ReadonlyArray<RecordEnvelope<FundHoldingsData>>): IdentifierRow[] {
  const rows = new Map<string, IdentifierRow>();
  const offer = (row: IdentifierRow) => {
    const key = `${row.scheme}\u0000${row.subject}\u0000${row.value}`;
    const seen = rows.get(key);
    if (!seen || row.report_date > seen.report_date || (row.report_date === seen.report_date && (row.accession > seen.accession || (row.accession === seen.accession && row.holding_index < seen.holding_index)))) {
      rows.set(key, row);
    }
  };
  for (const e of envelopes) {
    const d = e.data;
    const fund = { fund_key: d.fund.key, fund_name: d.fund.series_name ?? d.fund.registrant_name, accession: d.accession, report_date: d.fund.report_date };
    for (const h of d.holdings) {
      const sec = h.security;
      if (!sec || h.match.cik === null || h.match.method === null || h.match.method === 'name') continue;
      const base = { ...fund, cik: h.match.cik, holding_index: h.index, cusip: h.cusip };
      if (sec.isin && sec.isin_from && sec.isin_quote && sec.listing_symbol && h.asset_cat === 'EC') {
        offer({ ...base, scheme: 'isin', subject: sec.listing_symbol, value: sec.isin, derivation: sec.isin_from, provenance: { ...e.provenance, quote: sec.isin_quote } });
      }
      if (h.lei && sec.lei_quote) {
        offer({ ...base, scheme: 'lei', subject: h.match.cik, value: h.lei.toUpperCase(), derivation: 'filed', provenance: { ...e.provenance, quote: sec.lei_quote } });
      }
    }
  }
  return [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r);
}

const IDENTIFIER_COLUMNS = upsertColumns(COMPANY_IDENTIFIERS_TABLE);

/* A stored candidate moves to a newer source only (a replay of an older filing never regresses it). */
const UPSERT_IDENTIFIERS_SQL = unnestUpsertSql(
  'company_identifiers',
  IDENTIFIER_COLUMNS,
  'scheme, subject, value',
  `(EXCLUDED.report_date, EXCLUDED.accession, -EXCLUDED.holding_index) > (company_identifiers.report_date, company_identifiers.accession, -company_identifiers.holding_index)`,
  '1',
);

const COLUMNS = upsertColumns(FUND_HOLDINGS_TABLE);

/* A fund's chunk rows of the batch in one statement; is_current is set on insert only (the switch sets it). */
const UPSERT_HOLDINGS_SQL = unnestUpsertSql(
  'fund_holdings',
  COLUMNS,
  'accession, holding_index',
  'fund_holdings.data_hash IS DISTINCT FROM EXCLUDED.data_hash',
  '1',
  { keep: ['is_current'], updatedAt: false },
);

const UPSERT_FUND_SQL = `
  INSERT INTO funds (fund_key, registrant_cik, registrant_name, series_id, series_name, fund_ticker, is_etf, header,
    accession, report_date, net_assets, provenance, data_hash, updated_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11, $12::jsonb, $13, now())
  ON CONFLICT (fund_key) DO UPDATE SET
    registrant_cik = EXCLUDED.registrant_cik, registrant_name = EXCLUDED.registrant_name, series_id = EXCLUDED.series_id,
    series_name = EXCLUDED.series_name, fund_ticker = EXCLUDED.fund_ticker, is_etf = EXCLUDED.is_etf, header = EXCLUDED.header,
    accession = EXCLUDED.accession, report_date = EXCLUDED.report_date, net_assets = EXCLUDED.net_assets,
    provenance = EXCLUDED.provenance, data_hash = EXCLUDED.data_hash, updated_at = now()
  WHERE funds.data_hash IS DISTINCT FROM EXCLUDED.data_hash
  RETURNING 1`;

/** A filing of a fund: the funds row points at its current one. */
export interface FundFiling {
  accession: string;
  report_date: string;
}

/** Whether filing a is newer than b: later report date, then (an amendment's) later accession. */
export function isNewerFiling(a: FundFiling, b: FundFiling): boolean {
  return a.report_date > b.report_date || (a.report_date === b.report_date && a.accession > b.accession);
}

/** One chunk of a fund's batch, reduced to what the current-filing rules look at. */
export interface FundChunk extends FundFiling {
  holdings_total: number;
  indexes: ReadonlyArray<number>;
  /** the hash of the funds row this chunk would write (fund header and accession) */
  fund_hash: string;
}

/** What applying a fund's chunks one at a time leaves; see planFund. */
export interface FundPlan {
  /** per chunk: false when it is dropped (its filing is older than the fund's current one then) */
  accepted: boolean[];
  /** the fund's current filing at the end */
  current: FundFiling | undefined;
  /** whether a filing completed in the batch and became current */
  switched: boolean;
  /** the chunk whose header the funds row ends with, when the funds row is written */
  fundSource: number | undefined;
}

/**
 * Applies a fund's chunks (offset order) one at a time, in memory, by the rules of the per-chunk
 * projection: a chunk of a filing older than the current one is dropped; a chunk of the current
 * filing rewrites the funds row (when its hash differs); a newer filing whose stored plus received
 * rows reach holdings_total becomes current. `stored` holds the stored holding indexes of the
 * batch's filings other than the current one; `storedFundHash` the funds row's hash. Pure.
 */
export function planFund(
  chunks: ReadonlyArray<FundChunk>,
  current0: FundFiling | undefined,
  storedFundHash: string | undefined,
  stored: ReadonlyMap<string, ReadonlySet<number>>,
): FundPlan {
  let current = current0;
  let switched = false;
  let fundHash = storedFundHash;
  let fundSource: number | undefined;
  const received = new Map<string, Set<number>>();
  const accepted = chunks.map((c, i) => {
    if (current && current.accession !== c.accession && !isNewerFiling(c, current)) return false;
    let rows = received.get(c.accession);
    if (!rows) received.set(c.accession, (rows = new Set(stored.get(c.accession))));
    for (const index of c.indexes) rows.add(index);
    const isCurrent = current?.accession === c.accession;
    if (!isCurrent && rows.size === c.holdings_total) {
      current = { accession: c.accession, report_date: c.report_date };
      switched = true;
    }
    if ((isCurrent || current?.accession === c.accession) && c.fund_hash !== fundHash) {
      fundHash = c.fund_hash;
      fundSource = i;
    }
    return true;
  });
  return { accepted, current, switched, fundSource };
}

type HoldingRow = ReturnType<typeof fundHoldingRows>[number];

/**
 * The holding rows the plan leaves, sorted by (accession, holding_index): per row the last accepted
 * chunk's, none of a filing older than the final current one (the switch deletes those), each
 * current when its filing is. Pure.
 */
export function plannedRows(
  envelopes: ReadonlyArray<RecordEnvelope<FundHoldingsData>>,
  plan: FundPlan,
): Array<HoldingRow & { is_current: boolean; chunk: number }> {
  const rows = new Map<string, HoldingRow & { is_current: boolean; chunk: number }>();
  const current = plan.current;
  envelopes.forEach((e, i) => {
    if (!plan.accepted[i]) return;
    const filing = { accession: e.data.accession, report_date: e.data.fund.report_date };
    if (current && current.accession !== filing.accession && !isNewerFiling(filing, current)) return;
    for (const row of fundHoldingRows(e)) {
      rows.set(`${row.accession}\u0000${String(row.holding_index).padStart(10, '0')}`, { ...row, is_current: current?.accession === row.accession, chunk: i });
    }
  });
  return [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r);
}

function fundHash(d: FundHoldingsData): string {
  return contentHash(stableStringify({ fund: d.fund, accession: d.accession }));
}

/**
 * Projects a batch of fund-holdings@1 records (each one chunk of an N-PORT filing; one
 * topic-partition, offset order) in the caller's transaction. Per fund, under its advisory lock
 * (taken in fund-key order, so concurrent batches cannot deadlock), the result equals projecting
 * the fund's chunks one at a time:
 * - a chunk of a filing older than the fund's current one is dropped (a replay never regresses);
 * - otherwise its rows are upserted (hash-guarded); they are current at once when the filing is;
 * - when a newer filing has all its holdings (rows = holdings_total), it becomes the fund's current
 *   filing: its rows turn current, the previous filing's rows are deleted, the funds row moves on.
 * So exposure always shows each fund's latest complete report, whatever order chunks arrive in.
 * The accepted chunks' holdings give the identifier candidates (company_identifiers); a dropped one gives none.
 * A fund's key is inserted when the fund had no funds row before the batch, else updated.
 */
export async function projectFundHoldings(m: EntityManager, envelopes: ReadonlyArray<RecordEnvelope<FundHoldingsData>>): Promise<BatchOutcome> {
  const byFund = new Map<string, number[]>();
  envelopes.forEach((e, i) => {
    const list = byFund.get(e.data.fund.key);
    if (list) list.push(i);
    else byFund.set(e.data.fund.key, [i]);
  });
  // The last record of a fund in the batch stands for the fund's outcome.
  const written = new Map<number, boolean>();
  const countDeltas: FundCountDelta[] = [];
  const kept: Array<RecordEnvelope<FundHoldingsData>> = [];
  for (const fundKey of [...byFund.keys()].sort()) {
    const indexes = byFund.get(fundKey)!;
    const { outcome, deltas, accepted } = await projectFund(m, fundKey, indexes.map((i) => envelopes[i]!));
    if (outcome !== 'unchanged') written.set(indexes[indexes.length - 1]!, outcome === 'inserted');
    countDeltas.push(...deltas);
    kept.push(...accepted);
  }
  // Once per batch, merged and in CIK order: concurrent batches lock the companies' count rows in
  // one order (per fund, two batches would take MSFT and AAPL in opposite orders and deadlock).
  await applyFundCountDeltas(m, mergeFundCountDeltas(countDeltas));
  // Identifier candidates come from accepted chunks only (a superseded filing's old CUSIP is no
  // candidate), written last in one sorted statement, so batches lock them in one order too.
  const identifiers = identifierRows(kept);
  if (identifiers.length > 0) await m.query(UPSERT_IDENTIFIERS_SQL, columnArrays(identifiers, IDENTIFIER_COLUMNS));
  // The same accepted holdings are the CUSIP evidence 13F positions are matched by.
  await upsertCusipCrosswalk(m, kept);
  const inserted: string[] = [];
  const updated: string[] = [];
  envelopes.forEach((e, i) => {
    const w = written.get(i);
    if (w === true) inserted.push(e.key);
    else if (w === false) updated.push(e.key);
  });
  return { inserted, updated, unchanged: envelopes.length - inserted.length - updated.length };
}

async function projectFund(
  m: EntityManager,
  fundKey: string,
  envelopes: ReadonlyArray<RecordEnvelope<FundHoldingsData>>,
): Promise<{ outcome: 'inserted' | 'updated' | 'unchanged'; deltas: FundCountDelta[]; accepted: Array<RecordEnvelope<FundHoldingsData>> }> {
  await m.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`funds:${fundKey}`]);
  const fund = (
    await m.query<Array<FundFiling & { data_hash: string }>>(
      `SELECT accession, to_char(report_date, 'YYYY-MM-DD') AS report_date, data_hash FROM funds WHERE fund_key = $1`,
      [fundKey],
    )
  )[0];
  const current0 = fund ? { accession: fund.accession, report_date: fund.report_date } : undefined;
  const chunks: FundChunk[] = envelopes.map((e) => ({
    accession: e.data.accession,
    report_date: e.data.fund.report_date,
    holdings_total: e.data.chunk.holdings_total,
    indexes: e.data.holdings.map((h) => h.index),
    fund_hash: fundHash(e.data),
  }));
  // Only the stored rows of filings that could complete in this batch are counted.
  const candidates = [...new Set(chunks.filter((c) => !current0 || isNewerFiling(c, current0)).map((c) => c.accession))].sort();
  const stored = new Map<string, Set<number>>();
  if (candidates.length > 0) {
    const found = await m.query<Array<{ accession: string; holding_index: number }>>(
      'SELECT accession, holding_index FROM fund_holdings WHERE accession = ANY($1::text[])',
      [candidates],
    );
    for (const r of found) {
      const set = stored.get(r.accession);
      if (set) set.add(r.holding_index);
      else stored.set(r.accession, new Set([r.holding_index]));
    }
  }
  const plan = planFund(chunks, current0, fund?.data_hash, stored);
  if (!plan.accepted.some(Boolean)) return { outcome: 'unchanged', deltas: [], accepted: [] };
  // The chunks projecting one at a time would accept (of the filing current then, or a newer one).
  const accepted = envelopes.filter((_, i) => plan.accepted[i]);
  const exposureBefore = await fundExposureOf(m, fundKey);

  let changed = false;
  const current = plan.current;
  if (plan.switched && current) {
    // Older filings of the fund go (current or never completed); a newer incomplete one stays.
    await m.query('DELETE FROM fund_holdings WHERE fund_key = $1 AND (report_date, accession) < ($3::date, $2)', [fundKey, current.accession, current.report_date]);
    changed = true;
  }
  const rows = plannedRows(envelopes, plan);
  if (rows.length > 0) {
    const result = await m.query<unknown[]>(UPSERT_HOLDINGS_SQL, columnArrays(rows, COLUMNS));
    changed ||= result.length > 0;
  }
  if (plan.switched && current) {
    await m.query('UPDATE fund_holdings SET is_current = true WHERE accession = $1 AND NOT is_current', [current.accession]);
  }
  if (plan.fundSource !== undefined) {
    changed = (await upsertFund(m, envelopes[plan.fundSource]!)) > 0 || changed;
  }
  if (!changed) return { outcome: 'unchanged', deltas: [], accepted };
  return { outcome: fund ? 'updated' : 'inserted', deltas: fundCountDeltas(exposureBefore, await fundExposureOf(m, fundKey)), accepted };
}

async function upsertFund(m: EntityManager, envelope: RecordEnvelope<FundHoldingsData>): Promise<number> {
  const { fund, accession } = envelope.data;
  const provenance = { ...envelope.provenance, quote: null };
  const result = await m.query<unknown[]>(UPSERT_FUND_SQL, [
    fund.key,
    fund.registrant_cik,
    fund.registrant_name,
    fund.series_id,
    fund.series_name,
    fund.fund_ticker,
    fund.is_etf,
    JSON.stringify(fund),
    accession,
    fund.report_date,
    fund.net_assets,
    JSON.stringify(provenance),
    fundHash(envelope.data),
  ]);
  return result.length;
}
