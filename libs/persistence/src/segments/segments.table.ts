import type { Provenance, SegmentReconciliationData } from '@app/contracts';
import { char, date, integer, jsonb, numeric, selectList, text, timestamptz, table, type RowOf } from '../table';

/**
 * Read model of one segment fact (edgar.segments.v1), keyed by the record key
 * `<accession>|<concept>|<axis>=<member>|<start>..<end>`. Written only by the projector. The keyset
 * index backs the list order of a company's segments: (period end, metric key, member, key), read
 * forwards for asc and backwards for desc.
 */
export const SEGMENT_OBSERVATIONS_TABLE = table('segment_observations', ['record_key'], {
  record_key: text(),
  cik: char(10),
  accession: text(),
  form: text(),
  document_url: text(),
  metric_key: text(),
  metric: text(),
  concept: text(),
  axis: text(),
  dimension: text(),
  member_qname: text(),
  member: text(),
  issuer_label: text(),
  context_id: text(),
  period_kind: text(),
  period_start: date().nullable(),
  period_end: date(),
  period_calendar: text(),
  period_fiscal: text().nullable(),
  /** Exact as reported (numeric, read back as a string). */
  /** Read as its exact decimal text. */
  value: numeric().readAs<string>((c) => `${c}::text`),
  unit: text(),
  decimals: text().nullable(),
  scale: integer(),
  displayed: text(),
  tier: text(),
  provenance: jsonb<Provenance>(),
  record_id: text(),
  data_hash: text(),
  observed_at: timestamptz(),
  updated_at: timestamptz().default('now()'),
  /** segment, corporate, eliminations or other; null for records written before kinds were read. */
  member_kind: text().nullable(),
  /** How the figure's breakdown adds up in the filer's tables (segment@1 reconciliation); null for derived rows and older records. */
  reconciliation: jsonb<SegmentReconciliationData>().nullable(),
});

/** The columns of a SegmentObservation. */
const SEGMENT_OBSERVATION_FIELDS = [
  'record_key', 'cik', 'accession', 'form', 'metric_key', 'concept', 'axis', 'dimension', 'member_qname', 'member', 'member_kind',
  'issuer_label', 'period_kind', 'period_start', 'period_end', 'period_calendar', 'period_fiscal', 'value', 'unit', 'decimals', 'scale',
  'tier', 'provenance', 'reconciliation',
] as const;

/** One segment observation as the API reads it (read model, camelCase; not an API shape). Dates are YYYY-MM-DD. */
export type SegmentObservation = RowOf<typeof SEGMENT_OBSERVATIONS_TABLE.columns, (typeof SEGMENT_OBSERVATION_FIELDS)[number]>;

export const SEGMENT_OBSERVATION_COLUMNS = selectList(SEGMENT_OBSERVATIONS_TABLE, SEGMENT_OBSERVATION_FIELDS);
