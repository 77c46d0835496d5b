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
