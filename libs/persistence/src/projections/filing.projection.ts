import type { DataSource } from 'typeorm';
import { contentHash, stableStringify, type FilingData, type RecordEnvelope } from '@app/contracts';
import type { ProjectionOutcome } from './company.projection';

/** The row a filing@1 record projects to; pure, so it is tested without a database. */
export function filingRow(envelope: RecordEnvelope<FilingData>) {
  const d = envelope.data;
  return {
    accession: d.accession,
    cik: d.cik,
    company_name: d.company_name,
    form: d.form,
    filed_date: d.filed_date,
    accepted_at: d.accepted_at,
    report_period: d.report_period,
    primary_document_url: d.primary_document_url,
    primary_doc_description: d.primary_doc_description,
    items: d.items,
    size: d.size === null ? null : String(d.size),
    is_xbrl: d.is_xbrl,
    is_inline_xbrl: d.is_inline_xbrl,
    is_amendment: d.is_amendment,
    amends_accession: d.amends_accession,
    act: d.act,
    file_number: d.file_number,
    film_number: d.film_number,
    source: d.source,
    provenance: envelope.provenance,
    record_id: envelope.id,
    data_hash: contentHash(stableStringify(d)),
    observed_at: envelope.observed_at,
  };
}

const COLUMNS = [
  'accession', 'cik', 'company_name', 'form', 'filed_date', 'accepted_at', 'report_period', 'primary_document_url',
  'primary_doc_description', 'items', 'size', 'is_xbrl', 'is_inline_xbrl', 'is_amendment', 'amends_accession', 'act',
  'file_number', 'film_number', 'source', 'provenance', 'record_id', 'data_hash', 'observed_at',
] as const;

const JSON_COLUMNS = new Set(['items', 'provenance']);

/** Richer sources first: the submissions JSON has every field, the feeds only a few. */
const RANK = (col: string) => `(CASE ${col} WHEN 'submissions' THEN 3 WHEN 'current_events' THEN 2 ELSE 1 END)`;

/*
 * One statement, like the companies projection: insert, or update only when the data hash changed,
 * the record is not older than the row, and its source is not poorer (a daily-index row seen after
 * the submissions JSON never blanks the acceptance time or the primary document).
 */
const UPSERT_SQL = `
  INSERT INTO filings (${COLUMNS.join(', ')}, updated_at)
  VALUES (${COLUMNS.map((c, i) => (JSON_COLUMNS.has(c) ? `$${i + 1}::jsonb` : `$${i + 1}`)).join(', ')}, now())
  ON CONFLICT (accession) DO UPDATE SET
    ${COLUMNS.filter((c) => c !== 'accession').map((c) => `${c} = EXCLUDED.${c}`).join(',\n    ')},
    updated_at = now()
  WHERE filings.data_hash IS DISTINCT FROM EXCLUDED.data_hash
    AND filings.observed_at <= EXCLUDED.observed_at
    AND ${RANK('filings.source')} <= ${RANK('EXCLUDED.source')}
  RETURNING (xmax = 0) AS inserted`;

/** Upserts one filing record idempotently: same record twice → one row, unchanged hash → no write. */
export async function projectFiling(ds: DataSource, envelope: RecordEnvelope<FilingData>): Promise<ProjectionOutcome> {
  const row = filingRow(envelope);
  const params = COLUMNS.map((c) => {
    const v = row[c];
    return JSON_COLUMNS.has(c) && v !== null ? JSON.stringify(v) : v;
  });
  const result = await ds.query<Array<{ inserted: boolean }>>(UPSERT_SQL, params);
  const first = result[0];
  if (!first) return 'unchanged';
  return first.inserted ? 'inserted' : 'updated';
}
