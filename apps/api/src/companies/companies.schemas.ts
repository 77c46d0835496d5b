import { AS_OF_PARAM, CURSOR_PARAM, LIMIT_PARAM, params } from '../platform/query.validation';

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
  cursor: CURSOR_PARAM,
  limit: LIMIT_PARAM,
  direction: {
    kind: 'enum',
    values: ['asc', 'desc'],
    description: 'Sort direction by symbol. Companies have no date field, so this list is sorted by symbol and defaults to asc (alphabetical)',
  },
});

export const symbolParam = params({
  symbol: { kind: 'string', pattern: SYMBOL_PATTERN, description: '<TICKER>:<MARKET>, e.g. MSFT:US (case-insensitive)' },
});

/** Query parameters of GET /v1/companies/{symbol}. */
export const companyDetailParams = params({ as_of: AS_OF_PARAM });
