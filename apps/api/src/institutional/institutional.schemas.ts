import { SYMBOL_PATTERN } from '../companies/companies.schemas';
import { AS_OF_PARAM, CURSOR_PARAM, LIMIT_PARAM, params } from '../platform/query.validation';

const QUARTER = { kind: 'string', pattern: '^\\d{4}[Qq][1-4]$', description: 'Calendar quarter, e.g. 2025Q2; default: the latest with data' } as const;

export const companyHoldersPath = params({ symbol: { kind: 'string', pattern: SYMBOL_PATTERN, description: '<TICKER>:<MARKET>, e.g. MSFT:US (case-insensitive)' } });
export const securityHoldersPath = params({ cusip: { kind: 'string', pattern: '^[0-9A-Za-z]{9}$', description: 'A 9-character CUSIP' } });
export const institutionPath = params({ cik: { kind: 'string', pattern: '^\\d{1,10}$', description: "The manager's CIK, padded or not" } });

/** GET /v1/companies/{symbol}/institutional-holders */
export const companyHoldersParams = params({
  quarter: QUARTER,
  sort: { kind: 'enum', values: ['value', 'shares', 'change'], default: 'value', description: 'value or shares (largest first), change (share delta, largest first, unknown last)' },
  cursor: CURSOR_PARAM,
  limit: LIMIT_PARAM,
  as_of: AS_OF_PARAM,
});

/** GET /v1/securities/{cusip}/institutional-holders: one order, by value. */
export const securityHoldersParams = params({ quarter: QUARTER, cursor: CURSOR_PARAM, limit: LIMIT_PARAM });

/** GET /v1/institutions */
export const institutionsParams = params({
  q: { kind: 'string', minLength: 1, maxLength: 200, description: 'Manager name (fuzzy), or digits: a CIK' },
  cursor: CURSOR_PARAM,
  limit: LIMIT_PARAM,
});

/** GET /v1/institutions/{cik}/holdings */
export const institutionHoldingsParams = params({
  quarter: QUARTER,
  sort: { kind: 'enum', values: ['value', 'change'], default: 'value', description: 'value (largest first) or change (share delta, largest first, unknown last)' },
  cursor: CURSOR_PARAM,
  limit: LIMIT_PARAM,
});
