import { attachExamples, EXAMPLE_LIMITS, exampleOf, markdownSafe, markdownSafeDescriptions } from './openapi.presentation';

describe('OpenAPI presentation', () => {
  it('turns placeholders into code spans, leaving code and plain text alone', () => {
    expect(markdownSafe('<TICKER>:<MARKET>, e.g. MSFT:US')).toBe('`<TICKER>:<MARKET>`, e.g. MSFT:US');
    expect(markdownSafe('an id: <document id>:<page index> (document_page)')).toBe('an id: `<document id>:<page index>` (document_page)');
    expect(markdownSafe('"<document title> — page <n>" (n 1-based)')).toBe('"`<document title>` — page `<n>`" (n 1-based)');
    expect(markdownSafe('already `<TICKER>:<MARKET>` code; a < b and c > d')).toBe('already `<TICKER>:<MARKET>` code; a < b and c > d');
    expect(markdownSafe('GET /v1/companies/{symbol}/executives?category=<category>.')).toBe('GET `/v1/companies/{symbol}/executives?category=<category>`.');
  });

  it('rewrites descriptions only, never property names', () => {
    const schema = { description: 'x <y>', properties: { description: { type: 'string', description: '<TICKER>' } } };
    expect(markdownSafeDescriptions(schema)).toEqual({ description: 'x `<y>`', properties: { description: { type: 'string', description: '`<TICKER>`' } } });
  });

  it('cuts a recorded body to a few items and short texts', () => {
    const text = 'FRP HOLDINGS, INC. '.repeat(40);
    const cut = exampleOf({ data: [{ text }, { text: 'b' }, { text: 'c' }], pagination: { next_cursor: null, has_more: false } }) as { data: { text: string }[] };
    expect(cut.data).toHaveLength(EXAMPLE_LIMITS.items);
    expect(cut.data[0]!.text).toBe(`${text.slice(0, EXAMPLE_LIMITS.chars)}…`);
    expect(cut.data[1]).toEqual({ text: 'b' });
  });

  it('puts each example on its operation and status, for every media type', () => {
    const paths = {
      '/v1/x': { get: { operationId: 'getX', responses: { '200': { content: { 'application/json': {} } }, '304': { description: 'Not modified' }, '404': { content: { 'application/problem+json': {} } } } } },
    };
    attachExamples(paths, { getX: { '200': { id: 1 }, '404': { status: 404 } } });
    expect(paths['/v1/x'].get.responses).toEqual({
      '200': { content: { 'application/json': { example: { id: 1 } } } },
      '304': { description: 'Not modified' },
      '404': { content: { 'application/problem+json': { example: { status: 404 } } } },
    });
  });
});
