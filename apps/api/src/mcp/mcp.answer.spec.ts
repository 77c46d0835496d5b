import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DocumentTextData, RecordEnvelope, TenkSectionData } from '@app/contracts';
import { extractTenkSections } from '@app/edgar';
import type { TranscriptWithText } from '@app/persistence';
import { type SectionBody, type TranscriptDetailBody, toTranscriptDetail } from '@app/resources';
import { SECTION_TEXT, SLICE_DEFAULT_CHARS, TRANSCRIPT_TURNS, toolResult, type TextSlicer, type TextWindow } from './mcp.answer';

type Json = Record<string, unknown>;
interface Slice {
  offset: number;
  total_chars: number;
  next_offset: number | null;
}

/** Item 1A of Tesla's 10-K for 2024 (79,724 characters), located in the fixture by the extractor, served as the API serves it. */
function teslaRiskFactors(): SectionBody {
  const example = JSON.parse(readFileSync(join(__dirname, '../../../../libs/contracts/src/examples/tenk-section@1.tsla-item-1.json'), 'utf8')) as RecordEnvelope<TenkSectionData>;
  const extraction = extractTenkSections(readFileSync('/work/shared/fixtures/tenk/TSLA-tsla-10-k-2025-01-30.html'));
  const risk = extraction.sections.find((s) => s.item === '1A')!;
  const d = example.data;
  return {
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
}

/** The Citigroup Q4 2024 call as ingest-decks splits it (the committed example record), served as the API serves it, with its document text. */
function citiTranscript(): { body: TranscriptDetailBody; documentText: string } {
  const record = JSON.parse(
    readFileSync(join(__dirname, '../../../../libs/contracts/src/examples/document-text@1.citi-4q2024-transcript.json'), 'utf8'),
  ) as RecordEnvelope<DocumentTextData>;
  const t = record.data.transcript!;
  const documentText = record.data.pages.map((p) => p.text).join(record.data.page_separator);
  const row: TranscriptWithText = {
    id: 1, documentId: 1, url: record.key, cik: record.data.cik, ticker: record.data.ticker, symbol: `${record.data.ticker}:US`, company: t.call.company, title: t.call.title,
    callDate: t.call.date, dateSource: t.call.date_source, participants: t.participants, turns: t.turns, turnCount: t.turns.length,
    frontMatter: t.front_matter, backMatter: t.back_matter, contentHash: record.provenance.content_hash!, srcId: record.provenance.src_id,
    sourceUrl: record.key, quote: t.turns[0]!.quote, extractedAt: null, firstSeenAt: new Date(0), language: 'en', pageCount: 16, documentText,
  };
  return { body: toTranscriptDetail(row), documentText };
}

/** Every slice of `body`, from offset 0, following next_offset (bounded, so a loop that never ends fails). */
function readAll(slicer: TextSlicer, body: Json, maxChars: number): (Json & Slice)[] {
  const slices: (Json & Slice)[] = [];
  let window: TextWindow | null = { offset: 0, maxChars };
  while (window && slices.length < 1_000) {
    const slice = slicer.apply(body, window) as Json & Slice;
    slices.push(slice);
    window = slice.next_offset === null ? null : { offset: slice.next_offset, maxChars };
  }
  return slices;
}

describe('MCP answers', () => {
  it('carry the body as structured content and the same JSON, unindented, as text', () => {
    const body = { data: [{ symbol: 'MSFT:US', name: 'He said "hi"\n' }], pagination: { next_cursor: 'c1', has_more: true } };
    const result = toolResult(body);
    expect(result.structuredContent).toBe(body);
    expect(result.content).toEqual([{ type: 'text', text: JSON.stringify(body) }]);
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(body);
  });

  it("slice a 10-K section's text: followed by next_offset, the slices reassemble to the whole", () => {
    const body = teslaRiskFactors();
    expect(body.length).toBe(79_724);
    for (const maxChars of [SLICE_DEFAULT_CHARS, 7_777, 100_000]) {
      const slices = readAll(SECTION_TEXT, body, maxChars);
      expect(slices.map((s) => s.text).join('')).toBe(body.text);
      expect(slices).toHaveLength(Math.ceil(79_724 / maxChars));
      let offset = 0;
      for (const slice of slices) {
        expect(slice).toMatchObject({ offset, total_chars: 79_724 });
        expect((slice.text as string).length).toBeLessThanOrEqual(maxChars);
        // Everything but the text is the REST body's: char_start and char_end still locate the whole section.
        expect({ ...slice, text: body.text, offset: undefined, total_chars: undefined, next_offset: undefined }).toEqual(body);
        offset += (slice.text as string).length;
      }
      expect(slices.at(-1)!.next_offset).toBeNull();
    }
    // At the default, an answer stays near 20,000 characters.
    expect(JSON.stringify(SECTION_TEXT.apply(body, { offset: 0, maxChars: SLICE_DEFAULT_CHARS })).length).toBeLessThan(22_000);
    // The caller's body is not modified.
    expect(body.text!.length).toBe(79_724);
  });

  it('answer a section without text, and an offset past the end, with an empty last slice', () => {
    const body = { ...teslaRiskFactors(), status: 'not_present', text: null } as Json;
    expect(SECTION_TEXT.apply(body, { offset: 0, maxChars: 500 })).toEqual({ ...body, offset: 0, total_chars: 0, next_offset: null });
    const past = SECTION_TEXT.apply({ text: 'short' }, { offset: 9, maxChars: 500 });
    expect(past).toEqual({ text: '', offset: 9, total_chars: 5, next_offset: null });
  });

  it('never cut between the two halves of a surrogate pair', () => {
    const text = `${'a'.repeat(99)}💥${'b'.repeat(150)}`;
    const slices = readAll(SECTION_TEXT, { text }, 100);
    expect(slices.map((s) => s.text)).toEqual(['a'.repeat(99), `💥${'b'.repeat(98)}`, 'b'.repeat(52)]);
  });

  it("slice a transcript's turns: every turn's part is the document text at its offsets, and the parts reassemble to each turn", () => {
    const { body, documentText } = citiTranscript();
    const whole = body.turns.map((turn) => turn.text).join('');
    expect(body.turns).toHaveLength(59);
    for (const maxChars of [SLICE_DEFAULT_CHARS, 3_000]) {
      const slices = readAll(TRANSCRIPT_TURNS, body, maxChars) as unknown as (TranscriptDetailBody & Slice)[];
      expect(slices.length).toBe(Math.ceil(whole.length / maxChars));
      const parts = new Map<number, string>();
      for (const slice of slices) {
        expect(slice.total_chars).toBe(whole.length);
        expect(slice.turns.reduce((n, turn) => n + turn.text.length, 0)).toBeLessThanOrEqual(maxChars);
        // The call, participants and section counts are the whole transcript's in every slice.
        expect({ ...slice, turns: body.turns, offset: undefined, total_chars: undefined, next_offset: undefined }).toEqual(body);
        for (const turn of slice.turns) {
          expect(documentText.slice(turn.char_start, turn.char_end)).toBe(turn.text);
          parts.set(turn.index, (parts.get(turn.index) ?? '') + turn.text);
        }
      }
      expect(slices.flatMap((s) => s.turns.map((turn) => turn.text)).join('')).toBe(whole);
      expect([...parts.entries()]).toEqual(body.turns.map((turn) => [turn.index, turn.text]));
      expect(slices.at(-1)!.next_offset).toBeNull();
    }
    const first = TRANSCRIPT_TURNS.apply(body, { offset: 0, maxChars: SLICE_DEFAULT_CHARS });
    // The REST body is about 97,000 characters; a default slice about a quarter of it.
    expect(JSON.stringify(body).length).toBeGreaterThan(90_000);
    expect(JSON.stringify(first).length).toBeLessThan(30_000);
  });
});
