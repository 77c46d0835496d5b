import { z } from 'zod';
import { envelopeSchema } from './envelope.schema';

const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const qname = z.string().regex(/^[A-Za-z][\w.-]*:[A-Za-z_][\w.-]*$/);
const accession = z.string().regex(/^\d{10}-\d{2}-\d{6}$/);

/** One report of one value: a fact (concept, unit, period, dimensions) as one filing reported it. */
export const xbrlFactSchema = z.object({
  unit: z.string().min(1).describe('Unit as SEC writes it: USD, shares, USD/shares, pure, EUR, ...'),
  period_start: date.nullable().describe('Start of the duration (YYYY-MM-DD); null for an instant'),
  period_end: date.describe('End of the duration, or the instant (YYYY-MM-DD)'),
  dimensions: z
    .record(qname, qname)
    .describe('Axis QName -> member QName of the context; {} for a consolidated (undimensioned) fact. Company facts have none'),
  value: z.number().finite().describe('The value as reported (scale and sign applied), in `unit`'),
  decimals: z.string().nullable().describe("The fact's decimals attribute as written (-6, INF); null where the source does not give it (company facts)"),
  accession: accession.describe('Accession number of the filing that reported the value'),
  form: z.string().min(1).describe('Form of that filing (10-K, 10-Q, 10-K/A, 20-F, 8-K, ...)'),
  filed: date.describe('Day that filing was filed (YYYY-MM-DD)'),
  fiscal_year: z.number().int().nullable().describe('Fiscal year of the FILING (company facts `fy`, inline dei:DocumentFiscalYearFocus)'),
  fiscal_period: z.string().nullable().describe('Fiscal period of the FILING: FY, Q1, Q2, Q3 (company facts `fp`, inline dei:DocumentFiscalPeriodFocus)'),
  frame: z.string().nullable().describe('SEC calendar frame (CY2024, CY2024Q3, CY2024Q4I) when SEC chose this report for it; company facts only'),
  label: z.string().nullable().describe("The filer's own label: the first cell of the table row holding the fact (inline XBRL); null from company facts"),
  quote: z.string().nullable().describe('The text of the table row holding the fact, as it stands in the document (inline XBRL); null from company facts'),
});

/**
 * edgar.xbrl-facts.v1 data: every report of ONE concept from ONE source. From company facts
 * (`source: companyfacts`, key `<cik>|<concept>`): the concept's whole history for the company, every
 * unit, every filing. From a filing's inline XBRL (`source: inline_xbrl`, key `<accession>|<concept>`):
 * the concept's facts in that document, dimensional ones included, each with its quote.
 */
export const xbrlFactsDataSchema = z.object({
  cik: z.string().regex(/^\d{10}$/).describe('10-digit zero-padded CIK of the filer'),
  entity_name: z.string().nullable().describe('Entity name as the source gives it'),
  source: z.enum(['companyfacts', 'inline_xbrl']).describe('companyfacts: data.sec.gov company facts (or companyfacts.zip); inline_xbrl: the filing document'),
  accession: accession.nullable().describe('inline_xbrl: the filing read; null for company facts (each fact names its filing)'),
  document_url: z.string().url().nullable().describe('inline_xbrl: the document read; null for company facts'),
  concept: qname.describe('Concept QName: us-gaap:Revenues, ifrs-full:Revenue, dei:EntityCommonStockSharesOutstanding'),
  concept_label: z.string().nullable().describe("The taxonomy's label of the concept (company facts)"),
  concept_description: z.string().nullable().describe("The taxonomy's description of the concept (company facts)"),
  facts: z.array(xbrlFactSchema).min(1).describe('Every report of the concept in this source'),
});

export type XbrlFact = z.infer<typeof xbrlFactSchema>;
export type XbrlFactsData = z.infer<typeof xbrlFactsDataSchema>;

export const xbrlFactsRecordV1 = envelopeSchema('xbrl-facts@1', xbrlFactsDataSchema);
export type XbrlFactsRecordV1 = z.infer<typeof xbrlFactsRecordV1>;

/** Record key: `<cik>|<concept>` from company facts, `<accession>|<concept>` from a filing's inline XBRL. */
export function xbrlFactsKey(data: Pick<XbrlFactsData, 'source' | 'cik' | 'accession' | 'concept'>): string {
  return data.source === 'companyfacts' ? `${data.cik}|${data.concept}` : `${data.accession}|${data.concept}`;
}
