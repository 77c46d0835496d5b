import { DOCUMENT_PAGE_SEPARATOR } from '@app/contracts';

export interface PageOffsets {
  char_start: number;
  char_end: number;
}

export interface DocumentText {
  text: string;
  /** One per page, in page order: text.slice(char_start, char_end) === pageTexts[i]. */
  offsets: PageOffsets[];
}

/**
 * The document's text: the pages' texts joined by `separator` (the contract's "\n\f\n"), with
 * each page's span in it. Offsets are JavaScript string indices (UTF-16 code units), so
 * `text.slice(char_start, char_end)` is the page exactly; a consumer in another language counts
 * UTF-16 units too (a character outside the BMP, such as an emoji, counts 2).
 */
export function buildDocumentText(pageTexts: readonly string[], separator: string = DOCUMENT_PAGE_SEPARATOR): DocumentText {
  const offsets: PageOffsets[] = [];
  let cursor = 0;
  pageTexts.forEach((pageText, i) => {
    if (i > 0) cursor += separator.length;
    offsets.push({ char_start: cursor, char_end: cursor + pageText.length });
    cursor += pageText.length;
  });
  return { text: pageTexts.join(separator), offsets };
}
