import { createHmac } from 'node:crypto';
import { keysetOrder } from '@app/persistence';
import { CursorCodec, filterHash } from './cursor.codec';

const codec = new CursorCodec('s'.repeat(32));
const f = filterHash('companies', { q: 'micro', markets: ['US'] });
const order = keysetOrder<never>({ sql: 'symbol', type: 'text', of: () => '' });

describe('CursorCodec', () => {
  it('round-trips', () => {
    const c = codec.encode({ k: ['MSFT:US'], d: 'asc', f });
    expect(c).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    expect(codec.decode(c, { f, order })).toEqual({ v: 2, k: ['MSFT:US'], d: 'asc', f });
    expect(codec.decode(c, { f, d: 'asc', order })).not.toBeNull();
  });

  it('rejects a modified payload or signature', () => {
    const c = codec.encode({ k: ['MSFT:US'], d: 'asc', f });
    const [body, sig] = c.split('.') as [string, string];
    const forgedBody = Buffer.from(JSON.stringify({ v: 2, k: ['AAPL:US'], d: 'asc', f })).toString('base64url');
    expect(codec.decode(`${forgedBody}.${sig}`, { f, order })).toBeNull();
    const flipped = sig.slice(0, -1) + (sig.endsWith('A') ? 'B' : 'A');
    expect(codec.decode(`${body}.${flipped}`, { f, order })).toBeNull();
    expect(codec.decode(`${body}.${sig}x`, { f, order })).toBeNull();
  });

  it('rejects a cursor signed with another secret', () => {
    const other = new CursorCodec('t'.repeat(32)).encode({ k: ['MSFT:US'], d: 'asc', f });
    expect(codec.decode(other, { f, order })).toBeNull();
  });

  it('rejects a cursor used with other filters or another direction', () => {
    const c = codec.encode({ k: ['MSFT:US'], d: 'desc', f });
    expect(codec.decode(c, { f: filterHash('companies', { q: 'apple', markets: ['US'] }), order })).toBeNull();
    expect(codec.decode(c, { f, d: 'asc', order })).toBeNull();
  });

  it('rejects a key that does not fit the order (count or type of its values)', () => {
    const two = keysetOrder<never>({ sql: 'filed_date', type: 'date', of: () => '' }, { sql: 'id', type: 'integer', of: () => 0 });
    expect(codec.decode(codec.encode({ k: ['2025-01-02', 7], d: 'asc', f }), { f, order: two })).not.toBeNull();
    for (const k of [['2025-01-02'], ['2025-01-02', '7'], ['20250102', 7], ['2025-01-02', 1.5], ['2025-01-02', 7, 8]]) {
      expect(codec.decode(codec.encode({ k, d: 'asc', f }), { f, order: two })).toBeNull();
    }
  });

  it('still reads the cursors of version 1 (one string key), so a kept feed position resumes', () => {
    const signedV1 = (k: string): string => {
      const body = Buffer.from(JSON.stringify({ v: 1, k, d: 'asc', f })).toString('base64url');
      return `${body}.${createHmac('sha256', 's'.repeat(32)).update(body).digest().subarray(0, 16).toString('base64url')}`;
    };
    const seq = keysetOrder<never>({ sql: 'seq', type: 'bigint', of: () => 0 });
    expect(codec.decode(signedV1('1234'), { f, order: seq })).toEqual({ v: 2, k: [1234], d: 'asc', f });
    const filings = keysetOrder<never>({ sql: 'filed_date', type: 'date', of: () => '' }, { sql: 'accession', type: 'text', of: () => '' });
    expect(codec.decode(signedV1('2025-07-30|0000950170-25-100235'), { f, order: filings })?.k).toEqual(['2025-07-30', '0000950170-25-100235']);
    const ranked = keysetOrder<never>({ sql: 'score', type: 'float8', of: () => 0 }, { sql: 'kind', type: 'text', of: () => '' }, { sql: 'id', type: 'text', of: () => '' });
    expect(codec.decode(signedV1('[11.5,"company","MSFT:US"]'), { f, order: ranked })?.k).toEqual([11.5, 'company', 'MSFT:US']);
    expect(codec.decode(signedV1('2025-07-30'), { f, order: filings })).toBeNull();
    expect(codec.decode(signedV1('x|y'), { f, order: seq })).toBeNull();
  });

  it('hashes filters canonically (key order does not matter, values do)', () => {
    expect(filterHash('companies', { a: 1, b: [2] })).toBe(filterHash('companies', { b: [2], a: 1 }));
    expect(filterHash('companies', { a: 1 })).not.toBe(filterHash('documents', { a: 1 }));
    expect(filterHash('companies', { a: 1, c: undefined })).toBe(filterHash('companies', { a: 1 }));
  });

  it('returns null on garbage, never throws', () => {
    const body = Buffer.from('not json').toString('base64url');
    const sig = createHmac('sha256', 's'.repeat(32)).update(body).digest().subarray(0, 16).toString('base64url');
    for (const junk of ['', '.', 'abc', 'a.b.c', '\u0000', '%00', 'x'.repeat(5000), `${body}.${sig}`, '🙂.🙂']) {
      expect(codec.decode(junk, { f, order })).toBeNull();
    }
  });
});
