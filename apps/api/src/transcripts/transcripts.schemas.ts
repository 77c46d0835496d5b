import { SYMBOL_PATTERN } from '../companies/companies.schemas';
import { CURSOR_PARAM, LIMIT_PARAM, params } from '../platform/query.validation';

const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';

/** Query parameters of GET /v1/transcripts. */
export const transcriptsListParams = params({
  symbols: {
    kind: 'array',
    items: { kind: 'string', pattern: SYMBOL_PATTERN },
    description:
      "<TICKER>:<MARKET> symbols (case-insensitive): transcripts of the listed companies' issuers (by CIK); a symbol no company is listed under matches nothing. " +
      'Repeat the parameter or separate with commas',
  },
  from: { kind: 'string', pattern: DATE_PATTERN, description: 'Earliest call date, inclusive (YYYY-MM-DD)' },
  to: { kind: 'string', pattern: DATE_PATTERN, description: 'Latest call date, inclusive (YYYY-MM-DD)' },
  cursor: CURSOR_PARAM,
  limit: LIMIT_PARAM,
  direction: { kind: 'enum', values: ['asc', 'desc'], description: 'Sort direction by call date, then id. Default desc (newest first)' },
});

export const transcriptIdParam = params({
  transcript_id: { kind: 'int', minimum: 1, maximum: 2_147_483_647, description: 'Transcript id (integer)' },
});
