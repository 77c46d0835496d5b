import { z } from 'zod';
import { companyReferenceSchema, paginationSchema, provenanceSchema } from '@app/resources';
import { SYMBOL_PATTERN } from '../companies/companies.schemas';
import { params } from '../platform/query.validation';

export const SEGMENT_UNITS = ['as_reported', 'thousand', 'million', 'billion'] as const;
export type SegmentUnit = (typeof SEGMENT_UNITS)[number];

export const segmentsPathParams = params({
  symbol: { kind: 'string', pattern: SYMBOL_PATTERN, description: '<TICKER>:<MARKET>, e.g. AAPL:US (case-insensitive)' },
});

/** Query parameters of GET /v1/companies/{symbol}/segments. */
export const segmentsQueryParams = params({
  unit: {
    kind: 'enum',
    values: SEGMENT_UNITS,
    default: 'as_reported',
    description: 'Scale of value.normalized: as_reported (factor 1), thousand (raw / 1e3), million (raw / 1e6), billion (raw / 1e9)',
  },
  cursor: { kind: 'string', minLength: 1, maxLength: 1024, description: 'Opaque cursor from the previous page, passed back unchanged' },
  limit: { kind: 'int', minimum: 1, maximum: 500, default: 50, description: 'Page size, 1 to 500 (free plan and sk_test_ keys: at most 25)' },
  direction: {
    kind: 'enum',
    values: ['asc', 'desc'],
    description: 'Sort direction by period end date (then metric key, member); default desc (latest period first). The direction applies to the whole sort key',
  },
});

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
    end_date: z.string().describe('YYYY-MM-DD'),
    kind: z.string().describe('quarter, ytd (year to date), annual, instant'),
    start_date: z.string().nullable().describe('YYYY-MM-DD; null for instants'),
  }),
  value: segmentValueSchema,
  tier: z.string().describe('verified (read from the filing) or derived_q4 (annual minus nine-month year to date)'),
  axis: z.string().describe('XBRL axis of the fact'),
  member_qname: z.string().describe('XBRL member QName'),
  concept: z.string().describe('XBRL concept of the fact'),
  form: z.string().describe('Form of the filing (10-Q, 10-K)'),
  provenance: provenanceSchema,
});

export const segmentsResponseSchema = z.object({
  data: z.array(segmentObservationSchema),
  pagination: paginationSchema,
  company: companyReferenceSchema,
  _gaps: z.array(z.string()).describe('Human-readable notes on what this response cannot cover'),
});

export type SegmentObservationBody = z.infer<typeof segmentObservationSchema>;
export type SegmentsResponseBody = z.infer<typeof segmentsResponseSchema>;
