import { SEGMENT_UNITS } from '@app/resources';
import { SYMBOL_PATTERN } from '../companies/companies.schemas';
import { params } from '../platform/query.validation';

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
  cursor: { kind: 'string', minLength: 1, maxLength: 1024, description: 'Opaque cursor from the previous page, passed back unchanged' },
  limit: { kind: 'int', minimum: 1, maximum: 500, default: 50, description: 'Page size, 1 to 500 (free plan and sk_test_ keys: at most 25)' },
  direction: {
    kind: 'enum',
    values: ['asc', 'desc'],
    description: 'Sort direction by period end date (then metric key, member); default desc (latest period first). The direction applies to the whole sort key',
  },
});
