import { AS_OF_PARAM, CURSOR_PARAM, LIMIT_PARAM, params } from '../platform/query.validation';

export const SORT_PATTERN = '^(weight|value)$';

/** Query parameters of GET /v1/companies/{symbol}/fund-exposure. */
export const fundExposureParams = params({
  sort: { kind: 'string', pattern: SORT_PATTERN, default: 'weight', description: 'weight (share of the fund, largest first) or value (market value in USD, largest first)' },
  etfs_only: {
    kind: 'bool',
    default: false,
    description: 'Only exchange-traded funds. N-PORT has no ETF flag: a fund counts as an ETF when its series or registrant name says ETF',
  },
  cursor: CURSOR_PARAM,
  limit: LIMIT_PARAM,
  as_of: AS_OF_PARAM,
});
