import { isKeyOf, SEARCH_ORDER } from '@app/persistence';
import { normalizeQuery } from './search.controller';

describe('normalizeQuery', () => {
  it('folds compatibility forms and collapses whitespace', () => {
    expect(normalizeQuery('  Ｍｉｃｒｏｓｏｆｔ \n\t corp ')).toBe('Microsoft corp');
    expect(normalizeQuery(' \u3000 ')).toBe('');
  });

  it('keeps at most 1000 code points, never splitting a surrogate pair', () => {
    // U+FDFA is one character that NFKC spells in 18.
    const long = normalizeQuery('\uFDFA'.repeat(100));
    expect(Array.from(long).length).toBeLessThanOrEqual(1000);
    expect(normalizeQuery('💥'.repeat(1200))).toBe('💥'.repeat(1000));
  });
});

describe('the cursor key of a search (SEARCH_ORDER)', () => {
  // The cursor's key, as the codec decodes it from JSON (undefined when it is not JSON).
  const cursorPosition = (k: string): unknown[] | null => {
    let key: unknown;
    try {
      key = JSON.parse(k);
    } catch {
      return null;
    }
    return isKeyOf(SEARCH_ORDER, key) ? key : null;
  };
  it('reads [score, kind, id] and rejects anything else', () => {
    expect(cursorPosition(JSON.stringify([11.5, 'company', 'MSFT:US']))).toEqual([11.5, 'company', 'MSFT:US']);
    for (const bad of ['', 'x', '[]', '[1,"company"]', '["1","company","a"]', '[1,"planet","a"]', '[1,"company",""]', '[1,"company",7]', `[1,"company","${'a'.repeat(600)}"]`, '{"score":1}']) {
      expect([bad, cursorPosition(bad)]).toEqual([bad, null]);
    }
  });
});
