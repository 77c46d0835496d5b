import type { EntityManager } from 'typeorm';
import type { CompanyDescriptionData, RecordEnvelope } from '@app/contracts';
import { upsertOutcome, type BatchOutcome } from '../projections/batch-outcome';
import { latestPerKey, type StoredVersion } from '../projections/batch-reduction';
import { citationSrcId } from '../projections/issuer-citation';

const RECORDSET = `cik text, ticker text, description text, src_id text, source_url text, quote text, content_hash text,
  extracted_at timestamptz, record_id text, observed_at timestamptz`;

/*
 * Insert, or update when the record is another one and not older than the row: the same record
 * twice writes nothing and a replayed old description never replaces a newer one. The batch is
 * reduced per CIK beforehand (one row per CIK here); the WHERE still guards the row.
 */
const UPSERT_SQL = `
  INSERT INTO company_descriptions (cik, ticker, description, src_id, source_url, quote, content_hash, extracted_at,
    record_id, observed_at, updated_at)
  SELECT x.cik, x.ticker, x.description, x.src_id, x.source_url, x.quote, x.content_hash, x.extracted_at, x.record_id, x.observed_at, now()
  FROM jsonb_to_recordset($1::jsonb) AS x(${RECORDSET})
  ON CONFLICT (cik) DO UPDATE SET
    ticker = coalesce(EXCLUDED.ticker, company_descriptions.ticker), description = EXCLUDED.description,
    src_id = EXCLUDED.src_id, source_url = EXCLUDED.source_url, quote = EXCLUDED.quote,
    content_hash = EXCLUDED.content_hash, extracted_at = EXCLUDED.extracted_at, record_id = EXCLUDED.record_id,
    observed_at = EXCLUDED.observed_at, updated_at = now()
  WHERE company_descriptions.record_id IS DISTINCT FROM EXCLUDED.record_id
    AND company_descriptions.observed_at <= EXCLUDED.observed_at
  RETURNING cik, (xmax = 0) AS inserted`;

/**
 * Upserts the issuers' own descriptions of themselves (company-description@1), by CIK, for a batch
 * in offset order: one read of the stored versions, the batch reduced per CIK as applying the
 * records one by one would (a ticker a later record lacks is kept from an earlier one), one
 * multi-row upsert.
 */
export async function projectCompanyDescriptions(
  m: EntityManager,
  envelopes: ReadonlyArray<RecordEnvelope<CompanyDescriptionData>>,
): Promise<BatchOutcome> {
  if (envelopes.length === 0) return { inserted: [], updated: [], unchanged: 0 };
  const stored = await m.query<Array<StoredVersion & { cik: string }>>(
    'SELECT cik, record_id, observed_at FROM company_descriptions WHERE cik = ANY($1::text[])',
    [[...new Set(envelopes.map((e) => e.data.cik))]],
  );
  const { winners } = latestPerKey(envelopes, (e) => e.data.cik, new Map(stored.map((s) => [s.cik, s])));
  if (winners.length === 0) return { inserted: [], updated: [], unchanged: envelopes.length };
  const rows = winners.map(({ winner, applied }) => {
    const d = winner.data;
    return {
      cik: d.cik,
      ticker: applied.reduce<string | null>((ticker, e) => e.data.ticker ?? ticker, null),
      description: d.description,
      src_id: citationSrcId(winner, d.citation),
      source_url: d.citation.source_url,
      quote: d.citation.quote,
      content_hash: d.citation.content_hash,
      extracted_at: winner.provenance.extracted_at,
      record_id: winner.id,
      observed_at: winner.observed_at,
    };
  });
  const written = new Map(
    (await m.query<Array<{ cik: string; inserted: boolean }>>(UPSERT_SQL, [JSON.stringify(rows)])).map((r) => [r.cik, r.inserted]),
  );
  return upsertOutcome(winners, written, envelopes.length);
}
