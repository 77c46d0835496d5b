import { DOCUMENT_TEXT_CHARS_PER_RECORD } from '@app/contracts';
import { DecksError } from './decks.errors';
import { DOCUMENT_PART_MAX_BYTES, toDocumentParts } from './document-parts.splitter';

/** A page shaped like a document-text page: its text, plus the caption and quote that repeat part of it. */
const page = (page_index: number, text: string) => ({ page_index, text, vision_caption: text.slice(0, 200), quote: text.slice(0, 100) });
/** CJK text: 3 UTF-8 bytes per UTF-16 character. */
const cjk = (chars: number): string => '決算説明資料売上高営業利益'.repeat(Math.ceil(chars / 13)).slice(0, chars);
const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), 'utf8');

describe('toDocumentParts', () => {
  it('splits on bytes too: CJK pages under the char cap would make a record over Kafka 1 MB', () => {
    const pages = Array.from({ length: 12 }, (_, i) => page(i, cjk(50_000)));
    // By characters alone, six pages (300,000 characters, ~900 KB of text alone) would share a part.
    expect(toDocumentParts(pages, DOCUMENT_TEXT_CHARS_PER_RECORD, Infinity).map((p) => p.pages.length)).toEqual([6, 6]);

    const parts = toDocumentParts(pages);
    expect(parts.map((p) => p.pages.length)).toEqual([5, 5, 2]);
    expect(parts.map((p) => [p.index, p.count])).toEqual([
      [0, 3],
      [1, 3],
      [2, 3],
    ]);
    expect(parts.flatMap((p) => p.pages.map((q) => q.page_index))).toEqual(pages.map((p) => p.page_index));
    for (const part of parts) expect(jsonBytes(part.pages)).toBeLessThanOrEqual(DOCUMENT_PART_MAX_BYTES);
  });

  it('counts the bytes of the JSON array exactly (brackets, commas, escapes)', () => {
    const pages = [page(0, 'a"b\\c'), page(1, 'é\n'), page(2, 'x')];
    const exact = jsonBytes(pages.slice(0, 2));
    expect(toDocumentParts(pages, 1000, exact).map((p) => p.pages.length)).toEqual([2, 1]);
    expect(toDocumentParts(pages, 1000, exact - 1).map((p) => p.pages.length)).toEqual([1, 2]);
  });

  it('rejects a single page over the byte bound as page_too_large', () => {
    const pages = [page(0, 'cover'), page(1, cjk(DOCUMENT_TEXT_CHARS_PER_RECORD))];
    expect(() => toDocumentParts(pages)).toThrow(DecksError);
    expect(() => toDocumentParts(pages)).toThrow(/^page 1 takes \d+ bytes as JSON, more than the 900000 a record holds$/);
  });
});
