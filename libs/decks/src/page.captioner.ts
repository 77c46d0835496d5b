/** What a captioner sees of a page: its lines in reading order with their font sizes. */
export interface CaptionablePage {
  lines: ReadonlyArray<{ text: string; fontSize: number }>;
}

/**
 * Describes a page in one line. `id` names the captioner and its version and is stored beside
 * every caption (`caption_source`), so captions from different captioners can be told apart and
 * recomputed. A vision model (page image -> caption) can replace the layout captioner behind this
 * interface; it would need an async variant and the rendered page, which this library does not
 * produce (no canvas).
 */
export interface PageCaptioner {
  id: string;
  caption(page: CaptionablePage): string;
}

/** Font sizes within half a point count as the same size (PowerPoint writes 20 and 20.04 for one style). */
const SAME_SIZE = 0.5;
/** A title wraps over at most this many lines; a longer run at the largest size is a paragraph, whose first line is taken. */
const MAX_TITLE_LINES = 3;
const hasLetter = (text: string): boolean => /\p{L}/u.test(text);

/**
 * `layout@1`: the title is the first line with the largest font size (lines without a letter,
 * such as page numbers or big figures, are not candidates) and the lines right after it at that
 * size (a wrapped title: at most 3 lines, else a paragraph and only its first line counts); then " — " and the first line with a letter after the title.
 * Empty for a page without text. No vision model: it reads the text layer only.
 */
export const layoutCaptioner: PageCaptioner = {
  id: 'layout@1',
  caption(page: CaptionablePage): string {
    const candidates = page.lines.filter((l) => hasLetter(l.text));
    if (candidates.length === 0) return page.lines.map((l) => l.text).find((t) => t.length > 0) ?? '';
    const largest = Math.max(...candidates.map((l) => l.fontSize));
    const start = page.lines.findIndex((l) => hasLetter(l.text) && largest - l.fontSize <= SAME_SIZE);
    let end = start + 1;
    while (end < page.lines.length && Math.abs(page.lines[end]!.fontSize - page.lines[start]!.fontSize) <= SAME_SIZE) end += 1;
    if (end - start > MAX_TITLE_LINES) end = start + 1;
    const title = page.lines
      .slice(start, end)
      .map((l) => l.text)
      .join(' ');
    const body = page.lines.slice(end).find((l) => hasLetter(l.text));
    return body ? `${title} — ${body.text}` : title;
  },
};
