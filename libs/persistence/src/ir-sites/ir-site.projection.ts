import type { EntityManager } from 'typeorm';
import type { IrSiteData, RecordEnvelope } from '@app/contracts';
import { upsertOutcome, type BatchOutcome } from '../projections/batch-outcome';
import { latestPerKey, type StoredVersion } from '../projections/batch-reduction';

const RECORDSET = `cik text, ticker text, name text, status text, source text, start_url text, landing_url text, pages jsonb,
  detail text, checked_at timestamptz, provenance jsonb, record_id text, observed_at timestamptz`;

/*
 * Insert, or replace when the record is another one and not older than the row: the same record
 * twice writes nothing, and a replayed old outcome never replaces a newer one.
 */
const UPSERT_SQL = `
  INSERT INTO ir_sites (cik, ticker, name, status, source, start_url, landing_url, pages, detail, checked_at, provenance,
    record_id, observed_at, updated_at)
  SELECT x.cik, x.ticker, x.name, x.status, x.source, x.start_url, x.landing_url, x.pages, x.detail, x.checked_at, x.provenance,
    x.record_id, x.observed_at, now()
  FROM jsonb_to_recordset($1::jsonb) AS x(${RECORDSET})
  ON CONFLICT (cik) DO UPDATE SET
    ticker = EXCLUDED.ticker, name = EXCLUDED.name, status = EXCLUDED.status, source = EXCLUDED.source,
    start_url = EXCLUDED.start_url, landing_url = EXCLUDED.landing_url, pages = EXCLUDED.pages, detail = EXCLUDED.detail,
    checked_at = EXCLUDED.checked_at, provenance = EXCLUDED.provenance, record_id = EXCLUDED.record_id,
    observed_at = EXCLUDED.observed_at, updated_at = now()
  WHERE ir_sites.record_id IS DISTINCT FROM EXCLUDED.record_id
    AND ir_sites.observed_at <= EXCLUDED.observed_at
  RETURNING cik, (xmax = 0) AS inserted`;

/**
 * Upserts ir-site@1 outcomes by CIK for a batch in offset order: one read of the stored versions,
 * the batch reduced per CIK to the record that applying it one by one would leave, one multi-row upsert.
 */
export async function projectIrSites(m: EntityManager, envelopes: ReadonlyArray<RecordEnvelope<IrSiteData>>): Promise<BatchOutcome> {
  if (envelopes.length === 0) return { inserted: [], updated: [], unchanged: 0 };
  const stored = await m.query<Array<StoredVersion & { cik: string }>>('SELECT cik, record_id, observed_at FROM ir_sites WHERE cik = ANY($1::text[])', [
    [...new Set(envelopes.map((e) => e.data.cik))],
  ]);
  const { winners } = latestPerKey(envelopes, (e) => e.data.cik, new Map(stored.map((s) => [s.cik, s])));
  if (winners.length === 0) return { inserted: [], updated: [], unchanged: envelopes.length };
  const rows = winners.map(({ winner }) => {
    const d = winner.data;
    return {
      cik: d.cik,
      ticker: d.ticker,
      name: d.name,
      status: d.status,
      source: d.source,
      start_url: d.start_url,
      landing_url: d.landing_url,
      pages: d.pages,
      detail: d.detail,
      checked_at: d.checked_at,
      provenance: winner.provenance,
      record_id: winner.id,
      observed_at: winner.observed_at,
    };
  });
  const written = new Map(
    (await m.query<Array<{ cik: string; inserted: boolean }>>(UPSERT_SQL, [JSON.stringify(rows)])).map((r) => [r.cik, r.inserted]),
  );
  return upsertOutcome(winners, written, envelopes.length);
}
