import type { DataSource } from 'typeorm';
import { contentHash, stableStringify, type CompanyData, type RecordEnvelope } from '@app/contracts';

export type ProjectionOutcome = 'inserted' | 'updated' | 'unchanged';

/** The row a company@1 record projects to; pure, so it is tested without a database. */
export function companyRow(envelope: RecordEnvelope<CompanyData>) {
  const d = envelope.data;
  const detail = d.detail;
  const description = detail?.description ?? null;
  return {
    symbol: `${d.ticker}:${d.market}`.toUpperCase(),
    ticker: d.ticker.toUpperCase(),
    market: d.market.toUpperCase(),
    cik: d.cik,
    name: d.name,
    // SEC publishes neither ISIN nor FIGI; they stay null until a source that has them lands.
    isin: null,
    figi: null,
    issuer_id: String(Number(d.cik)),
    listing_exchange: d.listing_exchange,
    website: detail?.website ?? null,
    country: detail?.country ?? null,
    is_etf: false,
    is_fund: detail?.is_fund ?? false,
    is_adr: false,
    status: 'active',
    description,
    description_provenance: description ? envelope.provenance : null,
    sec_detail: detail,
    provenance: envelope.provenance,
    record_id: envelope.id,
    data_hash: contentHash(stableStringify(d)),
    observed_at: envelope.observed_at,
  };
}

const COLUMNS = [
  'symbol', 'ticker', 'market', 'cik', 'name', 'isin', 'figi', 'issuer_id', 'listing_exchange', 'website',
  'country', 'is_etf', 'is_fund', 'is_adr', 'status', 'description', 'description_provenance', 'sec_detail',
  'provenance', 'record_id', 'data_hash', 'observed_at',
] as const;

const JSON_COLUMNS = new Set(['description_provenance', 'sec_detail', 'provenance']);

/*
 * One statement: insert, or update only when the data hash changed and the record is not older
 * than the row (a replay of an old record never regresses a newer one). `xmax = 0` tells an insert
 * from an update; no row back means nothing was written.
 */
const UPSERT_SQL = `
  INSERT INTO companies (${COLUMNS.join(', ')}, updated_at)
  VALUES (${COLUMNS.map((c, i) => (JSON_COLUMNS.has(c) ? `$${i + 1}::jsonb` : `$${i + 1}`)).join(', ')}, now())
  ON CONFLICT (symbol) DO UPDATE SET
    ${COLUMNS.filter((c) => c !== 'symbol').map((c) => `${c} = EXCLUDED.${c}`).join(',\n    ')},
    updated_at = now()
  WHERE companies.data_hash IS DISTINCT FROM EXCLUDED.data_hash
    AND companies.observed_at <= EXCLUDED.observed_at
  RETURNING (xmax = 0) AS inserted`;

/** Upserts one company record idempotently: same record twice → one row, unchanged hash → no write. */
export async function projectCompany(ds: DataSource, envelope: RecordEnvelope<CompanyData>): Promise<ProjectionOutcome> {
  const row = companyRow(envelope);
  const params = COLUMNS.map((c) => {
    const v = row[c];
    return JSON_COLUMNS.has(c) && v !== null ? JSON.stringify(v) : v;
  });
  const result = await ds.query<Array<{ inserted: boolean }>>(UPSERT_SQL, params);
  const first = result[0];
  if (!first) return 'unchanged';
  return first.inserted ? 'inserted' : 'updated';
}
