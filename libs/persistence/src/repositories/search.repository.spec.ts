import {
  SEARCH_CANDIDATES_PER_KIND,
  SEARCH_KINDS,
  SEARCH_NAME_QUERY_MAX_CHARS,
  SEARCH_SQL,
  SEARCH_STATEMENT_TIMEOUT_MS,
  SEARCH_TRANSACTION_START,
  searchParams,
  searchTransactionStart,
  splitHighlights,
} from './search.repository';

describe('splitHighlights', () => {
  it('turns ts_headline marks into offsets of the plain text', () => {
    const { snippet, highlights } = splitHighlights('A \u0002Real\u0003 \u0002Estate\u0003 Company');
    expect(snippet).toBe('A Real Estate Company');
    expect(highlights.map(([s, e]) => snippet.slice(s, e))).toEqual(['Real', 'Estate']);
  });

  it('collapses whitespace runs (line breaks of page text) without shifting the offsets', () => {
    const { snippet, highlights } = splitHighlights('  Spin\u2010off Benefits\nWhy did we \n\n \u0002separate\u0003\tthe  real');
    expect(snippet).toBe('Spin\u2010off Benefits Why did we separate the real');
    expect(highlights).toEqual([[29, 37]]);
    expect(snippet.slice(29, 37)).toBe('separate');
  });

  it('counts UTF-16 code units, as JavaScript indexes strings', () => {
    const { snippet, highlights } = splitHighlights('💥 \u0002rocket\u0003');
    expect(highlights).toEqual([[3, 9]]);
    expect(snippet.slice(3, 9)).toBe('rocket');
  });

  it('ignores unbalanced or empty marks', () => {
    expect(splitHighlights('a \u0003b\u0002\u0003 c \u0002d')).toEqual({ snippet: 'a b c d', highlights: [] });
  });
});

describe('searchParams', () => {
  const params = (q: string) => searchParams({ q, kinds: SEARCH_KINDS, limit: 51, currentSince: '2024-06-01' });

  it('binds the query text as parameters only ($1, and $5 for names); the SQL never contains it', () => {
    const q = "x'); DROP TABLE companies; --";
    const p = params(q);
    expect(p[0]).toBe(q);
    expect(p[4]).toBe(q);
    expect(p.filter((v) => v === q)).toHaveLength(2);
    expect(SEARCH_SQL).not.toContain('DROP');
    expect(p).toHaveLength(13);
  });

  it('recognizes tickers and symbols, CIKs and accession numbers', () => {
    expect(params('msft').slice(1, 4)).toEqual(['MSFT', null, null]);
    expect(params('brk-b:us').slice(1, 4)).toEqual(['BRK-B:US', null, null]);
    expect(params('789019').slice(1, 4)).toEqual(['789019', '0000789019', null]);
    expect(params('000095017025100235').slice(1, 4)).toEqual([null, null, '0000950170-25-100235']);
    expect(params('0000950170-25-100235').slice(1, 4)).toEqual([null, null, '0000950170-25-100235']);
    expect(params('microsoft corp').slice(1, 4)).toEqual([null, null, null]);
  });

  it('compares names with the first characters of long queries; a phrase needs two words', () => {
    expect(params('musk')[4]).toBe('musk');
    expect(params('💥'.repeat(SEARCH_NAME_QUERY_MAX_CHARS + 1))[4]).toBe('💥'.repeat(SEARCH_NAME_QUERY_MAX_CHARS));
    expect(params('musk')[11]).toBe(false);
    expect(params('elon musk')[11]).toBe(true);
  });

  it('carries the keyset position and the page size', () => {
    const p = searchParams({ q: 'a', kinds: ['company'], limit: 8, after: { score: 11.606060981750488, kind: 'company', id: 'MSFT:US' } });
    expect(p.slice(5, 10)).toEqual([['company'], 11.606060981750488, 'company', 'MSFT:US', 8]);
  });

  it('carries the candidate cap per kind, by default SEARCH_CANDIDATES_PER_KIND', () => {
    expect(params('a')[12]).toBe(SEARCH_CANDIDATES_PER_KIND);
    expect(searchParams({ q: 'a', kinds: SEARCH_KINDS, limit: 8, candidatesPerKind: 5 })[12]).toBe(5);
  });
});

describe('searchTransactionStart', () => {
  it('sets the statement timeout for the transaction only, and interpolates integers only', () => {
    expect(searchTransactionStart(250)).toBe('BEGIN READ ONLY; SET LOCAL plan_cache_mode = force_generic_plan; SET LOCAL jit = off; SET LOCAL statement_timeout = 250');
    expect(SEARCH_TRANSACTION_START).toBe(searchTransactionStart(SEARCH_STATEMENT_TIMEOUT_MS));
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '1; DROP TABLE companies' as unknown as number]) {
      expect(() => searchTransactionStart(bad)).toThrow(RangeError);
    }
  });
});
