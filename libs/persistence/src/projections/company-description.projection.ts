import type { DataSource } from 'typeorm';
import type { CompanyDescriptionData, RecordEnvelope } from '@app/contracts';
import type { ProjectionOutcome } from './company.projection';
import { citationSrcId } from './issuer-citation';

/*
 * Insert, or update when the record is another one and not older than the row: the same record
 * twice writes nothing and a replayed old description never replaces a newer one.
 */
const UPSERT_SQL = `
  INSERT INTO company_descriptions (cik, ticker, description, src_id, source_url, quote, content_hash, extracted_at,
    record_id, observed_at, updated_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8::timestamptz, $9, $10::timestamptz, now())
  ON CONFLICT (cik) DO UPDATE SET
    ticker = coalesce(EXCLUDED.ticker, company_descriptions.ticker), description = EXCLUDED.description,
    src_id = EXCLUDED.src_id, source_url = EXCLUDED.source_url, quote = EXCLUDED.quote,
    content_hash = EXCLUDED.content_hash, extracted_at = EXCLUDED.extracted_at, record_id = EXCLUDED.record_id,
    observed_at = EXCLUDED.observed_at, updated_at = now()
  WHERE company_descriptions.record_id IS DISTINCT FROM EXCLUDED.record_id
    AND company_descriptions.observed_at <= EXCLUDED.observed_at
  RETURNING (xmax = 0) AS inserted`;

/** Upserts the issuer's own description of itself (company-description@1), by CIK. */
export async function projectCompanyDescription(ds: DataSource, envelope: RecordEnvelope<CompanyDescriptionData>): Promise<ProjectionOutcome> {
  const d = envelope.data;
  const result = await ds.query<Array<{ inserted: boolean }>>(UPSERT_SQL, [
    d.cik,
    d.ticker,
    d.description,
    citationSrcId(envelope, d.citation),
    d.citation.source_url,
    d.citation.quote,
    d.citation.content_hash,
    envelope.provenance.extracted_at,
    envelope.id,
    envelope.observed_at,
  ]);
  const first = result[0];
  if (!first) return 'unchanged';
  return first.inserted ? 'inserted' : 'updated';
}
