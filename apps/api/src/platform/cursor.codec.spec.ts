import { createHmac } from 'node:crypto';
import { keysetOrder } from '@app/persistence';
import { CursorCodec, filterHash, isEarlierVersionCursor } from './cursor.codec';

const SECRET = 's'.repeat(32);
const codec = new CursorCodec(SECRET);
const f = filterHash('companies', { q: 'micro', markets: ['US'] });
const order = keysetOrder<never>({ sql: 'symbol', type: 'text', of: () => '' });
const accountA = { account: 'acct_0a1b2c3d4e5f', f };
const accountB = { account: 'acct_9f8e7d6c5b4a', f };

/** A cursor of the earlier versions: base64url(JSON) '.' base64url(HMAC-SHA256 truncated to 16 bytes). */
function signedEarlier(payload: Record<string, unknown>): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${createHmac('sha256', SECRET).update(body).digest().subarray(0, 16).toString('base64url')}`;
}

describe('CursorCodec', () => {
  it('round-trips for the account and filters it was made for', () => {
    const c = codec.encode({ k: ['MSFT:US'], d: 'asc' }, accountA);
    expect(c).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(codec.decode(c, { ...accountA, order })).toEqual({ k: ['MSFT:US'], d: 'asc' });
    expect(codec.decode(c, { ...accountA, d: 'asc', order })).not.toBeNull();
  });

  it("refuses another account's cursor", () => {
    const c = codec.encode({ k: ['MSFT:US'], d: 'asc' }, accountA);
    expect(codec.decode(c, { ...accountB, order })).toBeNull();
    expect(codec.decode(c, { ...accountA, account: '', order })).toBeNull();
    // A public route's cursor (no account) is not an account's either.
    expect(codec.decode(codec.encode({ k: ['MSFT:US'], d: 'asc' }, { account: '', f }), { ...accountA, order })).toBeNull();
  });

  it('shows nothing of its key, filters or account: not readable base64', () => {
    const id = 'we_7Hq2xN4pLm9Ks3Vd';
    const c = codec.encode({ k: ['2026-11-24T10:11:12.123456Z', id], d: 'desc' }, accountA);
    for (const text of [c, Buffer.from(c, 'base64url').toString('utf8'), Buffer.from(c, 'base64url').toString('latin1')]) {
      for (const secret of [id, '2026-11-24', 'desc', accountA.account, f]) expect(text).not.toContain(secret);
    }
    // One page, one cursor (ETags hold); another position, account or filter set gets another IV.
    const ivOf = (cursor: string) => Buffer.from(cursor, 'base64url').subarray(1, 13).toString('hex');
    const one = codec.encode({ k: [id], d: 'desc' }, accountA);
    expect(codec.encode({ k: [id], d: 'desc' }, accountA)).toBe(one);
    const others = [codec.encode({ k: [`${id}x`], d: 'desc' }, accountA), codec.encode({ k: [id], d: 'desc' }, accountB), codec.encode({ k: [id], d: 'desc' }, { ...accountA, f: 'other' })];
    expect(new Set([one, ...others].map(ivOf)).size).toBe(4);
  });

  it('refuses a modified cursor: any changed byte, or another spelling of its bytes', () => {
    const c = codec.encode({ k: ['MSFT:US'], d: 'asc' }, accountA);
    const bytes = Buffer.from(c, 'base64url');
    for (let i = 0; i < bytes.length; i++) {
      const changed = Buffer.from(bytes);
      changed[i] = changed[i]! ^ 0x01;
      expect(codec.decode(changed.toString('base64url'), { ...accountA, order })).toBeNull();
    }
    expect(codec.decode(c.slice(0, -1), { ...accountA, order })).toBeNull();
    expect(codec.decode(`${c}A`, { ...accountA, order })).toBeNull();
    expect(codec.decode(`${c}=`, { ...accountA, order })).toBeNull();
  });

  it('refuses a cursor made with another secret', () => {
    const other = new CursorCodec('t'.repeat(32)).encode({ k: ['MSFT:US'], d: 'asc' }, accountA);
    expect(codec.decode(other, { ...accountA, order })).toBeNull();
  });

  it('refuses a cursor used with other filters or another direction', () => {
    const c = codec.encode({ k: ['MSFT:US'], d: 'desc' }, accountA);
    expect(codec.decode(c, { ...accountA, f: filterHash('companies', { q: 'apple', markets: ['US'] }), order })).toBeNull();
    expect(codec.decode(c, { ...accountA, d: 'asc', order })).toBeNull();
  });

  it('refuses a key that does not fit the order (count or type of its values)', () => {
    const two = keysetOrder<never>({ sql: 'filed_date', type: 'date', of: () => '' }, { sql: 'id', type: 'integer', of: () => 0 });
    expect(codec.decode(codec.encode({ k: ['2025-01-02', 7], d: 'asc' }, accountA), { ...accountA, order: two })).not.toBeNull();
    for (const k of [['2025-01-02'], ['2025-01-02', '7'], ['20250102', 7], ['2025-01-02', 1.5], ['2025-01-02', 7, 8]]) {
      expect(codec.decode(codec.encode({ k, d: 'asc' }, accountA), { ...accountA, order: two })).toBeNull();
    }
  });

  it('stays short: shorter than the signed cursors of the earlier version (163 characters for this key)', () => {
    // 29 bytes of version, IV and tag, but the filter hash and the account travel as authenticated data only.
    const c = codec.encode({ k: ['2026-11-24T10:11:12.123456Z', 'we_7Hq2xN4pLm9Ks3Vd'], d: 'desc' }, accountA);
    expect(c.length).toBeLessThan(130);
  });

  it('does not decode a cursor of the earlier versions, and tells them by their shape', () => {
    const earlier = signedEarlier({ v: 2, k: ['MSFT:US'], d: 'asc', f });
    expect(isEarlierVersionCursor(earlier)).toBe(true);
    expect(isEarlierVersionCursor(codec.encode({ k: ['MSFT:US'], d: 'asc' }, accountA))).toBe(false);
    expect(codec.decode(earlier, { ...accountA, order })).toBeNull();
  });

  it('reads a genuine earlier-version feed position (v1 one-value text key, v2 tuple) of the same filters only', () => {
    const seq = keysetOrder<never>({ sql: 'seq', type: 'bigint', of: () => 0 });
    expect(codec.decodeEarlierVersion(signedEarlier({ v: 1, k: '1234', d: 'asc', f }), { f, order: seq })).toEqual({ k: [1234], d: 'asc' });
    expect(codec.decodeEarlierVersion(signedEarlier({ v: 2, k: [1234], d: 'asc', f }), { f, order: seq })).toEqual({ k: [1234], d: 'asc' });
    expect(codec.decodeEarlierVersion(signedEarlier({ v: 2, k: [1234], d: 'asc', f }), { f: filterHash('events', {}), order: seq })).toBeNull();
    expect(codec.decodeEarlierVersion(signedEarlier({ v: 1, k: 'x', d: 'asc', f }), { f, order: seq })).toBeNull();
    expect(codec.decodeEarlierVersion(signedEarlier({ v: 2, k: [1234], d: 'asc', f }), { f, d: 'desc', order: seq })).toBeNull();
    // Signed with another secret, or changed: not genuine.
    const [body] = signedEarlier({ v: 2, k: [1234], d: 'asc', f }).split('.');
    expect(codec.decodeEarlierVersion(`${body}.${'A'.repeat(22)}`, { f, order: seq })).toBeNull();
    expect(codec.decodeEarlierVersion(codec.encode({ k: [1234], d: 'asc' }, accountA), { f, order: seq })).toBeNull();
  });

  it('hashes filters canonically (key order does not matter, values do)', () => {
    expect(filterHash('companies', { a: 1, b: [2] })).toBe(filterHash('companies', { b: [2], a: 1 }));
    expect(filterHash('companies', { a: 1 })).not.toBe(filterHash('documents', { a: 1 }));
    expect(filterHash('companies', { a: 1, c: undefined })).toBe(filterHash('companies', { a: 1 }));
  });

  it('returns null on garbage, never throws', () => {
    const short = Buffer.of(3, 1, 2, 3).toString('base64url');
    const notJson = signedEarlier({}).replace(/^[^.]+/, Buffer.from('not json').toString('base64url'));
    for (const junk of ['', '.', 'abc', 'a.b.c', '\u0000', '%00', 'x'.repeat(5000), short, notJson, '🙂.🙂']) {
      expect(codec.decode(junk, { ...accountA, order })).toBeNull();
      expect(codec.decodeEarlierVersion(junk, { f, order })).toBeNull();
    }
  });
});
