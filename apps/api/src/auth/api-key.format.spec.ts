import { authorizationHeaderCount, generateApiKey, hashApiKey, parseApiKey, verifyApiKey } from './api-key.format';

const PEPPER = 'p'.repeat(32);

describe('api key format', () => {
  it('generates keys that parse back to their mode and public id', () => {
    for (const mode of ['live', 'test'] as const) {
      const k = generateApiKey(mode);
      expect(k.key).toMatch(new RegExp(`^sk_${mode}_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$`));
      expect(parseApiKey(k.key)).toEqual({ mode, publicId: k.publicId });
    }
  });

  it('rejects anything else', () => {
    for (const bad of ['', 'sk_live_', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.x', 'sk_prod_0123456789abcdef_' + 'a'.repeat(43),
      'sk_live_0123456789ABCDEF_' + 'a'.repeat(43), 'sk_live_0123456789abcdef_' + 'a'.repeat(42), 'sk_live_0123456789abcdef_' + 'a'.repeat(43) + ' ']) {
      expect(parseApiKey(bad)).toBeNull();
    }
  });

  it('stores an HMAC, verifies in constant time, and depends on the pepper', () => {
    const { key } = generateApiKey('live');
    const h = hashApiKey(PEPPER, key);
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(h).not.toContain(key);
    expect(verifyApiKey(PEPPER, key, h)).toBe(true);
    expect(verifyApiKey(PEPPER, key.slice(0, -1) + (key.endsWith('a') ? 'b' : 'a'), h)).toBe(false);
    expect(verifyApiKey('q'.repeat(32), key, h)).toBe(false);
    expect(verifyApiKey(PEPPER, key, 'zz')).toBe(false);
  });
});

describe('authorizationHeaderCount', () => {
  it('counts Authorization header names in any case, never values', () => {
    expect(authorizationHeaderCount([])).toBe(0);
    expect(authorizationHeaderCount(['Host', 'x', 'Authorization', 'Bearer a'])).toBe(1);
    expect(authorizationHeaderCount(['Authorization', 'Bearer a', 'host', 'authorization', 'AUTHORIZATION', 'Bearer b'])).toBe(2);
    expect(authorizationHeaderCount(['X-Authorization', 'Bearer a', 'Proxy-Authorization', 'Basic b', 'Authorization', 'Bearer c'])).toBe(1);
  });
});
