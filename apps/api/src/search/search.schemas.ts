import { SEARCH_KINDS } from '@app/persistence';
import { CURSOR_PARAM, LIMIT_PARAM, params } from '../platform/query.validation';

/** Characters of `q` accepted; longer answers 422 string_too_long (a pasted paragraph fits). */
export const SEARCH_Q_MAX_CHARS = 1000;

/** Query parameters of GET /v1/search. */
export const searchParams = params({
  q: {
    kind: 'string',
    minLength: 1,
    maxLength: SEARCH_Q_MAX_CHARS,
    description:
      `What to look for, 1 to ${SEARCH_Q_MAX_CHARS} characters (longer: 422 string_too_long; NUL: 422 value_error). Words match whole words ` +
      '(English stemming in document text: "leases" finds "leasing"); "quoted words" match as a phrase; -word excludes; OR between words ' +
      'accepts either. Anything else is taken as plain words: no syntax error is possible. A ticker, <TICKER>:<MARKET> symbol, CIK or ' +
      'accession number matches exactly and ranks first; names also match approximately (misspellings, word order, accents)',
  },
  kinds: {
    kind: 'array',
    items: { kind: 'enum', values: SEARCH_KINDS },
    description: 'Only these kinds of hits (default: all); repeat the parameter or separate with commas',
  },
  cursor: { ...CURSOR_PARAM, description: 'Opaque cursor from the previous page (with the same q and kinds)' },
  limit: LIMIT_PARAM,
});
