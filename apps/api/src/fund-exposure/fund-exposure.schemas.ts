import { z } from 'zod';
import { companyReferenceSchema, paginationSchema, provenanceSchema } from '@app/resources';
import { params } from '../platform/query.validation';

export const SORT_PATTERN = '^(weight|value)$';

/** Query parameters of GET /v1/companies/{symbol}/fund-exposure. */
export const fundExposureParams = params({
  sort: { kind: 'string', pattern: SORT_PATTERN, default: 'weight', description: 'weight (share of the fund, largest first) or value (market value in USD, largest first)' },
  etfs_only: {
    kind: 'bool',
    default: false,
    description: 'Only exchange-traded funds. N-PORT has no ETF flag: a fund counts as an ETF when its series or registrant name says ETF',
  },
  cursor: { kind: 'string', minLength: 1, maxLength: 1024, description: 'Opaque cursor from the previous page, passed back unchanged' },
  limit: { kind: 'int', minimum: 1, maximum: 500, default: 50, description: 'Page size, 1 to 500 (free plan and sk_test_ keys: at most 25)' },
});

export const valueObjectSchema = z.object({
  raw: z.number().describe('As reported (valUSD)'),
  normalized: z.number(),
  unit: z.string().describe('Currency code'),
  original_unit: z.string(),
  conversion_factor: z.number(),
});

export const fundExposureEntrySchema = z.object({
  fund_ticker: z.string().nullable().describe('Ticker of the fund (a class ticker, or the listed registrant\'s); null when N-PORT gives none'),
  fund_name: z.string().describe('Series name, else registrant name'),
  weight: z.number().describe('Fraction of the fund\'s net assets (pctVal / 100)'),
  weight_pct: z.number().describe('Percent of the fund\'s net assets, as filed (pctVal)'),
  shares: z.number().int().nullable().describe('Number of shares (balance when units are NS); null for other units'),
  market_value: valueObjectSchema,
  as_of_date: z.string().describe('Report period date of the N-PORT filing (repPdDate), YYYY-MM-DD'),
  provenance: provenanceSchema,
});

export const fundExposureSchema = z.object({
  data: z.array(fundExposureEntrySchema),
  pagination: paginationSchema,
  company: companyReferenceSchema,
  alpha: z.boolean().describe('Always true: this endpoint is alpha-stage'),
  fund_count: z.number().int().describe('Distinct funds holding the company\'s common equity (under the same filters)'),
  _gaps: z.array(z.string()).describe('What this data cannot show'),
});

export type FundExposureEntryBody = z.infer<typeof fundExposureEntrySchema>;
export type FundExposureBody = z.infer<typeof fundExposureSchema>;
