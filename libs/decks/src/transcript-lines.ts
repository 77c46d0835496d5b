import type { DocumentText } from './document-text.builder';

/* The document text as lines with their offsets, and the lines that carry no words of the call. */

export interface Line {
  text: string;
  start: number;
  end: number;
  page: number;
}

/** The document's non-blank lines, each with its offsets in the document text and its page. */
export function linesOf(doc: DocumentText): Line[] {
  const lines: Line[] = [];
  doc.offsets.forEach((page, index) => {
    let start = page.char_start;
    for (const text of doc.text.slice(page.char_start, page.char_end).split('\n')) {
      if (text.trim().length > 0) lines.push({ text, start, end: start + text.length, page: index });
      start += text.length + 1;
    }
  });
  return lines;
}

/** A line with no letter or digit: a dotted rule between turns, a stray period. */
export function isRule(text: string): boolean {
  return !/[\p{L}\p{N}]/u.test(text);
}

/** "P R E S E N T A T I O N" -> "PRESENTATION": letter-spaced words lose their spaces; other text is returned trimmed. */
export function unspaced(text: string): string {
  const t = text.trim();
  return /^(?:\S\s+){3,}\S$/.test(t) && t.split(/\s+/).every((c) => c.length === 1) ? t.replace(/\s+/g, '') : t;
}

/** Whether a line ends a sentence (or a bracketed aside): what precedes a speaker label printed on its own line. */
export function endsSentence(text: string): boolean {
  return /[.?!…"”’)\]]$/.test(text.trim());
}

const furnitureKey = (text: string): string => text.replace(/\d+/g, '#').replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * Lines repeated at the top (first 4 lines) or bottom (last 2) of at least half of the pages, and
 * lone page numbers at the bottom: running headers and footers. Only a run from the page's edge
 * counts, so a body line that happens to repeat a header is not taken. Rules (dotted lines) are
 * skipped over, neither taken nor breaking the run.
 */
export function findFurniture(lines: readonly Line[], pageCount: number): Set<Line> {
  const byPage: Line[][] = Array.from({ length: pageCount }, () => []);
  for (const line of lines) if (!isRule(line.text)) byPage[line.page]!.push(line);
  const seen = new Map<string, Set<number>>();
  for (const [page, pageLines] of byPage.entries()) {
    for (const line of [...pageLines.slice(0, 4), ...pageLines.slice(-2)]) {
      const key = furnitureKey(line.text);
      if (!seen.has(key)) seen.set(key, new Set());
      seen.get(key)!.add(page);
    }
  }
  const repeated = (line: Line): boolean => (seen.get(furnitureKey(line.text))?.size ?? 0) >= Math.max(2, Math.ceil(pageCount / 2));
  const furniture = new Set<Line>();
  for (const pageLines of byPage) {
    for (let i = 0; i < pageLines.length && i < 4 && repeated(pageLines[i]!); i += 1) furniture.add(pageLines[i]!);
    for (let i = pageLines.length - 1; i >= 0 && i >= pageLines.length - 2; i -= 1) {
      const line = pageLines[i]!;
      if (!repeated(line) && !/^\d{1,4}$/.test(line.text.trim())) break;
      furniture.add(line);
    }
  }
  return furniture;
}
