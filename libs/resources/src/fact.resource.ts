import { z } from 'zod';
import { sourceId } from '@app/contracts';
import type { FactConcept, FactReport } from '@app/persistence';
import { ANNUAL_DAYS, QUARTER_DAYS, type ReportInHistory } from './financials';
import { originalUnit, SEGMENT_UNITS, UNIT_DIVISORS, type SegmentUnit } from './segment.resource';
import { gap, type GapBody, gapSchema } from './gap.resource';
import { companyReferenceSchema, paginationSchema, provenanceSchema } from './shared.resource';

/** The periods a facts list can be narrowed to. */
export const FACT_PERIODS = ['annual', 'quarter', 'instant', 'all'] as const;
export type FactPeriod = (typeof FACT_PERIODS)[number];

/** The scales a value's `normalized` can be served in (the routes' `unit` parameter), as for segments. */
export const VALUE_SCALES = SEGMENT_UNITS;
export type ValueScale = SegmentUnit;

const date = (what: string) => z.iso.date().describe(`${what} (YYYY-MM-DD)`);

export const factValueSchema = z
  .object({
    raw: z.number().describe('As reported, in the unit (scale and sign applied): 391035000000'),
    normalized: z.number().describe('raw / 10^k for the requested unit scale (million: 391035); only amounts of money are scaled, never per-share amounts, ratios or share counts'),
    unit: z.string().describe('XBRL unit: a currency (USD), a currency per share (USD/shares) or shares'),
    original_unit: z.string().describe("The unit with the scale the filer printed it at, where the inline document says it (USD millions), else the unit"),
    conversion_factor: z.number().describe('normalized = raw x conversion_factor: 1, 1e-3, 1e-6 or 1e-9 (1 for anything but money)'),
  })
  .describe('A reported number');

export const factFilingSchema = z
  .object({
    accession: z.string().describe('Accession number of the filing that reported the value: 0000320193-24-000123'),
    form: z.string().describe('Its form: 10-K, 10-Q, 10-K/A, 20-F, 8-K, ...'),
    filed: date('The day it was filed'),
    fiscal_year: z.number().int().nullable().describe("Fiscal year of the FILING as SEC gives it (company facts), not of the value's period"),
    fiscal_period: z.string().nullable().describe('Fiscal period of the filing: FY, Q1, Q2, Q3'),
    frame: z.string().nullable().describe("SEC's calendar frame (CY2024, CY2024Q3, CY2024Q4I) when SEC chose this report for it"),
  })
  .describe('The filing that reported a value');

export const factPeriodSchema = z.object({
  kind: z.enum(['annual', 'quarter', 'instant', 'other']).describe(`annual: a duration of ${ANNUAL_DAYS.min} to ${ANNUAL_DAYS.max} days; quarter: ${QUARTER_DAYS.min} to ${QUARTER_DAYS.max} days; instant: a balance at end_date; other: any other duration (year to date)`),
  start_date: date('First day of the duration').nullable().describe('First day of the duration (YYYY-MM-DD); null for an instant'),
  end_date: date('Last day of the duration, or the instant'),
});

export const factSchema = z
  .object({
    concept: z.string().describe('XBRL concept QName: us-gaap:Revenues, ifrs-full:Revenue'),
    label: z.string().nullable().describe("The filer's row label where the inline document gave one, else the taxonomy's label"),
    period: factPeriodSchema,
    dimensions: z.record(z.string(), z.string()).describe('Axis QName -> member QName; {} for a consolidated value'),
    value: factValueSchema,
    decimals: z.string().nullable().describe("XBRL decimals of the report (-6: rounded to millions; INF: exact); null where company facts do not say"),
    status: z
      .enum(['first_reported', 'restated', 'reaffirmed'])
      .describe("first_reported: the value's first report; restated: this report's value differs from the report before it; reaffirmed: the same value again"),
    previous_value: z.number().nullable().describe('The value of the report before this one (null for the first report)'),
    filing: factFilingSchema,
    sources: z.array(z.enum(['companyfacts', 'inline_xbrl'])).describe('Where this report was read: SEC company facts, the filing\'s inline XBRL, or both'),
    quote: z.string().nullable().describe('The table row holding the fact in the filing, as it stands (inline XBRL only)'),
    provenance: provenanceSchema,
  })
  .describe('One value of a concept as one filing reported it');

export const factConceptSchema = z
  .object({
    concept: z.string().describe('QName of the concept'),
    label: z.string().nullable().describe("The taxonomy's label"),
    units: z.array(z.string()).describe('Units it is reported in'),
  })
  .describe('The concept a facts list is about');

export const factListSchema = z
  .object({
    data: z.array(factSchema),
    pagination: paginationSchema,
    company: companyReferenceSchema,
    concept: factConceptSchema,
    as_of: date('The day the values stand as of').nullable().describe('The day the values stand as of (YYYY-MM-DD): only reports filed on or before it count; null: every report'),
    history: z.boolean().describe('true: every report of every value, oldest first within a value; false: each value\'s latest report'),
    gaps: z.array(gapSchema).describe('What this response cannot cover, and why'),
  })
  .describe("A company's values of one XBRL concept");

export type FactBody = z.infer<typeof factSchema>;
export type FactValueBody = z.infer<typeof factValueSchema>;
export type FactListBody = z.infer<typeof factListSchema>;

const SCALES: Record<number, number> = { 3: 3, 6: 6, 9: 9 };

/** normalized = raw x this: 1/10^k for an amount of money (a currency code: USD, EUR), else 1. */
export function scaleFactor(unit: string, scale: ValueScale): number {
  return /^[A-Z]{3}$/.test(unit) ? 1 / UNIT_DIVISORS[scale] : 1;
}

/**
 * A reported number as the value object. Only amounts of money (a currency code: USD, EUR) are
 * scaled; per-share amounts, ratios (`pure`), share counts and custom units keep factor 1.
 */
export function toFactValue(value: string, unit: string, decimals: string | null, scale: ValueScale): FactValueBody {
  const raw = Number(value);
  const divisor = 1 / scaleFactor(unit, scale);
  const printed = decimals !== null && /^-\d+$/.test(decimals) ? (SCALES[-Number(decimals)] ?? 0) : 0;
  return { raw, normalized: raw / divisor, unit, original_unit: originalUnit(unit, printed), conversion_factor: 1 / divisor };
}

export function periodKind(r: Pick<FactReport, 'periodStart' | 'periodEnd'>): FactBody['period']['kind'] {
  if (r.periodStart === null) return 'instant';
  const days = Math.round((Date.parse(r.periodEnd) - Date.parse(r.periodStart)) / 86_400_000);
  if (days >= ANNUAL_DAYS.min && days <= ANNUAL_DAYS.max) return 'annual';
  if (days >= QUARTER_DAYS.min && days <= QUARTER_DAYS.max) return 'quarter';
  return 'other';
}

export const companyFactsUrl = (cik: string): string => `https://data.sec.gov/api/xbrl/companyfacts/CIK${cik}.json`;
export const filingIndexUrl = (cik: string, accession: string): string =>
  `https://www.sec.gov/Archives/edgar/data/${Number(cik)}/${accession.replace(/-/g, '')}/${accession}-index.htm`;

/**
 * Where a report was read: the filing's inline document (its URL and sha256) when it was, else
 * SEC's company facts (whose hash the read model does not keep: content_hash null, and src_id
 * names the company-facts URL and the accession).
 */
export function factProvenance(r: FactReport): FactBody['provenance'] {
  const url = r.documentUrl ?? companyFactsUrl(r.cik);
  return {
    src_id: sourceId(url, r.documentSha256 ?? r.accession),
    source_provider: 'sec',
    source_url: url,
    citation_url: filingIndexUrl(r.cik, r.accession),
    accession: r.accession,
    quote: r.quote,
    content_hash: r.documentSha256,
    extracted_at: null,
  };
}

/** Read model -> one fact item (a report with its status in its value's history). */
export function toFact(h: ReportInHistory, scale: ValueScale, conceptLabel: string | null): FactBody {
  const r = h.report;
  return {
    concept: r.concept,
    label: r.label ?? conceptLabel,
    period: { kind: periodKind(r), start_date: r.periodStart, end_date: r.periodEnd },
    dimensions: r.dimensions,
    value: toFactValue(r.value, r.unit, r.decimals, scale),
    decimals: r.decimals,
    status: h.status,
    previous_value: h.previousValue === null ? null : Number(h.previousValue),
    filing: { accession: r.accession, form: r.form, filed: r.filed, fiscal_year: r.fiscalYear, fiscal_period: r.fiscalPeriod, frame: r.frame },
    sources: r.sources,
    quote: r.quote,
    provenance: factProvenance(r),
  };
}

export const toFactConcept = (c: FactConcept): z.infer<typeof factConceptSchema> => ({ concept: c.concept, label: c.label, units: c.units });

/** Notes on what a facts answer cannot cover. */
export function factGaps(c: FactConcept, dimensioned: boolean): GapBody[] {
  const gaps = [
    gap('source_scope', 'values come from SEC company facts (consolidated values only) and the inline XBRL of filings read as they were filed; a filing neither covers is not here'),
  ];
  if (!dimensioned && c.dimensioned) {
    gaps.push(gap('dimensioned_values_available', 'this concept also has dimensional values (segments, products, regions): ask with dimensioned=true', 'dimensioned'));
  }
  return gaps;
}
