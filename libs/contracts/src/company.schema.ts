import { z } from 'zod';
import { envelopeSchema } from './envelope.schema';

const cik = z.string().regex(/^\d{10}$/).describe('10-digit zero-padded SEC CIK');

/** Company detail as read from data.sec.gov's submissions JSON; null fields were empty there. */
export const companyDetailSchema = z.object({
  sec_name: z.string().describe('Conformed name in the submissions JSON'),
  entity_type: z.string().nullable().describe('SEC entityType, e.g. operating'),
  sic: z.string().nullable(),
  sic_description: z.string().nullable(),
  category: z.string().nullable().describe('Filer category, e.g. Large accelerated filer'),
  fiscal_year_end: z.string().regex(/^\d{4}$/).nullable().describe('MMDD'),
  state_of_incorporation: z.string().nullable(),
  country: z.string().nullable().describe('ISO 3166 alpha-2 country of the business address, when it can be told'),
  website: z.string().nullable(),
  investor_website: z.string().nullable(),
  description: z.string().nullable().describe('SEC description field (usually empty)'),
  ein: z.string().nullable(),
  lei: z.string().nullable(),
  phone: z.string().nullable(),
  tickers: z.array(z.string()).describe('All tickers SEC lists for the issuer'),
  exchanges: z.array(z.string().nullable()),
  former_names: z.array(z.object({ name: z.string(), from: z.string().nullable(), to: z.string().nullable() })),
  is_fund: z.boolean().describe('True when SEC classes the filer as an investment company'),
});

/** edgar.companies.v1 data: one listing (ticker on a market) of an issuer. */
export const companyDataSchema = z.object({
  cik,
  ticker: z.string().min(1).describe('Ticker as in the SEC ticker map'),
  market: z.string().min(1).describe('Market code; US for US listings'),
  name: z.string().min(1).describe('Issuer name as in the SEC ticker map'),
  listing_exchange: z.string().nullable().describe('Exchange of the listing (Nasdaq, NYSE, ...), null when SEC gives none'),
  reference_source: z.object({
    source_url: z.string().url(),
    content_hash: z.string(),
  }).describe('The ticker map the reference fields came from'),
  detail: companyDetailSchema.nullable().describe('Null until the submissions JSON has been fetched'),
});

export type CompanyDetail = z.infer<typeof companyDetailSchema>;
export type CompanyData = z.infer<typeof companyDataSchema>;

export const companyRecordV1 = envelopeSchema('company@1', companyDataSchema);
export type CompanyRecordV1 = z.infer<typeof companyRecordV1>;
