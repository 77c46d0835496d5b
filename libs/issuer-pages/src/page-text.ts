import { load, type CheerioAPI } from 'cheerio';
import type { AnyNode, Document, Element, Text } from 'domhandler';

/**
 * The visible text of a page as lines, the model every extractor reads.
 *
 * "Verbatim" in this library means: as the text stands in `pageText(html)`. A page's text is its
 * rendered text split into lines at block boundaries (p, div, li, td, h1-h6, ... and <br>);
 * inside a line every run of whitespace (nbsp included) is one space, lines are trimmed and empty
 * lines dropped. Nothing else is changed (case, punctuation and the page's own typos stay). A
 * quote is one line or several consecutive lines joined by "\n", so every quote is a substring
 * of `pageText(html)`. Hidden parts (script, style, template, iframe fallback, svg, elements with
 * `hidden` or an inline `display:none`/`visibility:hidden`) are not text.
 */

/** One anchor of the page, in document order. */
export interface PageLink {
  /** The href as written (relative or absolute). */
  href: string;
  /** Absolute http(s) URL without fragment; null for mailto:, javascript:, unparsable hrefs. */
  url: string | null;
  /** The anchor's text as lines joined by one space (whitespace collapsed). */
  text: string;
  /** Line the anchor's text starts on (for an anchor without text: the line that follows it). */
  line: number;
  /** Last line the anchor's text reaches. */
  endLine: number;
  /** `alt` of an image inside the anchor, for links without text. */
  imageAlt: string | null;
}

export interface PageModel {
  url: string;
  /** `<title>` text, whitespace collapsed ('' when absent). */
  title: string;
  /** `<meta name="description">` (else og:description), whitespace collapsed; null when absent or empty. */
  metaDescription: string | null;
  lines: string[];
  /** Heading level (1-6) of lines that are the text of an h1-h6 element. */
  headingLevels: ReadonlyMap<number, number>;
  /** Lines whose whole text is the text of one link (navigation items, link lists). */
  linkOnlyLines: ReadonlySet<number>;
  links: PageLink[];
}

const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'head', 'iframe', 'svg', 'object', 'embed', 'canvas', 'select', 'textarea', 'button', 'input']);
const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'caption', 'dd', 'details', 'dialog', 'div', 'dl', 'dt', 'fieldset',
  'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'html', 'li', 'main', 'nav',
  'ol', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul',
]);
const HEADING_TAG = /^h([1-6])$/;

/** Collapses whitespace (nbsp included) to single spaces, drops zero-width characters, trims. */
export function collapseWhitespace(text: string): string {
  return text.replace(/[\u200b-\u200d\ufeff]/g, '').replace(/\s+/g, ' ').trim();
}

function decode(html: string | Buffer): string {
  return typeof html === 'string' ? html : html.toString('utf8');
}

function isHidden(el: Element): boolean {
  if (el.attribs.hidden !== undefined) return true;
  const style = (el.attribs.style ?? '').toLowerCase().replace(/\s+/g, '');
  return style.includes('display:none') || style.includes('visibility:hidden');
}

/** Absolute http(s) URL of an href on a page, fragment removed; null for anything else. */
export function absoluteUrl(href: string, pageUrl: string): string | null {
  const trimmed = href.trim();
  if (!trimmed || /^(mailto|tel|javascript|data):/i.test(trimmed)) return null;
  try {
    const url = new URL(trimmed, pageUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    url.hash = '';
    return url.toString();
  } catch {
    return null;
  }
}

// Node kinds compared as strings: domhandler's ElementType enum is not a dependency of ours.
// Script and style elements have kinds of their own ('script', 'style'), so they are never walked.
function isText(node: AnyNode): node is Text {
  const kind: string = node.type;
  return kind === 'text';
}
function isElement(node: AnyNode): node is Element {
  const kind: string = node.type;
  return kind === 'tag';
}
function isDocument(node: AnyNode): node is Document {
  const kind: string = node.type;
  return kind === 'root';
}

/** Walks the DOM once, building lines and recording where links and headings fall. */
class LineBuilder {
  readonly lines: string[] = [];
  readonly headingLevels = new Map<number, number>();
  readonly links: Array<Omit<PageLink, 'text' | 'url'> & { el: Element }> = [];
  private buffer = '';

  flush(): void {
    const text = collapseWhitespace(this.buffer);
    this.buffer = '';
    if (text) this.lines.push(text);
  }

  /** Index the text being gathered now will have once flushed. */
  private pendingLine(): number {
    return this.lines.length;
  }

  walk(node: AnyNode): void {
    if (isText(node)) {
      this.buffer += node.data;
      return;
    }
    if (isElement(node)) {
      const tag = node.name.toLowerCase();
      if (SKIPPED.has(tag) || isHidden(node)) return;
      if (tag === 'br') {
        this.flush();
        return;
      }
      const block = BLOCKS.has(tag);
      if (block) this.flush();
      const start = this.pendingLine();
      for (const child of node.children) this.walk(child);
      if (tag === 'a') {
        // The anchor's last line is the one holding its last text (flushed or still buffered).
        const end = collapseWhitespace(this.buffer) ? this.pendingLine() : Math.max(start, this.lines.length - 1);
        const img = node.children.find((c): c is Element => isElement(c) && c.name === 'img');
        this.links.push({ el: node, href: node.attribs.href ?? '', line: start, endLine: end, imageAlt: img?.attribs.alt?.trim() || null });
      }
      if (block) this.flush();
      const heading = HEADING_TAG.exec(tag);
      if (heading) for (let i = start; i < this.lines.length; i += 1) this.headingLevels.set(i, Number(heading[1]));
      return;
    }
    if (isDocument(node)) for (const child of node.children) this.walk(child);
  }
}

function metaContent($: CheerioAPI, selector: string): string | null {
  const content = collapseWhitespace($(selector).first().attr('content') ?? '');
  return content || null;
}

/** Parses a page into its text model (pure). */
export function pageModel(html: string | Buffer, pageUrl: string): PageModel {
  const $ = load(decode(html));
  const builder = new LineBuilder();
  builder.walk($.root()[0]!);
  builder.flush();
  const { lines } = builder;
  const links: PageLink[] = builder.links.map(({ el: _el, ...link }) => {
    const spanned = link.line < lines.length ? lines.slice(link.line, link.endLine + 1) : [];
    // The anchor's own text, rebuilt with the same line rules (a <h4> and a <p> inside one anchor stay apart).
    const inner = new LineBuilder();
    inner.walk(_el);
    inner.flush();
    const text = inner.lines.join(' ');
    return { ...link, text, url: absoluteUrl(link.href, pageUrl), endLine: text && spanned.length ? link.endLine : link.line };
  });
  const linkOnlyLines = new Set<number>();
  for (const link of links) if (link.text && link.line === link.endLine && lines[link.line] === link.text) linkOnlyLines.add(link.line);
  return {
    url: pageUrl,
    title: collapseWhitespace($('title').first().text()),
    metaDescription: metaContent($, 'meta[name="description" i]') ?? metaContent($, 'meta[property="og:description" i]'),
    lines,
    headingLevels: builder.headingLevels,
    linkOnlyLines,
    links,
  };
}

/** The page's visible text: every quote this library produces is a substring of it. */
export function pageText(html: string | Buffer): string {
  return pageModel(html, 'http://page.invalid/').lines.join('\n');
}
