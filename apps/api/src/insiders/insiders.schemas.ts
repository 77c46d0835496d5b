import { FORM4_CODE_CLASSIFICATIONS } from '@app/contracts';
import { SYMBOL_PATTERN } from '../companies/companies.schemas';
import { CURSOR_PARAM, LIMIT_PARAM, params } from '../platform/query.validation';

const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';

export const insidersPath = params({
  symbol: { kind: 'string', pattern: SYMBOL_PATTERN, description: '<TICKER>:<MARKET>, e.g. TSLA:US (case-insensitive)' },
});

/** Query parameters of GET /v1/companies/{symbol}/insiders. */
export const insidersParams = params({
  owner: {
    kind: 'string',
    minLength: 1,
    maxLength: 200,
    description: "A reporting owner: digits are the owner's CIK (padded or not), anything else a case-insensitive substring of the name as filed ('musk')",
  },
  codes: {
    kind: 'array',
    items: { kind: 'string', pattern: '^[A-Za-z]$' },
    description: 'Transaction codes as filed (P, S, A, M, F, G, C, ...), case-insensitive; repeat the parameter or separate with commas',
  },
  classification: {
    kind: 'array',
    items: { kind: 'enum', values: FORM4_CODE_CLASSIFICATIONS },
    description: 'Code groups (open_market_purchase, open_market_sale, grant, ...); repeat the parameter for several',
  },
  from: { kind: 'string', pattern: DATE_PATTERN, description: 'Earliest transaction date, inclusive (YYYY-MM-DD); a holding is dated by the period of report' },
  to: { kind: 'string', pattern: DATE_PATTERN, description: 'Latest transaction date, inclusive (YYYY-MM-DD)' },
  derivative: { kind: 'bool', description: 'true: Table II (derivative securities) only; false: Table I (non-derivative) only; omitted: both' },
  kind: { kind: 'enum', values: ['transaction', 'holding'], description: 'transaction (a change) or holding (a position reported without change); omitted: both' },
  include_superseded: { kind: 'bool', default: false, description: 'Also rows a later 4/A restated (their superseded_by names it)' },
  cursor: CURSOR_PARAM,
  limit: LIMIT_PARAM,
  direction: { kind: 'enum', values: ['asc', 'desc'], description: 'Sort direction by transaction date, then accession, table and sequence. Default desc (newest first)' },
});
