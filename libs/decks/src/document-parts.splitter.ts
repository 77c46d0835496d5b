import { DOCUMENT_TEXT_CHARS_PER_RECORD } from '@app/contracts';
import { DecksError } from './decks.errors';

/**
 * Most UTF-8 bytes of one part's pages as JSON (`JSON.stringify(part.pages)`). Kafka's default
 * limit is 1 MiB per message; the rest is left to the envelope (provenance, title, PDF info).
 */
export const DOCUMENT_PART_MAX_BYTES = 900_000;

export interface DocumentPart<P> {
  index: number;
  count: number;
  pages: P[];
}

/**
 * Splits a document's pages, in order, into parts of whole pages whose page texts add up to at
 * most `maxChars` (the contract's DOCUMENT_TEXT_CHARS_PER_RECORD) and whose pages, as JSON in
 * UTF-8, take at most `maxBytes`. Both are needed: the char cap counts UTF-16 units, but a CJK
 * character takes 3 bytes, JSON escapes grow control-heavy text, and each page repeats parts of
 * its text (caption, quote), so a part under the char cap can still be over Kafka's 1 MB. Greedy:
 * a part takes pages until the next would overflow it. A single page over either limit cannot be
 * split without breaking the page-offset contract: DecksError('page_too_large'), which the app
 * dead-letters.
 */
export function toDocumentParts<P extends { text: string; page_index: number }>(
  pages: readonly P[],
  maxChars: number = DOCUMENT_TEXT_CHARS_PER_RECORD,
  maxBytes: number = DOCUMENT_PART_MAX_BYTES,
): Array<DocumentPart<P>> {
  const groups: P[][] = [];
  let chars = 0;
  // Bytes of the group as a JSON array: "[" + pages joined by "," + "]".
  let bytes = 0;
  for (const page of pages) {
    if (page.text.length > maxChars) {
      throw new DecksError('page_too_large', `page ${page.page_index} has ${page.text.length} characters of text, more than the ${maxChars} a record holds`);
    }
    const pageBytes = Buffer.byteLength(JSON.stringify(page), 'utf8');
    if (pageBytes + 2 > maxBytes) {
      throw new DecksError('page_too_large', `page ${page.page_index} takes ${pageBytes} bytes as JSON, more than the ${maxBytes} a record holds`);
    }
    const current = groups[groups.length - 1];
    if (current && chars + page.text.length <= maxChars && bytes + 1 + pageBytes <= maxBytes) {
      current.push(page);
      chars += page.text.length;
      bytes += 1 + pageBytes;
    } else {
      groups.push([page]);
      chars = page.text.length;
      bytes = 2 + pageBytes;
    }
  }
  return groups.map((group, index) => ({ index, count: groups.length, pages: group }));
}
