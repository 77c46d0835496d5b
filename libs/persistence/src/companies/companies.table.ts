import type { CompanyDetail, Provenance } from '@app/contracts';
import { bigint, boolean, char, date, integer, jsonb, text, timestamptz, table } from '../table';

/** Read model of one listing (ticker on a market). Written only by the projector. */
export const COMPANIES_TABLE = table('companies', ['symbol'], {
  symbol: text(),
  ticker: text(),
  market: text(),
  cik: char(10),
  name: text(),
  figi: text().nullable(),
  issuer_id: bigint().readAs<number>((c) => `${c}::float8`),
  listing_exchange: text().nullable(),
  website: text().nullable(),
  country: text().nullable(),
  is_etf: boolean().default('false'),
  is_fund: boolean().default('false'),
  is_adr: boolean().default('false'),
  status: text().default("'active'::text"),
  description: text().nullable(),
  description_provenance: jsonb<Provenance>().nullable(),
  /** Everything else SEC's submissions JSON said, as the record carried it; null until fetched. */
  sec_detail: jsonb<CompanyDetail>().nullable(),
  provenance: jsonb<Provenance>(),
  record_id: text(),
  /** Hash of the record's data: an unchanged hash means no write. */
  data_hash: text(),
  observed_at: timestamptz(),
  updated_at: timestamptz().default('now()'),
});

/**
 * The issuer's own description of itself (ir.descriptions.v1), by CIK. Kept apart from `companies`
 * so neither topic has to arrive first and the SEC fields are never overwritten; the companies
 * detail reads it when present.
 */
export const COMPANY_DESCRIPTIONS_TABLE = table('company_descriptions', ['cik'], {
  cik: char(10),
  ticker: text().nullable(),
  description: text(),
  src_id: text(),
  source_url: text(),
  quote: text(),
  content_hash: text(),
  extracted_at: timestamptz().nullable(),
  record_id: text(),
  observed_at: timestamptz(),
  updated_at: timestamptz().default('now()'),
});

/**
 * Read model of one identifier candidate an N-PORT holding gives a company: an ISIN of a listing
 * (`subject` = its symbol) or an LEI of an issuer (`subject` = its CIK). One row per distinct
 * value, citing the newest holding that gave it; a subject with two values is ambiguous and
 * serves neither. Written only by the projector (fund-holdings@1); rows stay when a fund sells:
 * a filing that gave an identifier stays on EDGAR.
 */
export const COMPANY_IDENTIFIERS_TABLE = table('company_identifiers', ['scheme', 'subject', 'value'], {
  /** isin or lei. */
  scheme: text(),
  subject: text(),
  value: text(),
  cik: char(10),
  /** filed (the holding's own identifiers/isin or lei) or cusip (US + CUSIP + check digit). */
  derivation: text(),
  fund_key: text(),
  fund_name: text().nullable(),
  accession: text(),
  holding_index: integer(),
  report_date: date(),
  cusip: text().nullable(),
  /** The fund filing's provenance with the holding's XML (from <name> through the identifier) as the quote. */
  provenance: jsonb<Provenance>(),
  updated_at: timestamptz().default('now()'),
});
