import examples from './openapi.examples.json';

/** snake_case, optionally with a leading underscore for meta fields. */
const SNAKE_CASE = /^_?[a-z0-9]+(?:_[a-z0-9]+)*$/;

/** Every object key under `value`, with the path that reaches it. */
function keysOf(value: unknown, path: string, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((item) => keysOf(item, `${path}[]`, out));
  else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      out.push(`${path}.${key}`);
      keysOf(child, `${path}.${key}`, out);
    }
  }
  return out;
}

describe('the recorded answers of every operation (openapi.examples.json)', () => {
  // Live answers of the api on the fixture data (test/openapi-examples.e2e-spec.ts records them):
  // one naming rule for every field a client reads, footnote keys and webhook payloads included.
  it('name every field in snake_case', () => {
    const keys = Object.entries(examples).flatMap(([operation, byStatus]) => keysOf(byStatus, operation));
    expect(keys.length).toBeGreaterThan(1_000);
    expect(keys.filter((path) => !SNAKE_CASE.test(path.slice(path.lastIndexOf('.') + 1)))).toEqual([]);
  });
});
