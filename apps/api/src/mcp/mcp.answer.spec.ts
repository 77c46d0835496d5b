import { answerSummary, fitAnswer, MCP_ANSWER_MAX_CHARS } from './mcp.answer';

const page = (texts: string[], nextCursor: string | null = null) => ({
  data: texts.map((text, i): { document_id: number; page_index: number; text: string; truncated?: boolean } => ({ document_id: 7, page_index: i, text })),
  pagination: { next_cursor: nextCursor, has_more: nextCursor !== null },
});

describe('MCP answers', () => {
  it('returns a body that fits untouched', () => {
    const body = page(['Net revenues grew 12%.', 'Operating income']);
    expect(fitAnswer(body)).toBe(body);
  });

  it('cuts the longest texts of a page that does not fit, marks them truncated and keeps the cursor', () => {
    // Quotes and newlines: JSON escapes make the answer longer than the strings.
    const long = 'He said "leasing" grew.\n'.repeat(4_000);
    const body = page([long, 'short page', long], 'c1');
    expect(JSON.stringify(body).length).toBeGreaterThan(MCP_ANSWER_MAX_CHARS);
    const fitted = fitAnswer(body) as typeof body;
    expect(JSON.stringify(fitted).length).toBeLessThanOrEqual(MCP_ANSWER_MAX_CHARS - 2_000);
    expect(fitted.data[1]).toEqual({ document_id: 7, page_index: 1, text: 'short page' });
    const cut = fitted.data.filter((d) => d.truncated);
    expect(cut.length).toBeGreaterThan(0);
    for (const d of cut) expect(long.startsWith(d.text)).toBe(true);
    expect(fitted.pagination).toEqual({ next_cursor: 'c1', has_more: true });
    // The caller's body is not modified.
    expect(body.data[0]!.text).toBe(long);
    expect(answerSummary('Document pages', fitted)).toMatch(/^Document pages: 3 items in the structured content\. More: call again with cursor "c1"\. \d text\(s\) cut to fit \(truncated: true\)\.$/);
  });

  it('summarizes a page and a single resource in a line', () => {
    expect(answerSummary('SEC filings', page(['a']))).toBe('SEC filings: 1 item in the structured content. No more pages.');
    expect(answerSummary('Company detail', { symbol: 'MSFT:US', name: 'MICROSOFT CORP', cik: '0000789019' })).toBe('Company detail (symbol MSFT:US, name MICROSOFT CORP): in the structured content.');
  });
});
