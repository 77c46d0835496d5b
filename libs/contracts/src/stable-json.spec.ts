import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stableStringify } from './stable-json';

/** The plain form stableStringify was first written in: the faster one must say exactly the same. */
function reference(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => reference(v)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${reference(v)}`).join(',')}}`;
}

const EXAMPLES = join(__dirname, 'examples');

describe('stableStringify', () => {
  it.each(readdirSync(EXAMPLES).filter((f) => f.endsWith('.json')))('says what the plain form says of %s', (file) => {
    const record: unknown = JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8'));
    expect(stableStringify(record)).toBe(reference(record));
  });

  it('sorts keys, leaves undefined properties out and writes undefined elements as null', () => {
    const value = { b: [1, undefined, 'x"\n'], a: { d: null, c: undefined, 'é': true, Z: 2.5 }, '': {} };
    expect(stableStringify(value)).toBe('{"":{},"a":{"Z":2.5,"d":null,"é":true},"b":[1,null,"x\\"\\n"]}');
    expect(stableStringify(value)).toBe(reference(value));
    expect(stableStringify({ a: 1, b: 2 })).toBe(stableStringify({ b: 2, a: 1 }));
    expect(stableStringify(undefined)).toBe('null');
  });
});
