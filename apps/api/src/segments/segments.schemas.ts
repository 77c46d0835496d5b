import { SEGMENT_UNITS } from '@app/resources';
import { SYMBOL_PATTERN } from '../companies/companies.schemas';
import { CURSOR_PARAM, LIMIT_PARAM, params } from '../platform/query.validation';

export const segmentsPathParams = params({
  symbol: { kind: 'string', pattern: SYMBOL_PATTERN, description: '<TICKER>:<MARKET>, e.g. AAPL:US (case-insensitive)' },
});

/** Query parameters of GET /v1/companies/{symbol}/segments. */
export const segmentsQueryParams = params({
  unit: {
    kind: 'enum',
    values: SEGMENT_UNITS,
    default: 'as_reported',
    description: 'Scale of value.normalized: as_reported (factor 1), thousand (raw / 1e3), million (raw / 1e6), billion (raw / 1e9)',
  },
  cursor: CURSOR_PARAM,
  limit: LIMIT_PARAM,
  direction: {
    kind: 'enum',
    values: ['asc', 'desc'],
    description: 'Sort direction by period end date (then metric key, member); default desc (latest period first). The direction applies to the whole sort key',
  },
});
