import { SYMBOL_PATTERN } from '../companies/companies.schemas';
import { params } from '../platform/query.validation';

export const sectionPathParams = params({
  symbol: { kind: 'string', pattern: SYMBOL_PATTERN, description: '<TICKER>:<MARKET>, e.g. TSLA:US (case-insensitive)' },
  item: { kind: 'string', pattern: '^(1|1[aA]|7)$', description: 'The 10-K item: 1 (Business), 1A (Risk Factors) or 7 (MD&A); case-insensitive' },
});
