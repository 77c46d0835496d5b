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

/** Upserts one segment record idempotently: same record twice -> one row, unchanged hash -> no write. */
export async function projectSegment(ds: DataSource, envelope: RecordEnvelope<SegmentData>): Promise<ProjectionOutcome> {
  const row = segmentRow(envelope);
  const params = COLUMNS.map((c) => (c === 'provenance' ? JSON.stringify(row[c]) : row[c]));
  const result = await ds.query<Array<{ inserted: boolean }>>(UPSERT_SQL, params);
  const first = result[0];
  if (!first) return 'unchanged';
  return first.inserted ? 'inserted' : 'updated';
}
