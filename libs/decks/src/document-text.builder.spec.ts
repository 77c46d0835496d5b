import { DOCUMENT_PAGE_SEPARATOR } from '@app/contracts';
import { buildDocumentText } from './document-text.builder';

describe('buildDocumentText', () => {
  it('joins pages with the contract separator and gives each page its exact span', () => {
    const pages = ['Title\nbody', '', 'last'];
    const { text, offsets } = buildDocumentText(pages);
    expect(text).toBe(`Title\nbody${DOCUMENT_PAGE_SEPARATOR}${DOCUMENT_PAGE_SEPARATOR}last`);
    expect(offsets).toEqual([
      { char_start: 0, char_end: 10 },
      { char_start: 13, char_end: 13 },
      { char_start: 16, char_end: 20 },
    ]);
    offsets.forEach((o, i) => expect(text.slice(o.char_start, o.char_end)).toBe(pages[i]));
  });

  it('counts UTF-16 code units: an emoji outside the BMP is 2', () => {
    const pages = ['Umsatz €', '📈 up', 'ﬁn'];
    const { text, offsets } = buildDocumentText(pages, '|');
    expect(offsets).toEqual([
      { char_start: 0, char_end: 8 },
      { char_start: 9, char_end: 14 },
      { char_start: 15, char_end: 17 },
    ]);
    offsets.forEach((o, i) => expect(text.slice(o.char_start, o.char_end)).toBe(pages[i]));
  });

  it('is empty for no pages', () => {
    expect(buildDocumentText([])).toEqual({ text: '', offsets: [] });
  });
});
