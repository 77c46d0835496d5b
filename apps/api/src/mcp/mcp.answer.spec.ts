import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DocumentTextData, RecordEnvelope } from '@app/contracts';
import type { TranscriptWithText } from '@app/persistence';
import { toTranscriptDetail } from '@app/resources';
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

  it('cuts the longest turn texts of a transcript that does not fit, and says where the whole texts are', () => {
    // The Citigroup Q4 2024 call as ingest-decks splits it (the committed example record), served as the API serves it.
    const record = JSON.parse(
      readFileSync(join(__dirname, '../../../../libs/contracts/src/examples/document-text@1.citi-4q2024-transcript.json'), 'utf8'),
    ) as RecordEnvelope<DocumentTextData>;
    const t = record.data.transcript!;
    const row: TranscriptWithText = {
      id: 1, documentId: 1, url: record.key, cik: record.data.cik, ticker: record.data.ticker, company: t.call.company, title: t.call.title,
      callDate: t.call.date, dateSource: t.call.date_source, participants: t.participants, turns: t.turns, turnCount: t.turns.length,
      frontMatter: t.front_matter, backMatter: t.back_matter, contentHash: record.provenance.content_hash!, srcId: record.provenance.src_id,
      sourceUrl: record.key, quote: t.turns[0]!.quote, extractedAt: null, firstSeenAt: new Date(0), language: 'en', pageCount: 16,
      documentText: record.data.pages.map((p) => p.text).join(record.data.page_separator),
    };
    const body = toTranscriptDetail(row) as unknown as Record<string, unknown> & { turns: Array<{ text: string; truncated?: boolean }> };
    // 97,000 characters: it fits whole; a longer call (Bank of America's Q1 2025 has 79,000 characters of text) would not.
    expect(fitAnswer(body)).toBe(body);
    const fitted = fitAnswer(body, 60_000) as typeof body;
    expect(JSON.stringify(fitted).length).toBeLessThanOrEqual(60_000);
    const cut = fitted.turns.filter((turn) => turn.truncated);
    expect(cut.length).toBeGreaterThan(0);
    fitted.turns.forEach((turn, i) => expect(body.turns[i]!.text.startsWith(turn.text)).toBe(true));
    expect(fitted.turns.length).toBe(59);
    expect(answerSummary('One call transcript', fitted)).toMatch(/^One call transcript \(id 1\): in the structured content\. \d+ turn text\(s\) cut to fit \(truncated: true\)/);
  });
});
