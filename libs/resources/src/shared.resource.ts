import { z } from 'zod';
import type { CompanyListing } from '@app/persistence';

// Shapes many resources share. Registered as OpenAPI components by identity: one object each.

/**
 * A day (YYYY-MM-DD): `format: date` in the OpenAPI document. Documentation only (a mapper makes
 * the value; nothing parses a response), so it adds no pattern to the schemas MCP advertises.
 */
export const dateField = (): z.ZodString => z.string().meta({ format: 'date' });

/** A point in time (ISO 8601, UTC, as Date.toISOString() writes it): `format: date-time`. */
export const dateTimeField = (): z.ZodString => z.string().meta({ format: 'date-time' });

export const provenanceSchema = z
  .object({
    src_id: z.string().describe('Source identifier, prefix src_'),
    source_provider: z.string().describe('sec or issuer_page'),
    source_url: z.string().nullable(),
    citation_url: z.string().optional(),
    accession: z.string().nullable(),
    quote: z.string().nullable(),
    content_hash: z.string().nullable(),
    extracted_at: dateTimeField().nullable(),
  })
  .describe('Where the data came from');

export const paginationSchema = z
  .object({ next_cursor: z.string().nullable(), has_more: z.boolean() });

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

export type CompanyReferenceBody = z.infer<typeof companyReferenceSchema>;

/** Read model -> the spec's company reference. */
export function toCompanyReference(c: CompanyListing): CompanyReferenceBody {
  return {
    symbol: c.symbol,
    ticker: c.ticker,
    market: c.market,
    name: c.name,
    cik: c.cik,
    isin: c.isin,
    figi: c.figi,
    issuer_id: Number(c.issuerId),
  };
}
