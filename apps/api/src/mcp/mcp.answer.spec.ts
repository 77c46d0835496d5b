import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DocumentTextData, RecordEnvelope, TenkSectionData } from '@app/contracts';
import { extractTenkSections } from '@app/edgar';
import type { TranscriptWithText } from '@app/persistence';
import { type SectionBody, toTranscriptDetail } from '@app/resources';
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
      id: 1, documentId: 1, url: record.key, cik: record.data.cik, ticker: record.data.ticker, symbol: 'C:US', company: t.call.company, title: t.call.title,
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
    expect(answerSummary('One call transcript', fitted)).toMatch(/^One call transcript \(symbol C:US, id 1\): in the structured content\. \d+ turn text\(s\) cut to fit \(truncated: true\)/);
  });

  it("cuts a 10-K section's text that does not fit, and names the REST URL that answers it whole", () => {
    // Item 1A of Tesla's 10-K for 2024 (79,724 characters), located in the fixture by the extractor, served as the API serves it.
    const example = JSON.parse(
      readFileSync(join(__dirname, '../../../../libs/contracts/src/examples/tenk-section@1.tsla-item-1.json'), 'utf8'),
    ) as RecordEnvelope<TenkSectionData>;
    const extraction = extractTenkSections(readFileSync('/work/shared/fixtures/tenk/TSLA-tsla-10-k-2025-01-30.html'));
    const risk = extraction.sections.find((s) => s.item === '1A')!;
    const d = example.data;
    const body: SectionBody = {
      company: { symbol: 'TSLA:US', ticker: 'TSLA', market: 'US', name: 'Tesla, Inc.', cik: d.cik, isin: null, figi: null, issuer_id: 1318605 },
      item: '1A',
      title: 'Risk Factors',
      status: risk.status,
      reason: risk.reason,
      heading: risk.heading,
      char_start: risk.charStart,
      char_end: risk.charEnd,
      length: risk.length,
      cross_reference_pages: risk.crossReferencePages,
      text: extraction.text.slice(risk.charStart!, risk.charEnd!),
      filing: { accession: d.accession, form: d.form, filed_date: d.filed_date, period_ended: d.period_ended, document_url: d.document_url, text_length: extraction.text.length },
      extractor_version: extraction.extractorVersion,
      provenance: { ...example.provenance, quote: risk.heading },
    };
    expect(body.length).toBe(79_724);
    // About 82,000 characters: it fits whole. A 10-K item may hold up to 300,000 (the extractor's bound for 1A and 7): those do not.
    expect(fitAnswer(body)).toBe(body);
    for (const budget of [60_000, 20_000]) {
      const fitted = fitAnswer(body, budget) as SectionBody & { truncated?: boolean };
      expect(JSON.stringify(fitted).length).toBeLessThanOrEqual(budget);
      expect(JSON.stringify(fitted).length).toBeGreaterThan(budget - 1_000);
      expect(fitted.truncated).toBe(true);
      expect(body.text!.startsWith(fitted.text!)).toBe(true);
      expect(fitted.text!.length).toBeLessThan(body.text!.length);
      // Everything but the text is the REST body's: the offsets still locate the whole section.
      expect({ ...fitted, text: body.text, truncated: undefined }).toEqual({ ...body, truncated: undefined });
      expect(answerSummary('10-K section', fitted, 'https://api.filings.test/v1/companies/TSLA:US/sections/1A')).toBe(
        `10-K section (title Risk Factors): in the structured content. Its text is cut to fit (truncated: true): the first ${fitted.text!.length} of 79724 characters. ` +
          'GET https://api.filings.test/v1/companies/TSLA:US/sections/1A (the REST API, same API key) answers it whole (char_start to char_end of the document text).',
      );
    }
    // The caller's body is not modified.
    expect(body.text!.length).toBe(79_724);
    expect(body).not.toHaveProperty('truncated');
  });
});
