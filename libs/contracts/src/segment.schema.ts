import { z } from 'zod';
import { envelopeSchema } from './envelope.schema';

const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const segmentPeriodSchema = z.object({
  kind: z.enum(['quarter', 'ytd', 'annual', 'instant', 'other']).describe(
    'From the context dates: quarter (75..105 days), ytd (6 or 9 months from the fiscal year start), annual (350..380 days), instant; other for any other duration',
  ),
  start_date: date.nullable().describe('Context start date (YYYY-MM-DD); null for instants'),
  end_date: date.describe('Context end date, or the instant (YYYY-MM-DD)'),
  calendar: z.string().regex(/^\d{4}-Q[1-4]$/).describe('Calendar quarter holding end_date minus 45 days (the middle of the last three months), e.g. 2025-Q1'),
  fiscal: z.string().nullable().describe(
    'Fiscal period as the filer counts it: FY<year>-Q<n> (quarter), FY<year>-Q<n>-YTD, FY<year> (annual); year anchored to dei:DocumentFiscalYearFocus, quarter index from the dates; null when the fiscal year end is unknown',
  ),
});

export const segmentReconcilingItemSchema = z.object({
  concept: z.string().min(1).describe('XBRL concept of the row, e.g. us-gaap:ResearchAndDevelopmentExpense'),
  member_qname: z.string().min(1).describe('Its member on srt:ConsolidationItemsAxis, e.g. us-gaap:CorporateNonSegmentMember'),
  member_kind: z.enum(['corporate', 'eliminations', 'other']).describe('corporate (unallocated), eliminations (intersegment), other (reconciling items)'),
  label: z.string().min(1).describe('The row label as printed, e.g. Research and development expense'),
  value: z.number().describe('The amount as it adds to the segments, in the breakdown\'s unit: negative where the filer prints it in parentheses'),
});

/**
 * How the breakdown a fact belongs to adds up in the filer's tables. A breakdown is the `segment`
 * members of one concept, axis, period and unit (subtotals such as Products = iPhone + Mac + ... left
 * out of the sum); where members printed in tables that share no member are two presentations of the
 * same total (Amazon's product/service split and its groups of products and services), each is one.
 */
export const segmentReconciliationSchema = z.object({
  members: z.number().int().describe('Members of the breakdown, subtotals included'),
  subtotals: z.array(z.string()).describe('QNames of members that are the sum of other members: left out of segments_sum'),
  segments_sum: z.number().describe('Sum of the members, subtotals left out'),
  operating_segments_total: z.number().nullable().describe('The operating segments\' total as tagged (srt:ConsolidationItemsAxis = us-gaap:OperatingSegmentsMember alone); null when the filer tags none'),
  segments_match: z.boolean().nullable().describe('Whether segments_sum equals operating_segments_total within rounding; null without that total'),
  reconciling_items: z
    .array(segmentReconcilingItemSchema)
    .describe('The corporate, eliminations and other reconciling rows added to segments_sum to reach total; empty when the segments alone reach it'),
  total: z.number().nullable().describe('The total the breakdown is held to; null when the filer tags none'),
  total_concept: z.string().nullable().describe('Concept of total: the breakdown\'s own, or the total row of the filer\'s reconciliation table (e.g. income before income taxes)'),
  total_from: z
    .enum(['consolidated', 'filer_table', 'operating_segments'])
    .nullable()
    .describe('consolidated: the undimensioned figure of the concept; filer_table: the total its reconciliation table reconciles to; operating_segments: the operating segments\' total (no consolidated total tagged)'),
  method: z
    .enum(['segments_alone', 'with_reconciling_items'])
    .nullable()
    .describe('How total is reached: the segments alone, or the segments plus reconciling_items'),
  difference: z.number().nullable().describe('segments_sum + the reconciling items - total; null without a total'),
  matches: z.boolean().nullable().describe('Whether difference is within the rounding of the printed figures (half a unit of the last digit per figure); null without a total'),
});

/** edgar.segments.v1 data: one segment fact of a 10-Q / 10-K inline-XBRL document. */
export const segmentDataSchema = z.object({
  cik: z.string().regex(/^\d{10}$/).describe('10-digit zero-padded CIK of the filer'),
  accession: z.string().regex(/^\d{10}-\d{2}-\d{6}$/).describe('Accession number of the filing the fact was read from'),
  form: z.string().min(1).describe('Form of the filing (10-Q, 10-K, 10-Q/A, ...)'),
  document_url: z.string().url().describe('URL of the inline-XBRL primary document read'),
  metric_key: z
    .string()
    .min(1)
    .describe('Stable key: segment_<metric>.<segment|product_or_service|geography>, e.g. segment_revenue.segment, segment_intersegment_revenue.segment'),
  metric: z
    .enum(['revenue', 'operating_income', 'third_party_revenue', 'intersegment_revenue'])
    .describe('revenue and operating_income as tagged; third_party_revenue and intersegment_revenue where the filer tags a segment\'s revenue from outside customers and from other segments apart'),
  concept: z.string().min(1).describe('XBRL concept QName, e.g. us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax'),
  axis: z
    .enum(['us-gaap:StatementBusinessSegmentsAxis', 'srt:ProductOrServiceAxis', 'srt:StatementGeographicalAxis', 'srt:ConsolidationItemsAxis'])
    .describe('The segment axis of the context; srt:ConsolidationItemsAxis for a corporate, eliminations or reconciling row of a segment table'),
  dimension: z.enum(['segment', 'product_or_service', 'geography']).describe('The axis in plain words'),
  member_qname: z.string().min(1).describe('Member QName on the axis, e.g. aapl:AmericasSegmentMember'),
  member: z.string().min(1).describe("The member's name, as the issuer spells it in its tables where it can be matched"),
  member_kind: z
    .enum(['segment', 'corporate', 'eliminations', 'other'])
    .optional()
    .describe('segment: one of the filer\'s segments, product lines or regions (these add up to its total); corporate, eliminations, other (reconciling items): the rest of a segment table. Absent in records written before it existed'),
  issuer_label: z.string().min(1).describe('Label of the table row holding the fact, as printed'),
  context_id: z.string().min(1).describe('Id of the xbrli:context in the document'),
  period: segmentPeriodSchema,
  value: z.number().describe('Value as reported (format, scale and sign applied), in `unit`'),
  unit: z.string().min(1).describe('Unit of the fact, e.g. USD'),
  decimals: z.string().nullable().describe('The fact\'s decimals attribute as written (-6, INF)'),
  scale: z.number().int().describe('The fact\'s scale attribute (6: the printed figure is in millions)'),
  displayed: z.string().describe('The figure as displayed in the document, e.g. 40,315'),
  tier: z.enum(['verified', 'derived_q4']).describe('verified: read from the document; derived_q4: annual minus nine-month year-to-date'),
  reconciliation: segmentReconciliationSchema
    .nullable()
    .optional()
    .describe('How the breakdown this fact is a member or a reconciling row of adds up, as the filer\'s table adds it; null for a fact in no breakdown (a segment\'s intersegment revenue); absent in records written before it existed'),
});

export type SegmentData = z.infer<typeof segmentDataSchema>;
export type SegmentPeriod = z.infer<typeof segmentPeriodSchema>;
export type SegmentReconciliationData = z.infer<typeof segmentReconciliationSchema>;

export const segmentRecordV1 = envelopeSchema('segment@1', segmentDataSchema);
export type SegmentRecordV1 = z.infer<typeof segmentRecordV1>;
