import type { DataSource, EntityManager } from 'typeorm';
import { contentHash, stableStringify, type FundHoldingsData, type RecordEnvelope } from '@app/contracts';
import type { ProjectionOutcome } from './company.projection';

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

const RECORDSET = `
  accession text, holding_index integer, fund_key text, report_date date, name text, title text, lei text,
  cusip text, isin text, ticker text, other_ids jsonb, balance numeric, units text, cur_cd text, val_usd numeric,
  pct_val numeric, payoff_profile text, asset_cat text, asset_conditional jsonb, issuer_cat text,
  issuer_conditional jsonb, inv_country text, fair_val_level text, is_restricted boolean, match_cik char(10),
  match_symbol text, match_method text, match_confidence double precision, provenance jsonb, record_id text, data_hash text`;
const COLUMNS = RECORDSET.split(',').map((c) => c.trim().split(' ')[0]!);

/* A whole chunk (up to 250 rows) in one statement: the rows travel as one JSON parameter. */
const UPSERT_HOLDINGS_SQL = `
  INSERT INTO fund_holdings (${COLUMNS.join(', ')}, is_current)
  SELECT ${COLUMNS.map((c) => `x.${c}`).join(', ')}, $2::boolean
  FROM jsonb_to_recordset($1::jsonb) AS x(${RECORDSET})
  ON CONFLICT (accession, holding_index) DO UPDATE SET
    ${COLUMNS.filter((c) => c !== 'accession' && c !== 'holding_index').map((c) => `${c} = EXCLUDED.${c}`).join(',\n    ')}
  WHERE fund_holdings.data_hash IS DISTINCT FROM EXCLUDED.data_hash
  RETURNING 1`;

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

interface CurrentFiling {
  accession: string;
  report_date: string;
}

/** Whether filing a is newer than b: later report date, then (an amendment's) later accession. */
function newer(a: CurrentFiling, b: CurrentFiling): boolean {
  return a.report_date > b.report_date || (a.report_date === b.report_date && a.accession > b.accession);
}

/**
 * Projects one chunk of an N-PORT filing, in one transaction under a per-fund advisory lock:
 * - a chunk of a filing older than the fund's current one is dropped (a replay never regresses);
 * - otherwise its rows are upserted (hash-guarded); they are current at once when the filing is;
 * - when a newer filing has all its holdings (rows = holdings_total), it becomes the fund's current
 *   filing: its rows turn current, the previous filing's rows are deleted, the funds row moves on.
 * So exposure always shows each fund's latest complete report, whatever order chunks arrive in.
 */
export async function projectFundHoldings(ds: DataSource, envelope: RecordEnvelope<FundHoldingsData>): Promise<ProjectionOutcome> {
  const d = envelope.data;
  const incoming: CurrentFiling = { accession: d.accession, report_date: d.fund.report_date };
  return ds.transaction(async (m: EntityManager) => {
    await m.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`funds:${d.fund.key}`]);
    const current = (await m.query<CurrentFiling[]>(`SELECT accession, to_char(report_date, 'YYYY-MM-DD') AS report_date FROM funds WHERE fund_key = $1`, [d.fund.key]))[0];
    if (current && current.accession !== incoming.accession && !newer(incoming, current)) return 'unchanged';
    const isCurrent = current?.accession === incoming.accession;
    const rows = fundHoldingRows(envelope);
    const written = rows.length ? (await m.query<unknown[]>(UPSERT_HOLDINGS_SQL, [JSON.stringify(rows), isCurrent])).length : 0;

    let fundWritten = 0;
    if (isCurrent) {
      fundWritten = await upsertFund(m, envelope);
    } else {
      const [{ n }] = await m.query<[{ n: number }]>('SELECT count(*)::int AS n FROM fund_holdings WHERE accession = $1', [d.accession]);
      if (n === d.chunk.holdings_total) {
        // Older filings of the fund go (current or never completed); a newer incomplete one stays.
        await m.query('DELETE FROM fund_holdings WHERE fund_key = $1 AND (report_date, accession) < ($3::date, $2)', [d.fund.key, d.accession, d.fund.report_date]);
        await m.query('UPDATE fund_holdings SET is_current = true WHERE accession = $1', [d.accession]);
        fundWritten = await upsertFund(m, envelope);
      }
    }
    if (written === 0 && fundWritten === 0) return 'unchanged';
    return current ? 'updated' : 'inserted';
  });
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
    contentHash(stableStringify({ fund, accession })),
  ]);
  return result.length;
}
