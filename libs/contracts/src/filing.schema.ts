import { z } from 'zod';
import { envelopeSchema } from './envelope.schema';

const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** edgar.filings.v1 data: one EDGAR filing (submission), keyed by its accession number. */
export const filingDataSchema = z.object({
  accession: z.string().regex(/^\d{10}-\d{2}-\d{6}$/).describe('SEC accession number, dashed (0000950170-25-100235); the natural key'),
  cik: z.string().regex(/^\d{10}$/).describe('10-digit zero-padded CIK of the filer the record was read for (for co-registrant filings, the covered company)'),
  company_name: z.string().min(1).describe('Filer name as the source prints it'),
  form: z.string().min(1).describe('EDGAR form type as filed, e.g. 10-K, 8-K, 4, 10-K/A'),
  filed_date: date.describe('Filing date (YYYY-MM-DD, EDGAR business day)'),
  accepted_at: z
    .string()
    .datetime({ offset: true })
    .nullable()
    .describe(
      'EDGAR acceptance time (ISO 8601, UTC): from the submissions JSON, the latest-filings Atom feed, the complete submission header or, for rows ' +
        'of the daily index and current events listing, the filing index page; null only when none of them could be read',
    ),
  report_period: date.nullable().describe('Period of report (YYYY-MM-DD); null when the source does not give it or the form has none'),
  primary_document_url: z.string().url().nullable().describe(
    'Absolute www.sec.gov URL of the primary document (/Archives/edgar/data/<cik unpadded>/<accession without dashes>/<document>); ' +
      'for daily index and current events rows, which do not name it, the filing index page',
  ),
  primary_doc_description: z.string().nullable().describe('Description of the primary document, as in the submissions JSON'),
  items: z
    .array(z.string())
    .nullable()
    .describe(
      '8-K item numbers in today\'s numbering (e.g. ["2.02", "9.01"]), ascending; [] for a form without items; ' +
        'null while not known (an 8-K read from the daily index or current events, until the 8-K worker reads its submission). ' +
        'Records written before 8-K items were mapped hold SEC\'s raw values, whatever the form',
    ),
  legacy_items: z
    .array(z.object({ number: z.string(), legacy_number: z.string() }))
    .optional()
    .describe('Items of an 8-K filed before 2004-08-23 under the old numbering: each mapped number with the number the filing printed ("5" -> "8.01")'),
  size: z.number().int().nonnegative().nullable().describe('Size of the submission in bytes; null when not given'),
  is_xbrl: z.boolean().nullable().describe('The filing carries XBRL; null when the source does not say'),
  is_inline_xbrl: z.boolean().nullable().describe('The filing carries inline XBRL; null when the source does not say'),
  is_amendment: z.boolean().describe('The form ends in /A'),
  amends_accession: z.string().regex(/^\d{10}-\d{2}-\d{6}$/).nullable().describe(
    'Accession of the filing this one amends, where known. None of the sources read (submissions JSON, daily index, ' +
      'current events listing) states it: an amendment names its original only inside its own document, so this is null ' +
      'unless a later source supplies it',
  ),
  act: z.string().nullable().describe('Securities act (33, 34, 40) when given'),
  file_number: z.string().nullable().describe('SEC file number when given'),
  film_number: z.string().nullable().describe('Film number when given'),
  source: z
    .enum(['submissions', 'submission_text', 'daily_index', 'current_events', 'latest_filings'])
    .describe(
      'Which EDGAR source the record was read from (submission_text: the complete submission .txt, which the 8-K worker reads for the items; ' +
        'latest_filings: the getcurrent Atom feed of the latest filings, all forms)',
    ),
});

export type FilingData = z.infer<typeof filingDataSchema>;

export const filingRecordV1 = envelopeSchema('filing@1', filingDataSchema);
export type FilingRecordV1 = z.infer<typeof filingRecordV1>;
