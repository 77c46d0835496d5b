import { boundedEcho, ECHO_LIMITS } from './api.errors';
import fastify from 'fastify';
import { jsonNestingExceeds, registerBodyParsers } from './json-body.parser';

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

describe('registerBodyParsers', () => {
  /** What a route sees of a request (its body, or the error code and status the parser gave instead). */
  async function seen(headers: Record<string, string>, payload?: string): Promise<unknown> {
    const app = fastify();
    registerBodyParsers(app);
    app.post('/', async (request) => ({ body: request.body === undefined ? 'none' : request.body }));
    app.setErrorHandler(async (err: { code?: string; statusCode?: number }) => ({ error: err.code, status: err.statusCode }));
    const r = await app.inject({ method: 'POST', url: '/', headers, ...(payload === undefined ? {} : { payload }) });
    await app.close();
    return r.json();
  }

  it('JSON is parsed; an empty JSON body is no body', async () => {
    expect(await seen({ 'content-type': 'application/json' }, '{"a":1}')).toEqual({ body: { a: 1 } });
    expect(await seen({ 'content-type': 'application/json; charset=utf-8' }, 'null')).toEqual({ body: null });
    expect(await seen({ 'content-type': 'application/json' }, '')).toEqual({ body: 'none' });
    expect(await seen({})).toEqual({ body: 'none' });
  });

  it('any other media type with a body is 415, text/plain too; empty, it is no body', async () => {
    const unsupported = { error: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', status: 415 };
    expect(await seen({ 'content-type': 'text/plain' }, '{"a":1}')).toEqual(unsupported);
    expect(await seen({ 'content-type': 'application/x-www-form-urlencoded' }, 'a=1')).toEqual(unsupported);
    expect(await seen({ 'content-type': 'text/plain' }, '')).toEqual({ body: 'none' });
    expect(await seen({ 'content-type': 'application/x-www-form-urlencoded' }, '')).toEqual({ body: 'none' });
  });
});
