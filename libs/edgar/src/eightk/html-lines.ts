import { load } from 'cheerio';
import type { AnyNode, Element, Text } from 'domhandler';

/**
 * Visible text of an EDGAR HTML document as lines, page by page. The line rules are those of
 * issuer-pages' `pageText` (block elements end lines, whitespace runs including nbsp are one
 * space, lines trimmed, empty lines dropped, hidden parts are not text) with two differences:
 * the cells of a table row stay on one line joined by a space (earnings tables read as rows,
 * as in tenk-text), and the walk knows the filer's page breaks. It is a local copy rather than
 * an import because the page breaks need hooks inside the walk, and @app/issuer-pages would
 * bring its fetcher into this library.
 */

const SKIPPED = new Set([
  'script', 'style', 'noscript', 'template', 'head', 'title', 'iframe', 'svg', 'object', 'embed', 'canvas', 'select', 'textarea',
  'button', 'input', 'ix:header',
]);
const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'caption', 'center', 'dd', 'details', 'dialog', 'div', 'dl', 'dt', 'fieldset',
  'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'html', 'li', 'main', 'nav', 'ol', 'p',
  'pre', 'section', 'summary', 'table', 'tbody', 'tfoot', 'thead', 'tr', 'ul',
]);
const CELLS = new Set(['td', 'th']);

const BREAK_BEFORE = /(?:^|;)\s*(?:page-break-before\s*:\s*always|break-before\s*:\s*page)/i;
const BREAK_AFTER = /(?:^|;)\s*(?:page-break-after\s*:\s*always|break-after\s*:\s*page)/i;
const ANY_CSS_BREAK = /(?:page-break-(?:before|after)\s*:\s*always|break-(?:before|after)\s*:\s*page)/i;

export function collapseWhitespace(text: string): string {
  return text.replace(/[\u200b-\u200d\ufeff]/g, '').replace(/\s+/g, ' ').trim();
}

/** HTML rather than plain text: old SGML text uses <PAGE>, <TABLE>, <S>, <C>, never these tags. */
export function looksLikeHtml(text: string): boolean {
  return /<(?:html|head|body|!doctype\s+html|div|font|p|br|center)\b/i.test(text.slice(0, 8192));
}

function isText(node: AnyNode): node is Text {
  const kind: string = node.type;
  return kind === 'text';
}
function isElement(node: AnyNode): node is Element {
  const kind: string = node.type;
  return kind === 'tag' || kind === 'script' || kind === 'style';
}

function isHidden(el: Element): boolean {
  if (el.attribs.hidden !== undefined) return true;
  const style = (el.attribs.style ?? '').toLowerCase().replace(/\s+/g, '');
  return style.includes('display:none') || style.includes('visibility:hidden');
}

export interface HtmlPages {
  /** Lines of each page; pages without text are left out. */
  pages: string[][];
  /** The visible part holds at least one <img>. */
  hasImage: boolean;
}

class PageBuilder {
  readonly pages: string[][] = [];
  hasImage = false;
  private lines: string[] = [];
  private buffer = '';
  private inRow = 0;

  /**
   * @param hrBreaks every <hr> separates pages: used when the document has no CSS page break at
   *   all (older filer software paginated with rules only); otherwise a plain <hr> is a rule and
   *   the pages come from the CSS breaks (an <hr> carrying one included).
   */
  constructor(private readonly hrBreaks: boolean) {}

  flush(): void {
    const text = collapseWhitespace(this.buffer);
    this.buffer = '';
    if (text) this.lines.push(text);
  }

  pageBreak(): void {
    this.flush();
    if (this.lines.length) this.pages.push(this.lines);
    this.lines = [];
  }

  walk(node: AnyNode): void {
    if (isText(node)) {
      this.buffer += node.data;
      return;
    }
    if (!isElement(node)) {
      // The document root and CDATA hold children; comments and directives hold no text.
      if ('children' in node) for (const child of node.children) this.walk(child);
      return;
    }
    const tag = node.name.toLowerCase();
    if (SKIPPED.has(tag) || isHidden(node)) return;
    const style = node.attribs.style ?? '';
    if (BREAK_BEFORE.test(style)) this.pageBreak();
    if (tag === 'img') this.hasImage = true;
    if (tag === 'br') this.flush();
    if (tag === 'hr' && this.hrBreaks) this.pageBreak();
    const cell = CELLS.has(tag) && this.inRow > 0;
    const block = BLOCKS.has(tag);
    if (block) this.flush();
    if (tag === 'tr') this.inRow += 1;
    if (cell && this.buffer && !/\s$/.test(this.buffer)) this.buffer += ' ';
    for (const child of node.children) this.walk(child);
    if (cell) this.buffer += ' ';
    if (tag === 'tr') this.inRow -= 1;
    if (block) this.flush();
    if (BREAK_AFTER.test(style)) this.pageBreak();
  }
}

/** Pages of visible lines of an HTML (or inline XBRL) document; pure. */
export function htmlPages(html: string): HtmlPages {
  const $ = load(html);
  const builder = new PageBuilder(!ANY_CSS_BREAK.test(html));
  builder.walk($.root()[0]!);
  builder.pageBreak();
  return { pages: builder.pages, hasImage: builder.hasImage };
}

/** All visible lines of an HTML document, pages run together. */
export function htmlLines(html: string): string[] {
  return htmlPages(html).pages.flat();
}
