import { params } from '../platform/query.validation';

export const freshnessParams = params({
  last: {
    kind: 'int',
    minimum: 1,
    maximum: 1000,
    default: 200,
    description: 'How many of the most recently accepted filings found by live discovery to measure, 1 to 1000 (default 200)',
  },
  form: {
    kind: 'string',
    minLength: 1,
    maxLength: 20,
    pattern: '^[A-Za-z0-9./-](?:[A-Za-z0-9 ./-]{0,18}[A-Za-z0-9./-])?$',
    description: 'Only filings of this form type (8-K, 10-Q, 4, 10-K/A, ...), case-insensitive: the window is then the last `last` filings of that form',
  },
});
