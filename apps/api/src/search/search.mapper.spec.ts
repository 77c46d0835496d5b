import { isKeyOf, SEARCH_ORDER, type SearchHitRecord } from '@app/persistence';
import { normalizeQuery } from './search.controller';
import { searchHitUrl } from './search.mapper';

const base: SearchHitRecord = {
  kind: 'company',
  id: 'MSFT:US',
  title: 'MICROSOFT CORP',
  snippet: '',
  highlights: [],
  score: 1,
  match: 'name',
  symbol: 'MSFT:US',
  date: null,
  provenance: null,
  accession: null,
  documentId: null,
  pageIndex: null,
  category: null,
  isCurrent: null,
};

describe('searchHitUrl', () => {
  it('names the endpoint that serves each kind', () => {
    expect(searchHitUrl(base)).toBe('/v1/companies/MSFT:US');
    expect(searchHitUrl({ ...base, kind: 'filing', id: '0000950170-25-100235' })).toBe('/v1/filings/0000950170-25-100235');
    expect(searchHitUrl({ ...base, kind: 'document', id: '12', documentId: 12 })).toBe('/v1/documents/12');
    expect(searchHitUrl({ ...base, kind: 'document_page', id: '12:0', documentId: 12, pageIndex: 0 })).toBe('/v1/documents/12/pages?page=0');
    const person = { ...base, kind: 'person' as const, id: '0001318605:executives:sec:cik:0001494730', symbol: 'TSLA:US', category: 'executives' };
    expect(searchHitUrl({ ...person, isCurrent: true })).toBe('/v1/companies/TSLA:US/executives?category=executives');
    expect(searchHitUrl({ ...person, category: 'ir', isCurrent: false })).toBe('/v1/companies/TSLA:US/executives?category=ir&current_only=false');
  });
});

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
