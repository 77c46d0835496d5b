import { collapseWhitespace, htmlPages } from './html-lines';

/**
 * An exhibit's visible text, page by page, at the filer's own page breaks. Each page is its lines
 * joined by "\n" (lines as in html-lines.ts: whitespace collapsed, trimmed, empty dropped), so a
 * page string is what buildDocumentText (libs/decks) offsets point at. Pages without text are
 * dropped wherever they fall (breaks at the ends, two adjacent breaks).
 */
export interface ExhibitPages {
  pages: string[];
  /** The exhibit shows images (<img>) but has no text at all: a scanned or picture-only exhibit. */
  imagesOnly: boolean;
}

// SGML markup that 1990s text filings keep inside <TEXT>: table and footnote tags, not words.
const SGML_TEXT_TAG_LINE = /^(?:<\/?(?:TABLE|CAPTION|S|C|FN|F\d+|R\d*|PRE|SUM)>\s*)+$/i;
const PAGE_MARK = /^[ \t]*<PAGE>[ \t]*$|\f/im;

function textPages(body: string): string[] {
  const pages: string[] = [];
  for (const chunk of body.split(new RegExp(PAGE_MARK.source, 'gim'))) {
    const lines = chunk
      .split(/\r\n|\r|\n/)
      .map(collapseWhitespace)
      .filter((line) => line && !SGML_TEXT_TAG_LINE.test(line));
    if (lines.length) pages.push(lines.join('\n'));
  }
  return pages;
}

/** Splits an exhibit body (HTML, inline XBRL or plain text) into page texts; pure. */
export function exhibitPages(body: string, format: 'html' | 'text'): ExhibitPages {
  if (format === 'text') return { pages: textPages(body), imagesOnly: false };
  const { pages, hasImage } = htmlPages(body);
  const texts = pages.map((lines) => lines.join('\n'));
  return { pages: texts, imagesOnly: hasImage && texts.length === 0 };
}

// Lines above a release's headline that are not the headline.
const NOT_A_TITLE: readonly RegExp[] = [
  /^ex(?:hibit|h\.?)?[\s-]*\d+(?:\.\d+)?\b/i, // "Exhibit 99.1", "EX-99.1"
  /^(?:for )?(?:immediate|release)\b/i, // "FOR IMMEDIATE RELEASE", "For release at 4:05 p.m. ET"
  /^(?:news|press|media|earnings) release\b/i,
  /^(?:news|press release|investor relations|media relations)$/i,
  /^[a-z][a-z .]{0,20}:/i, // "Contact:", "phone:", "web:", "Source:"
  /\bcontacts?$/i, // "Investor Relations Contact"
  /^p\.?\s?o\.? box\b|\b\d{5}(?:-\d{4})?$/i, // postal addresses
  /^(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?\s+\d{4}$/i,
  /^\d{1,2}\/\d{1,2}\/\d{2,4}$/,
  /^(?:\+?1?[\s.-]?\(?\d{3}\)?[\s.-]?\d{3}[\s.-]\d{4}|[\w.+-]+@[\w.-]+\.\w+|(?:https?:\/\/)?www\.\S+)$/i, // phone, e-mail, web address
  /^[\d\s.,$%()-]*$/, // numbers only
];

/**
 * The release's headline for a document title: the first line of the first page (after "FOR
 * IMMEDIATE RELEASE" when the page has it) that is not an exhibit label, release instruction,
 * labelled contact line, date, address, phone or web line, a bare company name (up to five words
 * ending in Inc./Corp./Co./Ltd.) or shorter than three words. Null when nothing qualifies.
 */
export function exhibitTitle(pages: readonly string[]): string | null {
  const first = pages[0];
  if (!first) return null;
  const lines = first.split('\n').slice(0, 40);
  // Contacts often sit above "FOR IMMEDIATE RELEASE" and the headline follows it: start there.
  const release = lines.findIndex((line) => /^for immediate release\b/i.test(line));
  for (const line of lines.slice(release + 1)) {
    if (line.length < 8 || NOT_A_TITLE.some((re) => re.test(line))) continue;
    if (/^[\w&.,' -]{1,60}\b(?:inc|corp|corporation|co|company|ltd|plc|llc|l\.p|n\.v|s\.a)\.?$/i.test(line) && line.split(' ').length <= 5) continue;
    if (!/[a-z]/i.test(line) || line.split(' ').length < 3) continue;
    return line;
  }
  return null;
}
