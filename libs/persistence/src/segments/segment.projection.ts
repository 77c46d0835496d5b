import type { EntityManager } from 'typeorm';
import { contentHash, stableStringify, type RecordEnvelope, type SegmentData } from '@app/contracts';
import type { BatchOutcome } from '../projections/batch-outcome';
import { lockKeys } from '../projections/batch-reduction';
import { batchOutcome, columnArrays, survivingRows, unnestUpsertSql } from '../projections/batch-upsert';
import { upsertColumns } from '../table';
import { SEGMENT_OBSERVATIONS_TABLE } from './segments.table';

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
    member_kind: d.member_kind ?? null,
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
    reconciliation: d.reconciliation ?? null,
    provenance: envelope.provenance,
    record_id: envelope.id,
    data_hash: contentHash(stableStringify({ data: d, provenance_quote: envelope.provenance.quote, content_hash: envelope.provenance.content_hash })),
    observed_at: envelope.observed_at,
  };
}

/* In this order: DERIVE_Q4_SQL selects its values by position. */
const COLUMNS = upsertColumns(SEGMENT_OBSERVATIONS_TABLE, [
  'record_key', 'cik', 'accession', 'form', 'document_url', 'metric_key', 'metric', 'concept', 'axis', 'dimension',
  'member_qname', 'member', 'member_kind', 'issuer_label', 'context_id', 'period_kind', 'period_start', 'period_end',
  'period_calendar', 'period_fiscal', 'value', 'unit', 'decimals', 'scale', 'displayed', 'tier', 'provenance', 'record_id',
  'data_hash', 'observed_at', 'reconciliation',
]);
const NAMES = COLUMNS.map(([n]) => n);

/* Same guard as companies: write only when the hash changed and the record is not older than the row. */
const UPSERT_SQL = unnestUpsertSql(
  'segment_observations',
  COLUMNS,
  'record_key',
  `segment_observations.data_hash IS DISTINCT FROM EXCLUDED.data_hash
    AND segment_observations.observed_at <= EXCLUDED.observed_at`,
  'record_key AS key, (xmax = 0) AS inserted',
);

const VERSIONS_SQL = `
  SELECT record_key AS key, data_hash AS hash, observed_at, 1 AS rank
    FROM segment_observations WHERE record_key = ANY($1::text[])`;

/*
 * Derived fourth quarters: annual (10-K) minus the nine-month year to date (third-quarter 10-Q) of
 * the same concept, axis and member starting the same day. A separate row per annual row, keyed
 * `<annual key>#derived_q4`, tier derived_q4, never verified; its provenance is the annual fact's
 * (the quote is the annual row); no filer table prints it, so it has no reconciliation. Whichever of the two facts lands last derives it; a restated
 * nine-month figure from a later filing (newest observed) wins. Idempotent like every projection.
 * Set-based: once per batch, for every (cik, concept, axis, member, start) group in which the batch
 * wrote a verified annual or year-to-date fact. Derived rows depend only on their group's annual
 * and ytd rows, so deriving after the batch's upsert leaves what deriving after each record did.
 */
const DERIVE_Q4_SQL = `
  INSERT INTO segment_observations (${NAMES.join(', ')}, updated_at)
  SELECT DISTINCT ON (a.record_key)
         a.record_key || '#derived_q4', a.cik, a.accession, a.form, a.document_url, a.metric_key, a.metric, a.concept,
         a.axis, a.dimension, a.member_qname, a.member, a.member_kind, a.issuer_label, a.context_id, 'quarter', y.period_end + 1,
         a.period_end, a.period_calendar, CASE WHEN a.period_fiscal IS NULL THEN NULL ELSE a.period_fiscal || '-Q4' END,
         a.value - y.value, a.unit, a.decimals, a.scale, '', 'derived_q4', a.provenance, a.record_id,
         md5(a.data_hash || '|' || y.data_hash), greatest(a.observed_at, y.observed_at), NULL, now()
    FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::date[]) AS g(cik, concept, axis, member_qname, period_start)
    JOIN segment_observations a
      ON a.cik = g.cik::char(10) AND a.concept = g.concept AND a.axis = g.axis AND a.member_qname = g.member_qname
     AND a.period_start = g.period_start AND a.period_kind = 'annual' AND a.tier = 'verified'
    JOIN segment_observations y
      ON y.cik = a.cik AND y.concept = a.concept AND y.axis = a.axis AND y.member_qname = a.member_qname
     AND y.metric = a.metric AND y.unit = a.unit AND y.period_start = a.period_start AND y.period_kind = 'ytd' AND y.tier = 'verified'
     AND y.period_end - y.period_start BETWEEN 254 AND 284 AND y.period_end < a.period_end
   ORDER BY a.record_key, y.observed_at DESC, y.record_key DESC
  ON CONFLICT (record_key) DO UPDATE SET
    ${NAMES.filter((c) => c !== 'record_key').map((c) => `${c} = EXCLUDED.${c}`).join(',\n    ')},
    updated_at = now()
  WHERE segment_observations.data_hash IS DISTINCT FROM EXCLUDED.data_hash`;

type SegmentRow = ReturnType<typeof segmentRow>;

/** The distinct groups whose fourth quarter the written rows may complete, sorted; pure. */
export function q4Groups(written: ReadonlyArray<SegmentRow>): string[][] {
  const groups = new Map<string, string[]>();
  for (const r of written) {
    if (r.tier !== 'verified' || !r.period_start || (r.period_kind !== 'annual' && r.period_kind !== 'ytd')) continue;
    const g = [r.cik, r.concept, r.axis, r.member_qname, r.period_start];
    groups.set(JSON.stringify(g), g);
  }
  return [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, g]) => g);
}

/**
 * Projects a batch of segment@1 records (one topic-partition, offset order) in the caller's
 * transaction: one upsert (same record twice -> one row, unchanged hash -> no write, an older
 * record never overwrites a newer row; per key as applying the batch one record at a time would),
 * then one statement (re)derives the fourth quarters the written annual or nine-month facts complete.
 */
export async function projectSegments(m: EntityManager, envelopes: ReadonlyArray<RecordEnvelope<SegmentData>>): Promise<BatchOutcome> {
  const all = envelopes.map(segmentRow);
  const { survivors, rows } = await survivingRows(
    m,
    all,
    (r) => ({ key: r.record_key, hash: r.data_hash, observedAt: Date.parse(r.observed_at), rank: 1 }),
    VERSIONS_SQL,
  );
  // A fourth quarter is derived from two facts that may sit in different partitions, projected at
  // the same time: whoever writes a fact of a group holds the group until it commits, so the later
  // of the two writers sees the other's fact and derives.
  await lockKeys(m, q4Groups(rows).map((g) => `segments-q4:${JSON.stringify(g)}`));
  const written = rows.length > 0 ? await m.query<Array<{ key: string; inserted: boolean }>>(UPSERT_SQL, columnArrays(rows, COLUMNS)) : [];
  const writtenKeys = new Set(written.map((w) => w.key));
  const groups = q4Groups(rows.filter((r) => writtenKeys.has(r.record_key)));
  if (groups.length > 0) await m.query(DERIVE_Q4_SQL, [0, 1, 2, 3, 4].map((c) => groups.map((g) => g[c])));
  return batchOutcome(envelopes, survivors, rows.map((r) => r.record_key), written);
}
