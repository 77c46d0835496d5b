import { z } from 'zod';
import { params } from '../platform/query.validation';

export const SYMBOL_PATTERN = '^[A-Za-z0-9.\\-]{1,10}:[A-Za-z]{2,6}$';

/** Query parameters of GET /v1/companies (validation and OpenAPI both come from here). */
export const companiesListParams = params({
  q: { kind: 'string', minLength: 1, maxLength: 200, description: 'Case-insensitive substring of the name or the ticker' },
  markets: { kind: 'array', items: { kind: 'string', pattern: '^[A-Za-z]{2,6}$' }, description: 'Market codes (e.g. US); repeat the parameter or separate with commas' },
  sector: { kind: 'string', maxLength: 200, description: 'Accepted for compatibility; sector is not stored, so it has no effect on the data' },
  tickers: { kind: 'array', items: { kind: 'string', pattern: '^[A-Za-z0-9.\\-]{1,10}$' }, description: 'Tickers (case-insensitive)' },
  ciks: { kind: 'array', items: { kind: 'string', pattern: '^\\d{1,10}$' }, description: 'SEC CIKs, padded or not (320193 or 0000320193)' },
  isins: { kind: 'array', items: { kind: 'string', pattern: '^[A-Za-z]{2}[A-Za-z0-9]{9}\\d$' }, description: 'ISINs' },
  figis: { kind: 'array', items: { kind: 'string', pattern: '^[A-Za-z0-9]{12}$' }, description: 'FIGIs' },
  issuer_ids: { kind: 'array', items: { kind: 'int', minimum: 1, maximum: 9_999_999_999 }, description: 'Issuer ids (the CIK as a number)' },
  active_only: { kind: 'bool', default: true, description: "Only listings whose status is 'active'" },
  cursor: { kind: 'string', minLength: 1, maxLength: 1024, description: 'Opaque cursor from the previous page, passed back unchanged' },
  limit: { kind: 'int', minimum: 1, maximum: 500, default: 50, description: 'Page size, 1 to 500 (free plan and sk_test_ keys: at most 25)' },
  direction: {
    kind: 'enum',
    values: ['asc', 'desc'],
    description: 'Sort direction by symbol. Companies have no date field, so this list is sorted by symbol and defaults to asc (alphabetical)',
  },
});

export const symbolParam = params({
  symbol: { kind: 'string', pattern: SYMBOL_PATTERN, description: '<TICKER>:<MARKET>, e.g. MSFT:US (case-insensitive)' },
});

export const provenanceSchema = z
  .object({
    src_id: z.string().describe('Source identifier, prefix src_'),
    source_provider: z.string().describe('sec or issuer_page'),
    source_url: z.string().nullable(),
    citation_url: z.string().optional(),
    accession: z.string().nullable(),
    quote: z.string().nullable(),
    content_hash: z.string().nullable(),
    extracted_at: z.string().nullable(),
  })
  .describe('Where the data came from');

export const companyReferenceSchema = z
  .object({
    symbol: z.string().describe('<TICKER>:<MARKET>'),
    ticker: z.string(),
    market: z.string().describe('Market code'),
    name: z.string(),
    cik: z.string().describe('10-digit zero-padded SEC CIK'),
    isin: z.string().nullable(),
    figi: z.string().nullable(),
    issuer_id: z.number().int().describe('The CIK as a number'),
  });

export const identifierSourceSchema = z
  .object({
    source: z.enum(['nport_holding', 'sec_submissions']).describe('nport_holding: a fund\'s N-PORT holding of the security; sec_submissions: the issuer\'s submissions JSON'),
    derivation: z.enum(['filed', 'cusip']).describe('filed: the identifier as the source gives it; cusip: an ISIN computed as US + the holding\'s CUSIP + the ISIN check digit'),
    fund: z
      .object({
        key: z.string().describe('Series id, or CIK<10 digits> for a registrant without series'),
        name: z.string().nullable(),
        accession: z.string().describe('Accession of the fund\'s N-PORT filing'),
        holding_index: z.number().int().describe('0-based position of the holding (invstOrSec) in the filing'),
        as_of_date: z.string().describe('The date the fund\'s holdings are as of (YYYY-MM-DD)'),
      })
      .nullable()
      .describe('The fund filing and holding the identifier was read from; null for sec_submissions'),
    cusip: z.string().nullable().describe('The CUSIP the holding files'),
    provenance: provenanceSchema.describe('The fund filing\'s primary_doc.xml; the quote is the holding\'s XML from <name> through the identifier\'s element'),
  })
  .describe('Where an identifier came from');

export const formerNameSchema = z
  .object({
    name: z.string(),
    from: z.string().nullable().describe('Date the name was taken (YYYY-MM-DD), as SEC lists it'),
    to: z.string().nullable().describe('Date the name was left (YYYY-MM-DD)'),
  });

export const companyDetailSchema = companyReferenceSchema
  .extend({
    lei: z.string().nullable().describe("The issuer's LEI: from its submissions JSON, else from N-PORT holdings of its securities (null when none or ambiguous, see _gaps)"),
    identifier_sources: z
      .object({ isin: identifierSourceSchema.nullable(), lei: identifierSourceSchema.nullable() })
      .describe('Where `isin` and `lei` came from; null where the identifier is null'),
    sic: z.string().nullable().describe('SEC Standard Industrial Classification code, from the submissions JSON'),
    sic_description: z.string().nullable().describe('SEC\'s description of the SIC code'),
    investor_website: z.string().nullable().describe('The investor-relations website the submissions JSON lists (null when empty there)'),
    former_names: z.array(formerNameSchema).describe('Names the issuer filed under before, from the submissions JSON'),
    website: z.string().nullable(),
    country: z.string().nullable(),
    listing_exchange: z.string().nullable(),
    is_etf: z.boolean(),
    is_fund: z.boolean(),
    is_adr: z.boolean(),
    status: z.string().describe("Observed value 'active'"),
    sector: z.null().describe('Not stored by this service'),
    industry: z.null().describe('Not stored by this service'),
    employee_count: z.null().describe('Not stored by this service'),
    description: z.string().nullable().describe('Null when no description has been captured (see _gaps)'),
    description_provenance: provenanceSchema.nullable(),
    provenance: provenanceSchema,
    _gaps: z.array(z.string()).describe('Human-readable notes on every field this response cannot fill'),
  });

export const paginationSchema = z
  .object({ next_cursor: z.string().nullable(), has_more: z.boolean() });

export const companyListSchema = z
  .object({ data: z.array(companyReferenceSchema), pagination: paginationSchema });

export type CompanyReferenceBody = z.infer<typeof companyReferenceSchema>;
export type CompanyDetailBody = z.infer<typeof companyDetailSchema>;
export type CompanyListBody = z.infer<typeof companyListSchema>;
