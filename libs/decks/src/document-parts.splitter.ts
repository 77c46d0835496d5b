import { DOCUMENT_TEXT_CHARS_PER_RECORD } from '@app/contracts';
import { DecksError } from './decks.errors';

export interface DocumentPart<P> {
  index: number;
  count: number;
  pages: P[];
}

/**
 * Splits a document's pages, in order, into parts of whole pages whose page texts add up to at
 * most `maxChars` (the contract's DOCUMENT_TEXT_CHARS_PER_RECORD, which keeps a record under
 * Kafka's 1 MB message limit). Greedy: a part takes pages until the next would overflow it. A
 * single page longer than the limit cannot be split without breaking the page-offset contract:
 * DecksError('page_too_large'), which the app dead-letters.
 */
export function toDocumentParts<P extends { text: string; page_index: number }>(
  pages: readonly P[],
  maxChars: number = DOCUMENT_TEXT_CHARS_PER_RECORD,
): Array<DocumentPart<P>> {
  const groups: P[][] = [];
  let size = 0;
  for (const page of pages) {
    if (page.text.length > maxChars) {
      throw new DecksError('page_too_large', `page ${page.page_index} has ${page.text.length} characters of text, more than the ${maxChars} a record holds`);
    }
    const current = groups[groups.length - 1];
    if (current && size + page.text.length <= maxChars) {
      current.push(page);
      size += page.text.length;
    } else {
      groups.push([page]);
      size = page.text.length;
    }
  }
  return groups.map((group, index) => ({ index, count: groups.length, pages: group }));
}
