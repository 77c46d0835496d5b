import { FACT_PERIODS, STATEMENT_KINDS, STATEMENT_PERIODS, VALUE_SCALES } from '@app/resources';
import { SYMBOL_PATTERN } from '../companies/companies.schemas';
import { AS_OF_PARAM, CURSOR_PARAM, LIMIT_PARAM, params } from '../platform/query.validation';

export const factsPathParams = params({
  symbol: { kind: 'string', pattern: SYMBOL_PATTERN, description: '<TICKER>:<MARKET>, e.g. AAPL:US (case-insensitive)' },
});

const SCALE = {
  kind: 'enum',
  values: VALUE_SCALES,
  default: 'as_reported',
  description: 'Scale of value.normalized (raw / 1, 1e3, 1e6, 1e9); per-share amounts are not scaled',
} as const;

/** Query parameters of GET /v1/companies/{symbol}/facts. */
export const factsQueryParams = params({
  concept: {
    kind: 'string',
    required: true,
    minLength: 1,
    maxLength: 200,
    pattern: '^([A-Za-z][A-Za-z0-9_.-]*:)?[A-Za-z_][A-Za-z0-9_.-]*$',
    description: 'QName (us-gaap:Revenues, ifrs-full:Revenue) or a bare name (looked up in us-gaap, ifrs-full, dei)',
  },
  period: {
    kind: 'enum',
    values: FACT_PERIODS,
    default: 'all',
    description: 'annual (350-380 days), quarter (80-100 days), instant, or all (year to date too)',
  },
  as_of: AS_OF_PARAM,
  history: { kind: 'bool', default: false, description: 'true: every report of each value, oldest first, with its status; false: the latest report' },
  dimensioned: { kind: 'bool', default: false, description: 'true: dimensional values too (segments, products, regions); false: consolidated only' },
  unit: SCALE,
  cursor: CURSOR_PARAM,
  limit: LIMIT_PARAM,
  direction: { kind: 'enum', values: ['asc', 'desc'], description: 'By period end (then start, unit, dimensions); default desc' },
});

/** Query parameters of GET /v1/companies/{symbol}/financials. */
export const financialsQueryParams = params({
  statement: { kind: 'enum', values: STATEMENT_KINDS, default: 'income', description: 'income, balance or cash_flow' },
  period: { kind: 'enum', values: STATEMENT_PERIODS, default: 'annual', description: 'annual (fiscal years) or quarter' },
  as_of: AS_OF_PARAM,
  unit: SCALE,
  limit: { kind: 'int', minimum: 1, maximum: 80, default: 5, description: 'Number of periods, newest first, 1 to 80 (free plan: 25)' },
});
