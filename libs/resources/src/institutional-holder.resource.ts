import { quarterOf } from '@app/contracts';
import { z } from 'zod';
import type { InstitutionalManagerRow, InstitutionalPositionRow, ManagerQuarterRow, ThirteenFFilingRow } from '@app/persistence';
import { gap, type GapBody, gapSchema } from './gap.resource';
import { companyReferenceSchema, dateField, paginationSchema, provenanceSchema } from './shared.resource';

const optionSchema = z.object({ shares: z.number().int(), value_usd: z.number().int() });

export const institutionalPositionSchema = z.object({
  manager: z.object({ cik: z.string().describe('10-digit CIK of the 13F filer'), name: z.string().nullable() }),
  cusip: z.string(),
  issuer: z.string().describe('nameOfIssuer as filed'),
  class_title: z.string().nullable(),
  symbol: z
    .string()
    .nullable()
    .describe(
      'Listing of the company matched to the CUSIP (by identifier, never by name): matched by the CUSIP itself, the listing the N-PORT evidence named; ' +
        "matched by the CUSIP's issuer prefix, the company's symbol when it has exactly one listing; null when unmatched or the share class is not known",
    ),
  shares: z.number().int().describe('Shares held (SH rows), options excluded'),
  principal: z.number().int().describe('Principal amount (PRN rows)'),
  value_usd: z.number().int().describe('USD; filings before 2023-01-03 report thousands, scaled here'),
  put: optionSchema.describe('Put options on the security, apart from the position'),
  call: optionSchema.describe('Call options on the security, apart from the position'),
  change: z.object({
    type: z.enum(['new', 'increased', 'decreased', 'unchanged', 'sold_out']).nullable().describe("Against the manager's previous quarter; null when none is known"),
    share_delta: z.number().int().nullable(),
    previous_shares: z.number().int().nullable(),
  }),
  weight: z.number().nullable().describe("Fraction of the manager's reported quarter (value / total)"),
  period: dateField().describe('Quarter end, YYYY-MM-DD'),
  accession: z.string().describe("The filing the row comes from; for a sold_out row, the previous quarter's filing"),
  filed_date: dateField().nullable(),
  filing_url: z.string().describe('The filing in EDGAR Archives'),
  provenance: provenanceSchema.nullable().describe('quote: the infoTable element as filed; for a sold_out row, the previous quarter\'s row that was sold'),
});
export type InstitutionalPositionBody = z.infer<typeof institutionalPositionSchema>;

const quarterMetaSchema = z.object({
  quarter: z.string().nullable().describe('Quarter served (2025Q2)'),
  period: dateField().nullable().describe('Its quarter end'),
  previous_quarter: z.string().nullable().describe('Quarter the change column compares against'),
  quarters: z.array(z.string()).describe('Quarters with data, newest first'),
});

export const companyHoldersSchema = z.object({
  data: z.array(institutionalPositionSchema),
  pagination: paginationSchema,
  company: companyReferenceSchema,
  meta: quarterMetaSchema.extend({
    cusips: z
      .array(z.string())
      .describe("CUSIPs matched to the company (by the CUSIP itself or by its issuer prefix) among the positions of the quarter served, sorted; empty when it has none"),
  }),
  as_of: dateField().optional().describe('With ?as_of=: the day; each manager\'s quarter as the 13F filings filed on or before it made it (see gaps)'),
  gaps: z.array(gapSchema).describe('What this answer cannot show, and why'),
});

export const securityHoldersSchema = z.object({
  data: z.array(institutionalPositionSchema),
  pagination: paginationSchema,
  security: z.object({ cusip: z.string(), issuer: z.string().nullable(), class_title: z.string().nullable(), symbol: z.string().nullable() }),
  meta: quarterMetaSchema,
  gaps: z.array(gapSchema).describe('What this answer cannot show, and why'),
});

export const institutionSchema = z.object({
  cik: z.string(),
  name: z.string().nullable(),
  file_number: z.string().nullable(),
  latest_quarter: z.string(),
});

export const institutionListSchema = z.object({ data: z.array(institutionSchema.extend({ score: z.number().describe('Name match, 0..1') })), pagination: paginationSchema });

export const institutionDetailSchema = institutionSchema.extend({
  quarters: z.array(z.object({ quarter: z.string(), period: dateField(), report_type: z.string(), positions: z.number().int(), value_usd_total: z.number().int(), accessions: z.array(z.string()), unit_flag: z.string().nullable() })),
  filings: z.array(
    z.object({
      accession: z.string(),
      form: z.string(),
      report_type: z.string().describe('holdings, notice or combination'),
      amendment_type: z.string().nullable().describe('restatement (replaces the quarter) or new_holdings (adds to it)'),
      amendment_number: z.number().int().nullable(),
      period: dateField(),
      filed_date: dateField(),
      superseded_by: z.string().nullable().describe('The restatement that replaced this filing'),
      holdings_count: z.number().int(),
      value_total: z.number().nullable().describe('tableValueTotal as filed, in value_unit'),
      value_unit: z.string().describe('thousands or dollars'),
      unit_basis: z.string().describe('filing_date (the rule), or the numbers that overrode it'),
      unit_flag: z.string().nullable().describe('Numbers contradict the date but could not decide'),
      filing_url: z.string(),
    }),
  ),
});

export const institutionHoldingsSchema = z.object({
  data: z.array(institutionalPositionSchema),
  pagination: paginationSchema,
  institution: institutionSchema,
  meta: quarterMetaSchema,
  gaps: z.array(gapSchema).describe('What this answer cannot show, and why'),
});

export const INSTITUTIONAL_GAPS: readonly GapBody[] = [
  gap('source_scope', 'Form 13F covers managers with over $100 million in 13(f) securities, 45 days after quarter end; positions under the 13F threshold and short positions are not reported'),
  gap('values_scaled', 'values before 2023-01-03 were filed in thousands and are scaled; a filing whose numbers contradict its date carries unit_flag on GET /v1/institutions/{cik}'),
  gap(
    'matching_rule',
    'companies are matched by CUSIP through the identifier crosswalk only (the CUSIP itself, else its issuer prefix when that names one company); unmatched CUSIPs: GET /v1/securities/{cusip}/institutional-holders',
  ),
  gap('held_per_issuer', "a company's holders are those of its CIK: every share class, and for a trust whose series share one CIK (e.g. the Select Sector SPDRs), every series"),
];

/** What a holders answer as of a day follows and cannot show. */
export function institutionalAsOfGaps(asOf: string): GapBody[] {
  return [
    gap(
      'as_of_rule',
      `as_of ${asOf}: each manager's quarter as the complete 13F filings filed on or before the day made it (the latest 13F-HR or restatement, then the ` +
      'new-holdings amendments filed after it); change against the quarter before as it stood the same day; weight against the quarter\'s total then; ' +
        'meta.quarters are the quarters some holder had filed by the day',
    ),
    gap(
      'as_of_not_point_in_time',
      `as_of ${asOf}: managers are found through today's positions of the company at the quarter or the one before: a manager whose filings by the day held ` +
        'the company but whose later restatement drops every position of it at both quarters is not listed',
    ),
    gap('as_of_not_point_in_time', `as_of ${asOf}: CUSIPs are matched to the company by today's crosswalk (N-PORT evidence read since may match a CUSIP that was unmatched on the day)`),
  ];
}

const int = (text: string) => Number(text);
const intOrNull = (text: string | null) => (text === null ? null : Number(text));

/** The complete submission in EDGAR Archives. */
export function filingArchivesUrl(managerCik: string, accession: string): string {
  return `https://www.sec.gov/Archives/edgar/data/${Number(managerCik)}/${accession.replace(/-/g, '')}/${accession}.txt`;
}

/** Read model -> one position as served (holders and portfolios alike). */
export function toInstitutionalPosition(row: InstitutionalPositionRow): InstitutionalPositionBody {
  const total = intOrNull(row.managerValueTotal);
  return {
    manager: { cik: row.managerCik, name: row.managerName },
    cusip: row.cusip,
    issuer: row.issuer,
    class_title: row.classTitle,
    symbol: row.symbol,
    shares: int(row.shares),
    principal: int(row.principal),
    value_usd: int(row.valueUsd),
    put: { shares: int(row.putShares), value_usd: int(row.putValueUsd) },
    call: { shares: int(row.callShares), value_usd: int(row.callValueUsd) },
    change: { type: (row.change as InstitutionalPositionBody['change']['type']) ?? null, share_delta: intOrNull(row.shareDelta), previous_shares: intOrNull(row.prevShares) },
    weight: total ? Math.round((int(row.valueUsd) / total) * 1e6) / 1e6 : null,
    period: row.period,
    accession: row.accession,
    filed_date: row.filedDate,
    filing_url: filingArchivesUrl(row.managerCik, row.accession),
    provenance: row.provenance ? { ...row.provenance, accession: row.accession, quote: row.quote } : null,
  };
}

export function toInstitution(row: InstitutionalManagerRow): z.infer<typeof institutionSchema> {
  return { cik: row.cik, name: row.name, file_number: row.fileNumber, latest_quarter: quarterOf(row.latestPeriod) };
}

export function toInstitutionDetail(row: InstitutionalManagerRow, quarters: ManagerQuarterRow[], filings: ThirteenFFilingRow[]): z.infer<typeof institutionDetailSchema> {
  return {
    ...toInstitution(row),
    quarters: quarters.map((q) => ({
      quarter: quarterOf(q.period),
      period: q.period,
      report_type: q.reportType,
      positions: q.positions,
      value_usd_total: int(q.valueUsdTotal),
      accessions: q.accessions,
      unit_flag: q.unitFlag,
    })),
    filings: filings.map((f) => ({
      accession: f.accession,
      form: f.form,
      report_type: f.reportType,
      amendment_type: f.amendmentType,
      amendment_number: f.amendmentNumber,
      period: f.period,
      filed_date: f.filedDate,
      superseded_by: f.supersededBy,
      holdings_count: f.holdingsTotal,
      value_total: f.valueTotal === null ? null : Number(f.valueTotal),
      value_unit: f.valueUnit,
      unit_basis: f.unitBasis,
      unit_flag: f.unitFlag,
      filing_url: filingArchivesUrl(row.cik, f.accession),
    })),
  };
}
