import { z } from 'zod';
import { envelopeSchema } from './envelope.schema';

const cik = z.string().regex(/^\d{10}$/).describe('10-digit zero-padded SEC CIK');
const accession = z.string().regex(/^\d{10}-\d{2}-\d{6}$/);
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** Records carry at most this many holdings (about 450 bytes each with the quote: well under Kafka's 1 MB). */
export const THIRTEENF_HOLDINGS_PER_RECORD = 1000;

export const THIRTEENF_FORMS = ['13F-HR', '13F-HR/A', '13F-NT', '13F-NT/A'] as const;

const managerRefSchema = z.object({
  sequence: z.number().int().nullable().describe('The number the filing gives the manager (otherManager in the information table refers to it)'),
  cik: cik.nullable(),
  name: z.string().nullable(),
  file_number: z.string().nullable().describe('Form 13F file number (028-xxxxx)'),
});

export const thirteenFHoldingSchema = z.object({
  index: z.number().int().min(0).describe('0-based position of the infoTable row in the filing'),
  issuer: z.string().describe('nameOfIssuer as filed'),
  class_title: z.string().nullable().describe('titleOfClass as filed'),
  cusip: z.string().describe('CUSIP as filed, upper case'),
  figi: z.string().nullable(),
  value_filed: z.number().describe('value exactly as filed, in the unit of value_unit'),
  value_usd: z.number().describe('value in US dollars: value_filed x 1000 when the unit is thousands'),
  shares: z.number().describe('sshPrnamt: shares (SH) or principal amount (PRN)'),
  share_type: z.enum(['SH', 'PRN']),
  put_call: z.enum(['put', 'call']).nullable().describe('An option position on the security; null for the security itself'),
  discretion: z.string().nullable().describe('investmentDiscretion: SOLE, DFND or OTR'),
  other_managers: z.array(z.number().int()).describe('Sequence numbers of the included managers sharing this position'),
  voting: z.object({ sole: z.number(), shared: z.number(), none: z.number() }),
  quote: z.string().describe('The <infoTable> element as written in the filing'),
});

/** 13f-holdings@1 data: one chunk of one 13F filing, with the filing header repeated. */
export const thirteenFHoldingsDataSchema = z.object({
  accession,
  source_url: z.string().url().describe('The document fetched (complete submission .txt, or a data-set zip)'),
  form: z.enum(THIRTEENF_FORMS),
  filed_date: date,
  accepted_at: z.string().datetime({ offset: true }).nullable(),
  manager: z.object({
    cik,
    name: z.string().nullable(),
    file_number: z.string().nullable(),
    crd_number: z.string().nullable(),
    sec_file_number: z.string().nullable(),
  }),
  period: date.describe('periodOfReport: the quarter end the holdings are as of'),
  quarter: z.string().regex(/^\d{4}Q[1-4]$/).describe('Calendar quarter of period (2025Q2)'),
  report_type: z.enum(['holdings', 'notice', 'combination']).describe('13F HOLDINGS REPORT, 13F NOTICE, 13F COMBINATION REPORT'),
  amendment: z
    .object({ number: z.number().int().nullable(), type: z.enum(['restatement', 'new_holdings']).nullable() })
    .nullable()
    .describe('null when not an amendment; restatement replaces the quarter, new_holdings adds to it'),
  other_managers: z.array(managerRefSchema).describe('coverPage otherManagersInfo: managers that report (some of) this manager\'s holdings'),
  included_managers: z.array(managerRefSchema).describe('summaryPage otherManagers2Info: other managers included in this report'),
  summary: z.object({
    entry_total: z.number().int().nullable().describe('tableEntryTotal as filed'),
    value_total: z.number().nullable().describe('tableValueTotal as filed, in value_unit'),
  }),
  value_unit: z.object({
    unit: z.enum(['thousands', 'dollars']),
    basis: z.enum(['filing_date', 'summary_total', 'implied_prices']).describe('filing_date: the rule (thousands before 2023-01-03); otherwise the filing\'s own numbers contradicted the rule'),
    flag: z.string().nullable().describe('Set when the numbers disagree with the rule and could not decide: the unit then follows the rule'),
  }),
  chunk: z.object({
    index: z.number().int().min(0),
    count: z.number().int().min(1).describe('Chunks of this filing'),
    holdings_total: z.number().int().min(0).describe('Holdings in the whole filing'),
  }),
  holdings: z.array(thirteenFHoldingSchema).max(THIRTEENF_HOLDINGS_PER_RECORD),
});

export type ThirteenFHoldingData = z.infer<typeof thirteenFHoldingSchema>;
export type ThirteenFHoldingsData = z.infer<typeof thirteenFHoldingsDataSchema>;
export const thirteenFHoldingsRecordV1 = envelopeSchema('13f-holdings@1', thirteenFHoldingsDataSchema);
export type ThirteenFHoldingsRecordV1 = z.infer<typeof thirteenFHoldingsRecordV1>;

/** Securities per 13f-securities@1 record (about 100 bytes each). */
export const THIRTEENF_SECURITIES_PER_RECORD = 5000;

/** 13f-securities@1 data: one chunk of SEC's Official List of Section 13(f) Securities for a quarter. */
export const thirteenFSecuritiesDataSchema = z.object({
  quarter: z.string().regex(/^\d{4}Q[1-4]$/),
  source_url: z.string().url().describe('The list PDF fetched (www.sec.gov/files/investment/13flist<yyyy>q<n>.pdf)'),
  chunk: z.object({ index: z.number().int().min(0), count: z.number().int().min(1), securities_total: z.number().int().min(0) }),
  securities: z
    .array(
      z.object({
        cusip: z.string().regex(/^[A-Z0-9]{9}$/),
        has_options: z.boolean().describe('The list marks the CUSIP with an asterisk: options on it are 13(f) securities'),
        issuer: z.string(),
        description: z.string().nullable().describe('Issue description (COM, CL A, ...)'),
        status: z.string().nullable().describe('ADDED or DELETED since the previous list; null when unchanged'),
      }),
    )
    .max(THIRTEENF_SECURITIES_PER_RECORD),
});
export type ThirteenFSecuritiesData = z.infer<typeof thirteenFSecuritiesDataSchema>;
export const thirteenFSecuritiesRecordV1 = envelopeSchema('13f-securities@1', thirteenFSecuritiesDataSchema);
