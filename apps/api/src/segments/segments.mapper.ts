import type { SegmentCoverage, SegmentObservation } from '@app/persistence';
import type { SegmentObservationBody, SegmentUnit } from './segments.schemas';

/** Divisor of each requested unit: normalized = raw / divisor, so conversion_factor = 1 / divisor. */
export const UNIT_DIVISORS: Record<SegmentUnit, number> = { as_reported: 1, thousand: 1e3, million: 1e6, billion: 1e9 };
const FACTORS: Record<SegmentUnit, number> = { as_reported: 1, thousand: 1e-3, million: 1e-6, billion: 1e-9 };
const SCALE_WORDS: Record<number, string> = { 3: 'thousands', 6: 'millions', 9: 'billions' };

/** "USD millions" for a fact printed at scale 6; the bare unit at scale 0. */
export function originalUnit(unit: string, scale: number): string {
  const word = SCALE_WORDS[scale];
  if (scale === 0) return unit;
  return word ? `${unit} ${word}` : `${unit} x 10^${scale}`;
}

const MEMBER_KINDS = ['segment', 'corporate', 'eliminations', 'other'] as const;
const isMemberKind = (v: string | null): v is (typeof MEMBER_KINDS)[number] => (MEMBER_KINDS as readonly (string | null)[]).includes(v);

/** Read model -> the spec's segment observation. Division by a power of ten is correctly rounded, so 40315000000 / 1e6 is exactly 40315. */
export function toSegmentObservation(o: SegmentObservation, unit: SegmentUnit): SegmentObservationBody {
  const raw = Number(o.value);
  return {
    metric_key: o.metricKey,
    issuer_label: o.issuerLabel,
    dimension: o.dimension,
    member: o.member,
    member_kind: isMemberKind(o.memberKind) ? o.memberKind : null,
    period: { calendar: o.periodCalendar, fiscal: o.periodFiscal, end_date: o.periodEnd, kind: o.periodKind, start_date: o.periodStart },
    value: { raw, normalized: raw / UNIT_DIVISORS[unit], unit: o.unit, original_unit: originalUnit(o.unit, o.scale), conversion_factor: FACTORS[unit] },
    tier: o.tier,
    axis: o.axis,
    member_qname: o.memberQname,
    concept: o.concept,
    form: o.form,
    provenance: o.provenance,
  };
}

/** Notes on what the company's segment data cannot cover. */
export function segmentGaps(c: SegmentCoverage): string[] {
  const gaps: string[] = [];
  if (c.total === 0) gaps.push('no segment facts ingested yet for this company (segments come from the inline XBRL of its 10-Q and 10-K filings)');
  if (c.annualForms === 0) gaps.push('no 10-K segment facts yet: annual figures and derived fourth quarters are unavailable');
  gaps.push(
    c.derivedQ4 === 0
      ? 'Q4 derived values (annual minus nine-month year to date) are marked tier derived_q4; none are available yet'
      : 'Q4 derived values (annual minus nine-month year to date) are marked tier derived_q4, not verified',
  );
  gaps.push('period.kind ytd rows are year-to-date durations, not quarters; facts whose context splits a segment by a further dimension are not included');
  return gaps;
}
