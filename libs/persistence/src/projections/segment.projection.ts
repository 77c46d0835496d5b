import type { DataSource } from 'typeorm';
import { contentHash, stableStringify, type RecordEnvelope, type SegmentData } from '@app/contracts';
import type { ProjectionOutcome } from './company.projection';

/** The row a segment@1 record projects to; pure, so it is tested without a database. */
export function segmentRow(envelope: RecordEnvelope<SegmentData>) {
  const d = envelope.data;
  return {
    record_key: envelope.key,
    cik: d.cik,
    accession: d.accession,
    form: d.form,
    document_url: d.document_url,
    metric_key: d.metric_key,
    metric: d.metric,
    concept: d.concept,
    axis: d.axis,
    dimension: d.dimension,
    member_qname: d.member_qname,
    member: d.member,
    issuer_label: d.issuer_label,
    context_id: d.context_id,
    period_kind: d.period.kind,
    period_start: d.period.start_date,
    period_end: d.period.end_date,
    period_calendar: d.period.calendar,
    period_fiscal: d.period.fiscal,
    // numeric: the JSON number's shortest round-trip text is the exact reported value.
    value: String(d.value),
    unit: d.unit,
    decimals: d.decimals,
    scale: d.scale,
    displayed: d.displayed,
    tier: d.tier,
    provenance: envelope.provenance,
    record_id: envelope.id,
    data_hash: contentHash(stableStringify({ data: d, provenance_quote: envelope.provenance.quote, content_hash: envelope.provenance.content_hash })),
    observed_at: envelope.observed_at,
  };
}

const COLUMNS = [
  'record_key', 'cik', 'accession', 'form', 'document_url', 'metric_key', 'metric', 'concept', 'axis', 'dimension',
  'member_qname', 'member', 'issuer_label', 'context_id', 'period_kind', 'period_start', 'period_end', 'period_calendar',
  'period_fiscal', 'value', 'unit', 'decimals', 'scale', 'displayed', 'tier', 'provenance', 'record_id', 'data_hash', 'observed_at',
] as const;

/* Same guard as companies: write only when the hash changed and the record is not older than the row. */
const UPSERT_SQL = `
  INSERT INTO segment_observations (${COLUMNS.join(', ')}, updated_at)
  VALUES (${COLUMNS.map((c, i) => (c === 'provenance' ? `$${i + 1}::jsonb` : `$${i + 1}`)).join(', ')}, now())
  ON CONFLICT (record_key) DO UPDATE SET
    ${COLUMNS.filter((c) => c !== 'record_key').map((c) => `${c} = EXCLUDED.${c}`).join(',\n    ')},
    updated_at = now()
  WHERE segment_observations.data_hash IS DISTINCT FROM EXCLUDED.data_hash
    AND segment_observations.observed_at <= EXCLUDED.observed_at
  RETURNING (xmax = 0) AS inserted`;

/*
 * Derived fourth quarters: annual (10-K) minus the nine-month year to date (third-quarter 10-Q) of
 * the same concept, axis and member starting the same day. A separate row per annual row, keyed
 * `<annual key>#derived_q4`, tier derived_q4, never verified; its provenance is the annual fact's
 * (the quote is the annual row). Whichever of the two facts lands last derives it; a restated
 * nine-month figure from a later filing (newest observed) wins. Idempotent like every projection.
 */
const DERIVE_Q4_SQL = `
  INSERT INTO segment_observations (${COLUMNS.join(', ')}, updated_at)
  SELECT DISTINCT ON (a.record_key)
         a.record_key || '#derived_q4', a.cik, a.accession, a.form, a.document_url, a.metric_key, a.metric, a.concept,
         a.axis, a.dimension, a.member_qname, a.member, a.issuer_label, a.context_id, 'quarter', y.period_end + 1,
         a.period_end, a.period_calendar, CASE WHEN a.period_fiscal IS NULL THEN NULL ELSE a.period_fiscal || '-Q4' END,
         a.value - y.value, a.unit, a.decimals, a.scale, '', 'derived_q4', a.provenance, a.record_id,
         md5(a.data_hash || '|' || y.data_hash), greatest(a.observed_at, y.observed_at), now()
    FROM segment_observations a
    JOIN segment_observations y
      ON y.cik = a.cik AND y.concept = a.concept AND y.axis = a.axis AND y.member_qname = a.member_qname
     AND y.unit = a.unit AND y.period_start = a.period_start AND y.period_kind = 'ytd' AND y.tier = 'verified'
     AND y.period_end - y.period_start BETWEEN 254 AND 284 AND y.period_end < a.period_end
   WHERE a.cik = $1 AND a.concept = $2 AND a.axis = $3 AND a.member_qname = $4 AND a.period_start = $5
     AND a.period_kind = 'annual' AND a.tier = 'verified'
   ORDER BY a.record_key, y.observed_at DESC, y.record_key DESC
  ON CONFLICT (record_key) DO UPDATE SET
    ${COLUMNS.filter((c) => c !== 'record_key').map((c) => `${c} = EXCLUDED.${c}`).join(',\n    ')},
    updated_at = now()
  WHERE segment_observations.data_hash IS DISTINCT FROM EXCLUDED.data_hash`;

/**
 * Upserts one segment record idempotently: same record twice -> one row, unchanged hash -> no
 * write. An annual or nine-month fact then (re)derives the fourth quarter it completes, if any.
 */
export async function projectSegment(ds: DataSource, envelope: RecordEnvelope<SegmentData>): Promise<ProjectionOutcome> {
  const row = segmentRow(envelope);
  const params = COLUMNS.map((c) => (c === 'provenance' ? JSON.stringify(row[c]) : row[c]));
  const result = await ds.query<Array<{ inserted: boolean }>>(UPSERT_SQL, params);
  const first = result[0];
  const d = envelope.data;
  if (first && d.tier === 'verified' && d.period.start_date && (d.period.kind === 'annual' || d.period.kind === 'ytd')) {
    await ds.query(DERIVE_Q4_SQL, [d.cik, d.concept, d.axis, d.member_qname, d.period.start_date]);
  }
  if (!first) return 'unchanged';
  return first.inserted ? 'inserted' : 'updated';
}
