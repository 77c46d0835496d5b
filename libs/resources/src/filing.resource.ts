import { z } from 'zod';
import { eightKItem } from '@app/edgar';
import type { FilingRecord } from '@app/persistence';
import { companyReferenceSchema, dateField, dateTimeField, paginationSchema, provenanceSchema } from './shared.resource';

/** A filing as the API serves it (GET /v1/filings/{accession}) and `filing.created` carries it. */
export const filingSchema = z.object({
  accession: z.string().describe('SEC accession number (dashed)'),
  cik: z.string().describe('10-digit zero-padded CIK of the filer'),
  company_name: z.string().describe('Filer name as the source printed it'),
  symbol: z.string().nullable().describe("<TICKER>:<MARKET> of the filer's primary listing; null when none is known"),
  form: z.string().describe('EDGAR form type as filed (10-K, 8-K, 4, 10-K/A, ...)'),
  filed_date: dateField().describe('Filing date (YYYY-MM-DD)'),
  accepted_at: dateTimeField().nullable().describe('EDGAR acceptance time (ISO 8601, UTC); null when the source did not give it'),
  first_seen_at: dateTimeField()
    .nullable()
    .describe(
      'When this platform first saw the filing in an EDGAR source (ISO 8601, UTC): the live poller\'s fetch of the feed or listing for a new filing, ' +
        'the backfill\'s for history; accepted_at to first_seen_at is how late it was found. Null for filings stored before this was kept',
    ),
  report_period: dateField().nullable().describe('Period of report (YYYY-MM-DD), when given'),
  primary_document_url: z.string().nullable().describe('www.sec.gov URL of the primary document (the filing index page when the source did not name it)'),
  description: z.string().nullable().describe('Description of the primary document, as SEC lists it'),
  items: z
    .array(z.string())
    .nullable()
    .describe('8-K item numbers (["2.02", "9.01"]); [] for a form without items; null while not yet known'),
  item_details: z
    .array(
      z.object({
        number: z.string().describe('Item number ("2.02")'),
        title: z.string().nullable().describe('The item\'s title in Form 8-K'),
        legacy_number: z.string().nullable().describe('Pre-2004 8-K: the old number printed ("5" for 8.01)'),
      }),
    )
    .nullable()
    .describe('The items with their titles; null when items is null'),
  size: z.number().int().nullable().describe('Submission size in bytes, when given'),
  is_amendment: z.boolean().describe('The form ends in /A'),
  amends_accession: z.string().nullable().describe('Accession of the amended filing where known; SEC indexes do not state it, so usually null'),
  provenance: provenanceSchema,
});

export const filingListSchema = z.object({ data: z.array(filingSchema), pagination: paginationSchema });
export const companyFilingListSchema = z.object({ data: z.array(filingSchema), pagination: paginationSchema, company: companyReferenceSchema });

export type FilingBody = z.infer<typeof filingSchema>;
export type FilingListBody = z.infer<typeof filingListSchema>;
export type CompanyFilingListBody = z.infer<typeof companyFilingListSchema>;

/** Read model -> the API's filing item. */
export function toFiling(f: FilingRecord): FilingBody {
  return {
    accession: f.accession,
    cik: f.cik,
    company_name: f.companyName,
    symbol: f.symbol,
    form: f.form,
    filed_date: f.filedDate,
    accepted_at: f.acceptedAt ? f.acceptedAt.toISOString() : null,
    first_seen_at: f.firstSeenAt ? f.firstSeenAt.toISOString() : null,
    report_period: f.reportPeriod,
    primary_document_url: f.primaryDocumentUrl,
    description: f.primaryDocDescription,
    items: f.items,
    item_details: f.items === null ? null : f.items.map((number) => ({
      number,
      title: eightKItem(number)?.title ?? null,
      legacy_number: f.legacyItems?.find((l) => l.number === number)?.legacy_number ?? null,
    })),
    size: f.size === null ? null : Number(f.size),
    is_amendment: f.isAmendment,
    amends_accession: f.amendsAccession,
    provenance: f.provenance,
  };
}
