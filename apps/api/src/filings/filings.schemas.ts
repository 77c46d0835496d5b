import { SYMBOL_PATTERN } from '../companies/companies.schemas';
import { CURSOR_PARAM, LIMIT_PARAM, params } from '../platform/query.validation';

export const ACCESSION_PATTERN = '^\\d{10}-\\d{2}-\\d{6}$';
const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';

/** Filters shared by GET /v1/filings and GET /v1/companies/{symbol}/filings. */
const filingFilters = params({
  forms: {
    kind: 'array',
    items: { kind: 'string', minLength: 1, maxLength: 20, pattern: '^[A-Za-z0-9 ./-]{1,20}$' },
    description: 'Form types (10-K, 10-Q, 8-K, 4, 10-K/A, ...), case-insensitive; repeat the parameter or separate with commas. An amendment is its own form type',
  },
  items: {
    kind: 'array',
    items: { kind: 'string', pattern: '^\\d{1,2}\\.\\d{2}$' },
    description: '8-K item numbers (2.02 results, 5.02 officers, ...): filings with any of them; repeat the parameter or separate with commas',
  },
  filed_from: { kind: 'string', pattern: DATE_PATTERN, description: 'Earliest filing date, inclusive (YYYY-MM-DD)' },
  filed_to: { kind: 'string', pattern: DATE_PATTERN, description: 'Latest filing date, inclusive (YYYY-MM-DD)' },
  cursor: CURSOR_PARAM,
  limit: LIMIT_PARAM,
  direction: { kind: 'enum', values: ['asc', 'desc'], description: 'Sort direction by filing date, then accession. Default desc (newest first)' },
});

export const filingsListParams = params({
  ciks: { kind: 'array', items: { kind: 'string', pattern: '^\\d{1,10}$' }, description: 'Filer CIKs, padded or not (789019 or 0000789019)' },
  ...filingFilters,
});

export const companyFilingsParams = params({ ...filingFilters });

export const companyFilingsPath = params({
  symbol: { kind: 'string', pattern: SYMBOL_PATTERN, description: '<TICKER>:<MARKET>, e.g. MSFT:US (case-insensitive)' },
});

export const accessionParam = params({
  accession: { kind: 'string', pattern: ACCESSION_PATTERN, description: 'SEC accession number, dashed: 0000950170-25-100235' },
});
