import { z } from 'zod';
import { companyReferenceSchema, paginationSchema, provenanceSchema } from '@app/resources';
import { SYMBOL_PATTERN } from '../companies/companies.schemas';
import { params } from '../platform/query.validation';

export const ACCESSION_PATTERN = '^\\d{10}-\\d{2}-\\d{6}$';
const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';

/** Filters shared by GET /v1/filings and GET /v1/companies/{symbol}/filings. */
const filingFilters = params({
  forms: {
    kind: 'array',
    items: { kind: 'string', minLength: 1, maxLength: 20, pattern: '^[A-Za-z0-9 ./-]{1,20}$' },
    description: 'Form types (10-K, 10-Q, 8-K, 4, 10-K/A, ...), case-insensitive; repeat the parameter or separate with commas. An amendment is its own form type',
  },
  filed_from: { kind: 'string', pattern: DATE_PATTERN, description: 'Earliest filing date, inclusive (YYYY-MM-DD)' },
  filed_to: { kind: 'string', pattern: DATE_PATTERN, description: 'Latest filing date, inclusive (YYYY-MM-DD)' },
  cursor: { kind: 'string', minLength: 1, maxLength: 1024, description: 'Opaque cursor from the previous page, passed back unchanged' },
  limit: { kind: 'int', minimum: 1, maximum: 500, default: 50, description: 'Page size, 1 to 500 (free plan and sk_test_ keys: at most 25)' },
  direction: { kind: 'enum', values: ['asc', 'desc'], description: 'Sort direction by filing date, then accession. Default desc (newest first)' },
});

export const filingsListParams = params({
  ciks: { kind: 'array', items: { kind: 'string', pattern: '^\\d{1,10}$' }, description: 'Filer CIKs, padded or not (789019 or 0000789019)' },
  ...filingFilters,
});

export const companyFilingsParams = params({ ...filingFilters });

export const companyFilingsPath = params({
  symbol: { kind: 'string', pattern: SYMBOL_PATTERN, description: '<TICKER>:<MARKET>, e.g. MSFT:US (case-insensitive)' },
});

export const accessionParam = params({
  accession: { kind: 'string', pattern: ACCESSION_PATTERN, description: 'SEC accession number, dashed: 0000950170-25-100235' },
});

export const filingSchema = z.object({
  accession: z.string().describe('SEC accession number (dashed)'),
  cik: z.string().describe('10-digit zero-padded CIK of the filer'),
  company_name: z.string().describe('Filer name as the source printed it'),
  form: z.string().describe('EDGAR form type as filed (10-K, 8-K, 4, 10-K/A, ...)'),
  filed_date: z.string().describe('Filing date (YYYY-MM-DD)'),
  accepted_at: z.string().nullable().describe('EDGAR acceptance time (ISO 8601, UTC); null when the source did not give it'),
  report_period: z.string().nullable().describe('Period of report (YYYY-MM-DD), when given'),
  primary_document_url: z.string().nullable().describe('www.sec.gov URL of the primary document (the filing index page when the source did not name it)'),
  description: z.string().nullable().describe('Description of the primary document, as SEC lists it'),
  items: z.array(z.string()).describe('8-K item numbers; empty when none'),
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
