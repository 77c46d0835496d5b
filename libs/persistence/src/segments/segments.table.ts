import type { Provenance } from '@app/contracts';
import { char, date, integer, jsonb, numeric, text, timestamptz, table } from '../table';

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
  value: numeric(),
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
});
