import type { DocumentKind } from '@app/contracts';
import { firstDate } from './dates';
import type { PageLink, PageModel } from './page-text';
import { isHeadingLike } from './text-cues';

export interface DocumentEvent {
  /** `<cik>|<date or empty>|<normalized title>` */
  key: string;
  title: string;
  date: string | null;
}

/** One document link read from a page; `quote` is verbatim page text (the line holding the link). */
export interface DocumentLink {
  url: string;
  title: string;
  kind: DocumentKind;
  published_on: string | null;
  is_pdf: boolean;
  event: DocumentEvent | null;
  quote: string;
}

/** File types that are documents whatever the link says (decks, reports, releases, recordings). */
const DOCUMENT_FILE = /\.(?:pdf|pptx?|docx?|xlsx?|mp3|m3u8?|mp4|wav|m4a|wma|wmv)$/i;
const MEDIA_FILE = /\.(?:mp3|m3u8?|mp4|wav|m4a|wma|wmv)$/i;

/**
 * Kind from the link's title and URL, then from the section heading it is listed under. Order
 * matters: a recording is a webcast whatever its title says (a transcript link is a transcript,
 * even "Webcast transcript"); a line that "announces results"
 * is a press release even though it names a quarter or a fiscal year.
 */
const KIND_CUES: ReadonlyArray<{ kind: DocumentKind; pattern: RegExp }> = [
  { kind: 'transcript', pattern: /\btranscripts?\b/i },
  { kind: 'webcast', pattern: /\b(?:webcast|replay|audio|podcast|recording)\b/i },
  { kind: 'press_release', pattern: /\b(?:press releases?|news releases?|announces?|reports? (?:\w+ )?results|earnings release)\b/i },
  { kind: 'proxy_statement', pattern: /\b(?:proxy|def ?14a)\b/i },
  { kind: 'annual_report', pattern: /\b(?:annual reports?|10-?k|20-?f)\b/i },
  { kind: 'quarterly_report', pattern: /\b(?:quarterly reports?|10-?q)\b/i },
  { kind: 'presentation', pattern: /\b(?:presentations?|investor deck|slides?|slide deck|investor day)\b/i },
];

/** The kind a text names, or null. */
export function kindFromText(text: string): DocumentKind | null {
  return KIND_CUES.find((c) => c.pattern.test(text))?.kind ?? null;
}

/** IR events a line or heading can name (earnings calls, results, meetings, conferences). */
const EVENT_CUE = /\b(?:conference call|earnings call|webcast|results|annual (?:shareholder |stockholder |general )?meeting|investor day|conference)\b/i;
const CALL_CUE = /\b(?:conference call|earnings call|webcast)\b/i;

/** Lowercase words of a title joined by single spaces: the title part of an event key. */
export function normalizeTitle(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
}

export function eventKey(cik: string, date: string | null, title: string): string {
  return `${cik}|${date ?? ''}|${normalizeTitle(title)}`;
}

/** A title without the date printed in front of it ("9/28/2017-FRP Holdings ..." -> "FRP Holdings ..."). */
function withoutLeadingDate(text: string): string {
  const date = firstDate(text);
  if (!date || date.index > 1) return text;
  const rest = text.slice(date.index + date.text.length).replace(/^[\s:|–—-]+/, '').trim();
  return rest || text;
}

/** Percent-decoded text; a malformed escape ("%E0%A4%A") leaves the raw text. */
function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function fileName(url: string): string {
  const last = safeDecode(new URL(url).pathname.split('/').pop() ?? '');
  return last.replace(/\.[a-z0-9]+$/i, '').replace(/[_-]+/g, ' ').trim() || url;
}

/** The nearest heading-like line above `line` (an h1-h6, or a short line ending in ":"), or null. */
function sectionHeading(page: PageModel, line: number): string | null {
  for (let i = line - 1; i >= 0; i -= 1) {
    if (page.linkOnlyLines.has(i)) continue;
    const text = page.lines[i]!;
    if (page.headingLevels.has(i) || (isHeadingLike(text) && text.endsWith(':'))) return text.replace(/:$/, '');
  }
  return null;
}

/** Link text that says nothing of the document: empty, a file-type or action word ("PDF", "Download"). */
const GENERIC_LINK_TEXT = /^\(?(?:pdf|pdf file|download(?: pdf)?|view(?: pdf)?|click here|here|open|link|file)?\)?$/i;
/** Link text that is only a period ("SEPTEMBER 2015", "Q3 2024", "FY2016", "MARCH 2015 - Amended"). */
const PERIOD_LINK_TEXT =
  /^(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{4}|q[1-4]\s*'?\d{2,4}|(?:first|second|third|fourth) quarter(?: of)?\s+\d{4}|fy\s*\d{4}|\d{4})(?:\s*[-–—]\s*amended)?$/i;

/** How far above a link a label naming what it links is looked for. */
const LABEL_LINES_BACK = 20;

/**
 * What a link whose text names no document (GENERIC_LINK_TEXT, PERIOD_LINK_TEXT) links, from
 * around it: the rest of its own line (a table row "Q3 2024 Earnings Release | PDF"), else, for a
 * link with text, the nearest short line above that names a kind of document (a heading
 * "10Q Filings" over a list of periods). Null when the link text says enough, or nothing around it names the document.
 * `from` is the line the label was read on, for the quote.
 */
function contextTitle(page: PageModel, link: PageLink, line: string): { label: string; from: number } | null {
  const text = link.text.trim();
  if (!GENERIC_LINK_TEXT.test(text) && !PERIOD_LINK_TEXT.test(text)) return null;
  const rest = (text ? line.replace(text, ' ') : line).replace(/\s+/g, ' ').replace(/^[\s|:•·–—-]+|[\s|:•·–—-]+$/g, '').trim();
  if (/[a-z]{3}/i.test(rest) && !GENERIC_LINK_TEXT.test(rest) && !PERIOD_LINK_TEXT.test(rest) && firstDate(rest)?.text !== rest) return { label: rest, from: link.line };
  // An empty link (an image, an icon) keeps its own fallbacks: its alt text, its file name.
  if (!text) return null;
  for (let i = link.line - 1; i >= 0 && i >= link.line - LABEL_LINES_BACK; i -= 1) {
    if (page.linkOnlyLines.has(i)) continue;
    const above = page.lines[i]!.replace(/:$/, '').trim();
    if (above && isHeadingLike(above) && kindFromText(above) !== null) return { label: above, from: i };
  }
  return null;
}

/** A link is a document when its URL is a document file, or its line is dated and names a document. */
function isDocumentLink(link: PageLink, line: string): link is PageLink & { url: string } {
  if (!link.url) return false;
  const path = new URL(link.url).pathname;
  if (DOCUMENT_FILE.test(path)) return true;
  return link.text.length > 0 && firstDate(line) !== null && kindFromText(link.text) !== null;
}

/**
 * Documents linked from a page, in page order, one per URL (the first listing wins).
 * - title: the link text without a leading date; else the line's text, an image's alt, the file name.
 * - published_on: the first full date on the link's line (or on the line just above, when that
 *   line is only a date); month-only dates ("September 2017") give null.
 * - event: a heading above the link that names an IR event groups its links; in a flat dated
 *   list, lines naming an event on the same date are one event, titled by the line naming the
 *   call (so a results release and the call's recording of 05/04/2016 share one event).
 */
export function extractDocuments(page: PageModel, cik: string): DocumentLink[] {
  const docs: DocumentLink[] = [];
  /** URL -> index in docs, and whether that listing's link had text. */
  const seen = new Map<string, { at: number; hadText: boolean }>();
  for (const link of page.links) {
    const line = page.lines[link.line] ?? link.text;
    if (!isDocumentLink(link, line)) continue;
    const prior = seen.get(link.url);
    // One document per URL, its first listing; unless that link was empty and this one names it.
    if (prior && (prior.hadText || !link.text.trim())) continue;
    const heading = sectionHeading(page, link.line);
    const above = page.lines[link.line - 1];
    const date = firstDate(line) ?? (above && firstDate(above)?.text === above ? firstDate(above) : null);
    const context = contextTitle(page, link, line);
    const linkText = link.text.trim();
    const rawTitle = context
      ? PERIOD_LINK_TEXT.test(linkText) ? `${context.label} - ${linkText}` : context.label
      : link.text || (line !== link.text ? line : '') || link.imageAlt || fileName(link.url);
    const title = context ? rawTitle : withoutLeadingDate(rawTitle);
    const path = new URL(link.url).pathname;
    const kind = MEDIA_FILE.test(path) ? 'webcast' : (kindFromText(`${title} ${path}`) ?? (heading ? kindFromText(heading) : null) ?? 'other');
    let event: DocumentEvent | null = null;
    if (heading && EVENT_CUE.test(heading)) {
      const headingDate = firstDate(heading)?.date ?? null;
      event = { key: eventKey(cik, headingDate, heading), title: heading, date: headingDate };
    } else if (EVENT_CUE.test(title)) {
      event = { key: eventKey(cik, date?.date ?? null, title), title, date: date?.date ?? null };
    }
    // The quote is verbatim page text: the link's line, from the label's line down when the title comes from a label above.
    const quote = context && context.from < link.line ? page.lines.slice(context.from, link.line + 1).join('\n') : page.lines[link.line] ? line : title;
    const doc = { url: link.url, title, kind, published_on: date?.date ?? null, is_pdf: /\.pdf$/i.test(path), event, quote };
    if (prior) docs[prior.at] = doc;
    else docs.push(doc);
    seen.set(link.url, { at: prior?.at ?? docs.length - 1, hadText: linkText.length > 0 });
  }
  return groupSameDayEvents(docs);
}

/** Line events of one date become one event, titled by the line naming a call (else the first). */
function groupSameDayEvents(docs: DocumentLink[]): DocumentLink[] {
  const byDate = new Map<string, DocumentLink[]>();
  for (const doc of docs) {
    if (!doc.event?.date || doc.event.title !== doc.title) continue;
    const group = byDate.get(doc.event.date) ?? [];
    group.push(doc);
    byDate.set(doc.event.date, group);
  }
  for (const group of byDate.values()) {
    if (group.length < 2) continue;
    const lead = group.find((d) => CALL_CUE.test(d.title)) ?? group[0]!;
    for (const doc of group) doc.event = lead.event;
  }
  return docs;
}
