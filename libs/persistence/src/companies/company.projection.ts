import type { EntityManager } from 'typeorm';
import { contentHash, stableStringify, type CompanyData, type RecordEnvelope } from '@app/contracts';
import type { BatchOutcome } from '../projections/batch-outcome';
import { batchOutcome, columnArrays, survivingRows, unnestUpsertSql } from '../projections/batch-upsert';
import { upsertColumns } from '../table';
import { COMPANIES_TABLE } from './companies.table';

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
    // SEC publishes no FIGI; the ISIN is resolved from N-PORT holdings when read (company_identifiers).
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

const COLUMNS = upsertColumns(COMPANIES_TABLE);

/*
 * Insert, or update only when the data hash changed and the record is not older than the row (a
 * replay of an old record never regresses a newer one). `xmax = 0` tells an insert from an update;
 * a key that does not come back wrote nothing.
 */
const UPSERT_SQL = unnestUpsertSql(
  'companies',
  COLUMNS,
  'symbol',
  `companies.data_hash IS DISTINCT FROM EXCLUDED.data_hash AND companies.observed_at <= EXCLUDED.observed_at`,
  'symbol AS key, (xmax = 0) AS inserted',
);

const VERSIONS_SQL = `SELECT symbol AS key, data_hash AS hash, observed_at, 1 AS rank FROM companies WHERE symbol = ANY($1::text[])`;

/**
 * Projects a batch of company@1 records (one topic-partition, offset order) in the caller's
 * transaction with one upsert: same record twice -> one row, unchanged hash -> no write, an older
 * record never overwrites a newer row; per key the batch ends as applying it one record at a time would.
 */
export async function projectCompanies(m: EntityManager, envelopes: ReadonlyArray<RecordEnvelope<CompanyData>>): Promise<BatchOutcome> {
  const all = envelopes.map(companyRow);
  const { survivors, rows } = await survivingRows(
    m,
    all,
    (r) => ({ key: r.symbol, hash: r.data_hash, observedAt: Date.parse(r.observed_at), rank: 1 }),
    VERSIONS_SQL,
  );
  const written = rows.length > 0 ? await m.query<Array<{ key: string; inserted: boolean }>>(UPSERT_SQL, columnArrays(rows, COLUMNS)) : [];
  return batchOutcome(envelopes, survivors, rows.map((r) => r.symbol), written);
}
