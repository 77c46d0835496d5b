import { boundedEcho, ECHO_LIMITS } from './api.errors';
import { jsonNestingExceeds } from './json-body.parser';

describe('jsonNestingExceeds', () => {
  it('counts arrays and objects, not brackets inside strings (escaped quotes included)', () => {
    expect(jsonNestingExceeds('[[[1]]]', 3)).toBe(false);
    expect(jsonNestingExceeds('[[[[1]]]]', 3)).toBe(true);
    expect(jsonNestingExceeds('{"a":{"b":[{}]}}', 3)).toBe(true);
    expect(jsonNestingExceeds('{"a":"[[[[[[\\"[[[[", "b": [1]}', 2)).toBe(false);
    expect(jsonNestingExceeds('[1],[2],[3],[4]', 1)).toBe(false);
  });

  it('scans 20,000 levels without recursing', () => {
    expect(jsonNestingExceeds('['.repeat(20_000) + ']'.repeat(20_000), 64)).toBe(true);
  });
});

describe('boundedEcho', () => {
  it('keeps small input as it is', () => {
    const input = { url: 'http://x', topics: ['a', 'b'], n: 1, ok: null };
    expect(boundedEcho(input)).toEqual(input);
  });

  it('cuts depth, long strings, long lists and many keys, so 20,000 levels serialize', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 20_000; i += 1) deep = [deep];
    expect(JSON.stringify(boundedEcho(deep))).toBe('[[[["[...]"]]]]');
    expect(boundedEcho('x'.repeat(1_000))).toBe(`${'x'.repeat(ECHO_LIMITS.chars)}...`);
    expect(boundedEcho(Array.from({ length: 100 }, (_, i) => i))).toHaveLength(ECHO_LIMITS.items + 1);
    const keys = boundedEcho(Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, i]))) as Record<string, unknown>;
    expect(Object.keys(keys)).toHaveLength(ECHO_LIMITS.items + 1);
  });
});
