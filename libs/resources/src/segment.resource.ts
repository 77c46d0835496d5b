import { z } from 'zod';
import { segmentReconciliationSchema } from '@app/contracts';
import type { SegmentCoverage, SegmentObservation } from '@app/persistence';
import { gap, type GapBody, gapSchema } from './gap.resource';
import { companyReferenceSchema, dateField, paginationSchema, provenanceSchema } from './shared.resource';

/** The scales value.normalized can be served in (the endpoint's `unit` parameter). */
export const SEGMENT_UNITS = ['as_reported', 'thousand', 'million', 'billion'] as const;
export type SegmentUnit = (typeof SEGMENT_UNITS)[number];

export const segmentValueSchema = z
  .object({
    raw: z.number().describe('As reported, in the currency unit (scale and sign applied): 40315000000'),
    normalized: z.number().describe('raw / 10^k for the requested unit (million: 40315)'),
    unit: z.string().describe('Currency code, e.g. USD'),
    original_unit: z.string().describe("The unit as the filer printed it: the currency with the fact's scale (USD millions for scale 6)"),
    conversion_factor: z.number().describe('normalized = raw x conversion_factor: 1, 1e-3, 1e-6 or 1e-9'),
  })
  .describe('Value object');

export const segmentObservationSchema = z.object({
  metric_key: z
    .string()
    .describe('segment_<metric>.<segment|product_or_service|geography>: metric revenue, operating_income, or third_party_revenue and intersegment_revenue where the filer tags them apart'),
  issuer_label: z.string().describe('Label of the table row holding the figure, as printed'),
  dimension: z.string().describe('segment, product_or_service or geography'),
  member: z.string().describe("The member's name, as the filer labels it in its tables"),
  member_kind: z
    .enum(['segment', 'corporate', 'eliminations', 'other'])
    .nullable()
    .describe('segment: one of the segments, product lines or regions, which add up to the filer\'s total; corporate, eliminations, other (reconciling items): the rest of a segment table; null for figures read before kinds were'),
  period: z.object({
    calendar: z.string().describe('Calendar quarter of the period (the quarter holding end_date minus 45 days), e.g. 2025-Q1'),
    fiscal: z.string().nullable().describe('Fiscal period as the filer counts it: FY2025-Q2, FY2025-Q2-YTD, FY2025'),
    end_date: dateField().describe('YYYY-MM-DD'),
    kind: z.string().describe('quarter, ytd (year to date), annual, instant'),
    start_date: dateField().nullable().describe('YYYY-MM-DD; null for instants'),
  }),
  value: segmentValueSchema,
  tier: z.string().describe('verified (read from the filing) or derived_q4 (annual minus nine-month year to date)'),
  axis: z.string().describe('XBRL axis of the fact'),
  member_qname: z.string().describe('XBRL member QName'),
  concept: z.string().describe('XBRL concept of the fact'),
  form: z.string().describe('Form of the filing (10-Q, 10-K)'),
  reconciliation: segmentReconciliationSchema
    .nullable()
    .describe(
      "How the breakdown this figure is a member or a reconciling row of (same filing, concept, axis, period) adds up, as the filer's table adds it: " +
        'to the consolidated total by the segments alone or with the corporate, eliminations and other reconciling rows, through the ' +
        "filer's reconciliation table, or to the operating segments' total. Amounts are as reported (like value.raw), not scaled by `unit`. " +
        'Null for derived_q4 rows, for a figure in no breakdown (a segment\'s intersegment revenue) and for figures read before reconciliations were kept',
    ),
  provenance: provenanceSchema,
});

export const segmentsResponseSchema = z.object({
  data: z.array(segmentObservationSchema),
  pagination: paginationSchema,
  company: companyReferenceSchema,
  gaps: z.array(gapSchema).describe('What this response cannot cover, and why'),
});

export type SegmentObservationBody = z.infer<typeof segmentObservationSchema>;
export type SegmentsResponseBody = z.infer<typeof segmentsResponseSchema>;

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
    reconciliation: o.reconciliation,
    provenance: o.provenance,
  };
}

/** Notes on what the company's segment data cannot cover. */
export function segmentGaps(c: SegmentCoverage): GapBody[] {
  const gaps: GapBody[] = [];
  if (c.total === 0) gaps.push(gap('no_segments_reported', 'no segment facts ingested yet for this company (segments come from the inline XBRL of its 10-Q and 10-K filings)'));
  if (c.annualForms === 0) gaps.push(gap('no_annual_segments', 'no 10-K segment facts yet: annual figures and derived fourth quarters are unavailable'));
  gaps.push(
    gap(
      'derived_q4',
      c.derivedQ4 === 0
        ? 'Q4 derived values (annual minus nine-month year to date) are marked tier derived_q4; none are available yet'
        : 'Q4 derived values (annual minus nine-month year to date) are marked tier derived_q4, not verified',
      'tier',
    ),
  );
  gaps.push(gap('source_scope', 'period.kind ytd rows are year-to-date durations, not quarters; facts whose context splits a segment by a further dimension are not included'));
  return gaps;
}
