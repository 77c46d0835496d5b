import { SYMBOL_PATTERN } from '../companies/companies.schemas';
import { params } from '../platform/query.validation';

export const ACCESSION_PATTERN = '^\\d{10}-\\d{2}-\\d{6}$';
const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';

/** Filters shared by GET /v1/filings and GET /v1/companies/{symbol}/filings. */
const filingFilters = params({
  forms: {
    kind: 'array',
    items: { kind: 'string', minLength: 1, maxLength: 20, pattern: '^[A-Za-z0-9 ./-]{1,20}$' },
    description: 'Form types (10-K, 10-Q, 8-K, 4, 10-K/A, ...), case-insensitive; repeat the parameter or separate with commas. An amendment is its own form type',
  },
  filed_from: { kind: 'string', pattern: DATE_PATTERN, description: 'Earliest filing date, inclusive (YYYY-MM-DD)' },
  filed_to: { kind: 'string', pattern: DATE_PATTERN, description: 'Latest filing date, inclusive (YYYY-MM-DD)' },
  cursor: { kind: 'string', minLength: 1, maxLength: 1024, description: 'Opaque cursor from the previous page, passed back unchanged' },
  limit: { kind: 'int', minimum: 1, maximum: 500, default: 50, description: 'Page size, 1 to 500 (free plan and sk_test_ keys: at most 25)' },
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
