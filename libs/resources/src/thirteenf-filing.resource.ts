import { quarterOf } from '@app/contracts';
import { z } from 'zod';
import type { ThirteenFFilingRecord } from '@app/persistence';
import { dateField, provenanceSchema } from './shared.resource';

/** One 13F filing summarized: what a `13f.filed` event carries (and a manager's filing history can list). */
export const thirteenFFilingSchema = z
  .object({
    accession: z.string(),
    form: z.string().describe('13F-HR, 13F-HR/A, 13F-NT or 13F-NT/A'),
    manager: z.object({ cik: z.string().describe('10-digit zero-padded CIK of the institutional manager'), name: z.string().nullable() }),
    quarter: z.string().describe('Calendar quarter of the period (2025Q2)'),
    period: dateField().describe('periodOfReport: the quarter end the holdings are as of'),
    report_type: z.enum(['holdings', 'notice', 'combination']).describe('notice: another manager reports this one\'s holdings'),
    amendment: z
      .object({ number: z.number().int().nullable(), type: z.enum(['restatement', 'new_holdings']).nullable() })
      .nullable()
      .describe('null when not an amendment; a restatement replaces the quarter, new_holdings adds to it'),
    holdings_count: z.number().int().describe('infoTable rows in the filing'),
    value_usd_total: z.number().describe('Sum of the rows\' values in US dollars (values filed in thousands are multiplied by 1000)'),
    value_unit: z.enum(['thousands', 'dollars']).describe('The unit the values were filed in'),
    unit_flag: z.string().nullable().describe('Set when the values contradict their unit (the filing\'s own numbers, or the manager\'s previous quarter); never rescaled'),
    filed_date: dateField(),
    superseded_by: z.string().nullable().describe('The restatement that replaces this filing, when one does'),
    provenance: provenanceSchema,
  })
  .describe('A 13F filing of an institutional manager');

export type ThirteenFFilingBody = z.infer<typeof thirteenFFilingSchema>;

/** Read model -> the `13f.filed` payload. */
export function toThirteenFFiling(f: ThirteenFFilingRecord): ThirteenFFilingBody {
  return {
    accession: f.accession,
    form: f.form,
    manager: { cik: f.managerCik, name: f.managerName },
    quarter: quarterOf(f.period),
    period: f.period,
    report_type: f.reportType as ThirteenFFilingBody['report_type'],
    amendment: f.amendmentType === null && f.amendmentNumber === null && !f.form.endsWith('/A') ? null : { number: f.amendmentNumber, type: f.amendmentType as 'restatement' | 'new_holdings' | null },
    holdings_count: f.holdingsTotal,
    value_usd_total: Number(f.valueUsdTotal),
    value_unit: f.valueUnit as ThirteenFFilingBody['value_unit'],
    unit_flag: f.unitFlag,
    filed_date: f.filedDate,
    superseded_by: f.supersededBy,
    provenance: { ...f.provenance, quote: f.provenance.quote ?? null },
  };
}
