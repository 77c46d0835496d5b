import { isTag, type Element } from 'domhandler';
import { normalizeWhitespace, textContent } from './ixbrl.document';

/**
 * The table rows facts sit in, read the one way every inline-XBRL extractor quotes them: a row's
 * quote is normalizeWhitespace(text content of the `tr`), a substring of the document's normalized
 * text (it verifies as ixbrl_text); its label is the first cell with text, as printed.
 */

export interface RowText {
  /** First non-empty cell of the row, whitespace normalized; null for a row without text. */
  label: string | null;
  /** The row's text content, whitespace normalized. */
  quote: string;
  /** letters(quote): what member names are looked for in. */
  key: string;
}

/** Letters and digits only, lower case, `&` read as "and": how labels are matched to member names. */
export function letters(s: string): string {
  return s.toLowerCase().replace(/&/g, 'and').replace(/[^a-z0-9]/g, '');
}

/** Whether an element is a table row (any namespace prefix). */
export function isRow(el: Element): boolean {
  return el.name === 'tr' || el.name.endsWith(':tr');
}

/** Nearest ancestor element named `tag` (any namespace prefix). */
export function ancestor(el: Element, tag: string): Element | null {
  let p = el.parent;
  while (p && isTag(p)) {
    if (p.name === tag || p.name.endsWith(`:${tag}`)) return p;
    p = p.parent;
  }
  return null;
}

/** Nearest ancestor `tr`. */
export const rowOf = (el: Element): Element | null => ancestor(el, 'tr');
/** Nearest ancestor `table`. */
export const tableOf = (el: Element): Element | null => ancestor(el, 'table');

export function cellsOf(tr: Element): Element[] {
  return tr.children.filter((c): c is Element => isTag(c) && (c.name === 'td' || c.name === 'th' || c.name.endsWith(':td') || c.name.endsWith(':th')));
}

/** First cell with text in the row: the row label as printed. */
export function rowLabel(tr: Element): string | null {
  for (const cell of cellsOf(tr)) {
    const t = normalizeWhitespace(textContent(cell));
    if (t) return t;
  }
  return null;
}

/** The texts of table rows, each row read once however many facts it holds. */
export function rowTexts(): (tr: Element) => RowText {
  const cache = new Map<Element, RowText>();
  return (tr) => {
    let r = cache.get(tr);
    if (!r) {
      const quote = normalizeWhitespace(textContent(tr));
      r = { label: rowLabel(tr), quote, key: letters(quote) };
      cache.set(tr, r);
    }
    return r;
  };
}
