import type { ValidationItem } from './api.errors';
import { isCalendarDate, QueryParser } from './query.validation';

const parser = new QueryParser({
  q: { kind: 'string', minLength: 1, maxLength: 5, description: '' },
  limit: { kind: 'int', minimum: 1, maximum: 500, default: 50, description: '' },
  active_only: { kind: 'bool', default: true, description: '' },
  direction: { kind: 'enum', values: ['asc', 'desc'], description: '' },
  ciks: { kind: 'array', items: { kind: 'string', pattern: '^\\d{1,10}$' }, description: '' },
  issuer_ids: { kind: 'array', items: { kind: 'int', minimum: 1 }, description: '' },
});

function run(query: Record<string, unknown>): { out: Record<string, unknown>; items: ValidationItem[] } {
  const items: ValidationItem[] = [];
  const out = parser.parse(query, items);
  return { out, items };
}

describe('QueryParser', () => {
  it('applies defaults and coerces', () => {
    expect(run({}).out).toEqual({ limit: 50, active_only: true });
    expect(run({ limit: '7', active_only: 'no', direction: 'desc', ciks: ['1', '2,3'], unknown: 'x' })).toEqual({
      out: { limit: 7, active_only: false, direction: 'desc', ciks: ['1', '2', '3'] },
      items: [],
    });
  });

  it('takes the last of repeated scalars', () => {
    expect(run({ limit: ['5', '9'] }).out.limit).toBe(9);
  });

  it.each([
    [{ limit: '0' }, { type: 'greater_than_equal', loc: ['query', 'limit'], msg: 'Input should be greater than or equal to 1', input: '0', ctx: { ge: 1 } }],
    [{ limit: '-0' }, { type: 'greater_than_equal', loc: ['query', 'limit'], ctx: { ge: 1 } }],
    [{ limit: '501' }, { type: 'less_than_equal', loc: ['query', 'limit'], msg: 'Input should be less than or equal to 500', input: '501', ctx: { le: 500 } }],
    [{ limit: '99999999999999999999999' }, { type: 'less_than_equal', ctx: { le: 500 } }],
    [{ limit: 'abc' }, { type: 'int_parsing', loc: ['query', 'limit'], msg: 'Input should be a valid integer, unable to parse string as an integer', input: 'abc' }],
    [{ limit: '1e3' }, { type: 'int_parsing' }],
    [{ limit: '1.5' }, { type: 'int_parsing' }],
    [{ limit: '' }, { type: 'int_parsing' }],
    [{ active_only: 'maybe' }, { type: 'bool_parsing', loc: ['query', 'active_only'], msg: 'Input should be a valid boolean, unable to interpret input', input: 'maybe' }],
    [{ direction: 'up' }, { type: 'literal_error', loc: ['query', 'direction'], msg: "Input should be 'asc' or 'desc'", input: 'up', ctx: { expected: "'asc' or 'desc'" } }],
    [{ q: '' }, { type: 'string_too_short', loc: ['query', 'q'], msg: 'String should have at least 1 character', input: '', ctx: { min_length: 1 } }],
    [{ q: 'abcdef' }, { type: 'string_too_long', msg: 'String should have at most 5 characters', ctx: { max_length: 5 } }],
    [{ ciks: ['1', 'x'] }, { type: 'string_pattern_mismatch', loc: ['query', 'ciks', 1], msg: "String should match pattern '^\\d{1,10}$'", input: 'x', ctx: { pattern: '^\\d{1,10}$' } }],
    [{ q: 'a\u0000' }, { type: 'value_error', loc: ['query', 'q'], msg: 'Value error, Input should not contain NUL characters' }],
    [{ issuer_ids: 'a' }, { type: 'int_parsing', loc: ['query', 'issuer_ids', 0] }],
  ])('%j -> pydantic item', (query, expected) => {
    const { items } = run(query);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject(expected);
  });

  it('reports every invalid parameter at once', () => {
    expect(run({ limit: 'x', direction: 'sideways', active_only: '2' }).items.map((i) => i.loc[1])).toEqual(['limit', 'active_only', 'direction']);
  });

  it('never throws on odd input', () => {
    for (const v of ['\u0000', '🙂', '%00', 'x'.repeat(100_000), ['a', 'b'], 42, { a: 1 }]) {
      expect(() => run({ q: v, limit: v, direction: v, active_only: v, ciks: v, issuer_ids: v })).not.toThrow();
    }
  });
});

describe('isCalendarDate', () => {
  it('takes real days only: not 2025-02-30, and not year 0000 (JavaScript parses it, Postgres has no year zero)', () => {
    expect(isCalendarDate('2024-02-29')).toBe(true);
    expect(isCalendarDate('0001-01-01')).toBe(true);
    expect(isCalendarDate('2025-02-30')).toBe(false);
    expect(isCalendarDate('0000-01-01')).toBe(false);
  });
});
