import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractTenkSections } from '@app/edgar';
import { defaultFixturesDir } from '@app/testing';
import { alterOneCharacter } from './alter-quote';
import { detectSourceKind, quoteOccursIn, SourceText } from './source-text';

// The quotes of tenk-section@1 records, made by the extractor from every whole 10-K fixture: the
// Item 1 description and the section headings. The verifier finds each (style tenk_text), and
// none with one character changed.
const FILES = ['TSLA-tsla-10-k-2025-01-30.html', 'AMZN-amzn-10-k-2025-02-07.html', 'WFC-wfc-10-k-2025-02-25.html', '0000950153-99-001234.html'];

describe('quoteOccursIn: 10-K descriptions and headings (tenk_text)', () => {
  it('a description of two paragraphs is found in the document text only (Amazon)', async () => {
    const bytes = readFileSync(join(defaultFixturesDir(), 'tenk', FILES[1]!));
    const description = extractTenkSections(bytes).description!.text;
    expect(description.split('\n')).toHaveLength(2);
    expect(await new SourceText(bytes, 'sec_html').find(description)).toEqual({ style: 'tenk_text', pageIndex: null });
  });

  it.each(FILES)('%s: the description and every heading', async (file) => {
    const bytes = readFileSync(join(defaultFixturesDir(), 'tenk', file));
    expect(detectSourceKind(bytes, 'sec')).toBe('sec_html');
    const extraction = extractTenkSections(bytes);
    const quotes = [extraction.description!.text, ...extraction.sections.flatMap((s) => (s.heading ? [s.heading] : []))];
    expect(quotes.length).toBeGreaterThanOrEqual(3);
    const text = new SourceText(bytes, 'sec_html');
    // A description may also stand in the bytes as written (raw) or in the XHTML's normalized text.
    expect(await text.find(extraction.description!.text)).toEqual({ style: expect.stringMatching(/^(raw|ixbrl_text|tenk_text)$/) as unknown, pageIndex: null });
    for (const quote of quotes) {
      expect(await text.find(quote)).not.toBeNull();
      expect(await quoteOccursIn(bytes, 'sec_html', alterOneCharacter(quote))).toBe(false);
    }
  });
});
