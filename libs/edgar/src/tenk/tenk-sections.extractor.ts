import { tenkText, type TenkText } from './tenk-text';

/**
 * Item 1 (Business), Item 1A (Risk Factors) and Item 7 (MD&A) of a 10-K's primary document, located
 * by the item headings in the body (never by the table of contents) or, where the filer uses one,
 * by its cross-reference index. Pure: bytes in, sections out; offsets are into tenkText(bytes).text.
 */

export const TENK_SECTIONS_EXTRACTOR_VERSION = 'tenk-sections@1';

export const TENK_ITEMS = ['1', '1A', '7'] as const;
export type TenkItem = (typeof TENK_ITEMS)[number];

export const TENK_SECTION_STATUSES = ['extracted', 'not_present', 'incorporated_by_reference', 'failed'] as const;
export type TenkSectionStatus = (typeof TENK_SECTION_STATUSES)[number];

export const TENK_ITEM_TITLES: Record<TenkItem, string> = {
  '1': 'Business',
  '1A': 'Risk Factors',
  '7': "Management's Discussion and Analysis of Financial Condition and Results of Operations",
};

export interface TenkSection {
  item: TenkItem;
  status: TenkSectionStatus;
  /** Why: the reference for incorporated_by_reference, what was wrong for failed, what was looked for when not_present. */
  reason: string | null;
  /** The heading line as printed; null when no heading was used. */
  heading: string | null;
  /** [charStart, charEnd) of the section (heading line included) in the document text; null when not located in it. */
  charStart: number | null;
  charEnd: number | null;
  length: number | null;
  /** Where the filer's cross-reference index places the item ("4-7, 9-11, 74-75"), when it has one. */
  crossReferencePages: string | null;
}

export interface TenkDescription {
  /** The opening paragraphs of Item 1, verbatim from the document text (lines joined by "\n"), cut at a sentence. */
  text: string;
  charStart: number;
  charEnd: number;
}

export interface TenkSectionsExtraction {
  extractorVersion: typeof TENK_SECTIONS_EXTRACTOR_VERSION;
  /** The document text the offsets refer to. */
  text: string;
  sections: TenkSection[];
  /** Null when Item 1 was not extracted or holds no prose paragraph. */
  description: TenkDescription | null;
  /** "For the fiscal year ended December 31, 2024" on the cover page, as YYYY-MM-DD; null when not printed so. */
  fiscalYearEnded: string | null;
}

/**
 * Upper bounds past which a located section is taken for a mis-location (a whole 10-K is 100k-1M
 * characters of text); they also keep one section's record under Kafka's 1 MB message limit.
 */
const MAX_LENGTH: Record<TenkItem, number> = { '1': 250_000, '1A': 300_000, '7': 300_000 };
/** The item headings that may follow each item (filers omit some, never the whole run up to here). */
const LAST_FOLLOWER: Record<TenkItem, number> = { '1': itemRank('2'), '1A': itemRank('2'), '7': itemRank('8') };
/** A heading line is short; a longer line starting "Item 7" is prose that cites the item. */
const MAX_HEADING_CHARS = 200;
/** A body this short that says "incorporated ... by reference" points elsewhere rather than holding the item. */
const REFERENCE_BODY_MAX_CHARS = 2_000;
const DESCRIPTION_MAX_CHARS = 1_000;
const DESCRIPTION_MIN_PARAGRAPH_CHARS = 80;

const TITLE_PATTERNS: Record<TenkItem, RegExp> = {
  '1': /^(?:and\s+)?business\b/i,
  '1A': /^risk\s+factors\b/i,
  '7': /^management['’`s]*\s+discussion\b/i,
};
/** "Item 7.", "ITEM 1A:", "Item 1 -", "Item 14(a)(1):": the number, then the rest of the line. */
const ITEM_LINE = /^item\s*(\d{1,2})\s*([a-d])?(?![\w])\s*[.:\-–—]?\s*(.*)$/i;
const PART_LINE = /^part\s+(?:iv|i{1,3})\b\.?(?:\s*[-–—:]?\s*[a-z ]{0,60})?$/i;
/** A cross-reference index (or a TOC row on one line) ends with its pages: "4-7, 9-11, 74-75", "26", "Not applicable". */
const PAGE_REFERENCE = /\s((?:\d{1,3}(?:\s*[-–]\s*\d{1,3})?)(?:\s*,\s*\d{1,3}(?:\s*[-–]\s*\d{1,3})?)*|not applicable|none)$/i;
const CROSS_REFERENCE_TITLE = /cross[\s-]*reference\s+index/i;
const INCORPORATED = /incorporated\s+(?:herein\s+|into\s+this\s+item\s+)?by\s+reference|can\s+be\s+found\s+in/i;
const NOT_APPLICABLE = /^(?:not\s+applicable|none|\[?reserved\]?)\.?$/i;
const FORWARD_LOOKING = /forward[\s-]+looking\s+statements?/i;

interface Line {
  index: number;
  start: number;
  end: number;
  text: string;
}

interface Boundary {
  line: Line;
  /** Item rank (1 -> 100, 1A -> 101, 7 -> 700), or null for a PART heading. */
  rank: number | null;
  /** The item this line names, when it names one of ours with its title or alone. */
  item: TenkItem | null;
  /** Rest of the line after the item number. */
  rest: string;
}

function itemRank(item: string): number {
  const m = /^(\d{1,2})([a-d])?$/i.exec(item);
  if (!m) throw new RangeError(`not an item: ${item}`);
  return Number(m[1]) * 100 + (m[2] ? m[2].toLowerCase().charCodeAt(0) - 96 : 0);
}

function linesOf(doc: TenkText): Line[] {
  const out: Line[] = [];
  for (let i = 0; i < doc.lineStarts.length; i++) {
    const start = doc.lineStarts[i]!;
    const end = i + 1 < doc.lineStarts.length ? doc.lineStarts[i + 1]! - 1 : doc.text.length;
    out.push({ index: i, start, end, text: doc.text.slice(start, end) });
  }
  return out;
}

/** Item and PART heading lines (and TOC lines, which look alike: the longest body tells them apart). */
function boundariesOf(lines: Line[]): Boundary[] {
  const out: Boundary[] = [];
  for (const line of lines) {
    if (line.text.length > MAX_HEADING_CHARS) continue;
    if (PART_LINE.test(line.text)) {
      out.push({ line, rank: null, item: null, rest: '' });
      continue;
    }
    const m = ITEM_LINE.exec(line.text);
    if (!m) continue;
    const rest = m[3]!.trim();
    // "Item 405 of Regulation S-K", "Item 7 of this report ..." are prose, not headings.
    if (/^(?:of|in|to|and|or|under|below|above|herein|hereof)\b/i.test(rest)) continue;
    const code = `${Number(m[1])}${(m[2] ?? '').toUpperCase()}`;
    const rank = itemRank(code);
    const ours = (TENK_ITEMS as readonly string[]).includes(code) ? (code as TenkItem) : null;
    const named = ours !== null && (rest === '' || TITLE_PATTERNS[ours].test(rest));
    out.push({ line, rank, item: named ? ours : null, rest });
  }
  return out;
}

/** Lines of a cross-reference index: "Item 1. Business 4-7, 9-11, 74-75" (pages on the item's line). */
function crossReferenceOf(text: string, boundaries: Boundary[]): Map<TenkItem, string> {
  const out = new Map<TenkItem, string>();
  const titled = CROSS_REFERENCE_TITLE.test(text);
  const rows = boundaries.filter((b) => b.item !== null && PAGE_REFERENCE.test(b.rest) && b.rest.replace(PAGE_REFERENCE, '').trim() !== '');
  // An index lists several items that way; one such line alone is not an index.
  const indexed = boundaries.filter((b) => b.rank !== null && PAGE_REFERENCE.test(b.rest) && /[a-z]/i.test(b.rest.replace(PAGE_REFERENCE, '')));
  if (!titled && indexed.length < 3) return out;
  for (const b of rows) if (!out.has(b.item!)) out.set(b.item!, PAGE_REFERENCE.exec(b.rest)![1]!.trim());
  return out;
}

function locate(
  item: TenkItem,
  doc: TenkText,
  boundaries: Boundary[],
  crossReference: Map<TenkItem, string>,
  maxLength: Record<TenkItem, number>,
): TenkSection {
  const rank = itemRank(item);
  const pages = crossReference.get(item) ?? null;
  const base = { item, crossReferencePages: pages };
  // Each heading candidate runs to the next item or PART heading; the body's heading is the one whose
  // section is longest (a TOC entry runs to the next TOC entry). Index rows with pages are no headings.
  let best: { heading: Boundary; next: Boundary | null; end: number } | null = null;
  for (let i = 0; i < boundaries.length; i++) {
    const b = boundaries[i]!;
    if (b.item !== item || (PAGE_REFERENCE.test(b.rest) && pages !== null)) continue;
    const next = boundaries.slice(i + 1).find((n) => n.rank === null || n.rank !== rank) ?? null;
    const end = next ? next.line.start - 1 : doc.text.length;
    if (!best || end - b.line.start > best.end - best.heading.line.start) best = { heading: b, next, end };
  }
  if (!best) {
    if (pages !== null) {
      if (NOT_APPLICABLE.test(pages)) return { ...base, status: 'not_present', reason: `the cross-reference index says "${pages}"`, heading: null, charStart: null, charEnd: null, length: null };
      return {
        ...base,
        status: 'failed',
        reason: `the filer's cross-reference index places Item ${item} on pages ${pages}; there is no Item ${item} heading in the body, and text is not located by page number`,
        heading: null,
        charStart: null,
        charEnd: null,
        length: null,
      };
    }
    const reason = crossReference.size > 0 ? `the cross-reference index does not list Item ${item}, and no Item ${item} heading is in the body` : `no Item ${item} heading in the document`;
    return { ...base, status: 'not_present', reason, heading: null, charStart: null, charEnd: null, length: null };
  }
  const { heading, next, end } = best;
  const start = heading.line.start;
  const located = { ...base, heading: heading.line.text, charStart: start, charEnd: end, length: end - start };
  const body = doc.text.slice(heading.line.end, end).trim();
  const fail = (reason: string): TenkSection => ({ ...located, status: 'failed', reason });
  if (next === null) return fail(`no item or PART heading follows Item ${item}: its end cannot be told`);
  // Items 1 and 1A are followed by Item 2 at the latest, Item 7 by Item 8: running into a PART heading
  // or a later item means headings between were not seen, and the section holds other items.
  if (next.rank === null) return fail(`runs into "${next.line.text}" with no item heading between`);
  if (next.rank < rank) return fail(`runs into "${next.line.text}", an earlier item`);
  if (next.rank > LAST_FOLLOWER[item]) return fail(`runs into "${next.line.text}": the headings of the items between were not found`);
  if (end - start > maxLength[item]) return fail(`implausibly long: ${end - start} characters (at most ${maxLength[item]})`);
  if (body.length === 0 || NOT_APPLICABLE.test(body)) return { ...located, status: 'not_present', reason: body ? `the item says "${body}"` : 'the item heading has no text' };
  if (body.length <= REFERENCE_BODY_MAX_CHARS && INCORPORATED.test(body)) return { ...located, status: 'incorporated_by_reference', reason: body };
  return { ...located, status: 'extracted', reason: null };
}

/** A paragraph that reads as prose: long enough, ends a sentence, not the forward-looking boilerplate. */
function isProse(text: string): boolean {
  return text.length >= DESCRIPTION_MIN_PARAGRAPH_CHARS && /[.!?)"”’]$/.test(text) && !FORWARD_LOOKING.test(text) && /[a-z]/.test(text);
}

/** Sentence ends in a paragraph: after . ! ? (and a closing quote) followed by a space and a capital, digit or quote. */
function sentenceEnds(text: string): number[] {
  const out: number[] = [];
  const re = /[.!?][)"”’]?(?=\s+[A-Z0-9“"(])/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) out.push(m.index + m[0].length);
  out.push(text.length);
  return out;
}

function describe(doc: TenkText, lines: Line[], section: TenkSection): TenkDescription | null {
  if (section.status !== 'extracted' || section.charStart === null || section.charEnd === null) return null;
  const inside = lines.filter((l) => l.start > section.charStart! && l.end <= section.charEnd!);
  const first = inside.findIndex((l) => isProse(l.text));
  if (first < 0) return null;
  const start = inside[first]!.start;
  let end = inside[first]!.end;
  // Following paragraphs join while they are prose and the whole stays within the limit.
  for (let i = first + 1; i < inside.length && isProse(inside[i]!.text) && inside[i]!.end - start <= DESCRIPTION_MAX_CHARS; i++) end = inside[i]!.end;
  if (end - start > DESCRIPTION_MAX_CHARS) {
    // One long first paragraph: cut at the last sentence end within the limit, else after its first sentence.
    const text = doc.text.slice(start, end);
    const ends = sentenceEnds(text);
    const within = ends.filter((e) => e <= DESCRIPTION_MAX_CHARS);
    end = start + (within.length ? within[within.length - 1]! : ends[0]!);
  }
  return { text: doc.text.slice(start, end), charStart: start, charEnd: end };
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const FISCAL_YEAR_ENDED = /fiscal\s+year\s+ended:?\s*([A-Za-z]+)\.?\s+(\d{1,2})\s*,?\s*(\d{4})/i;
/** The cover page states the period: "For the fiscal year ended June 30, 1999". Read in its first lines only. */
function fiscalYearEndedOf(text: string): string | null {
  const m = FISCAL_YEAR_ENDED.exec(text.slice(0, 20_000));
  if (!m) return null;
  const month = MONTHS.findIndex((name) => name.startsWith(m[1]!.toLowerCase()) && m[1]!.length >= 3) + 1;
  const day = Number(m[2]);
  if (month === 0 || day < 1 || day > 31) return null;
  return `${m[3]}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

export interface TenkSectionsOptions {
  /** Upper bound of each section's length (defaults: 250,000 characters for Item 1, 300,000 for 1A and 7). */
  maxLength?: Partial<Record<TenkItem, number>>;
}

export function extractTenkSections(bytes: Uint8Array | string, options: TenkSectionsOptions = {}): TenkSectionsExtraction {
  const maxLength = { ...MAX_LENGTH, ...options.maxLength };
  const doc = tenkText(bytes);
  const lines = linesOf(doc);
  const boundaries = boundariesOf(lines);
  const crossReference = crossReferenceOf(doc.text, boundaries);
  const sections = TENK_ITEMS.map((item) => locate(item, doc, boundaries, crossReference, maxLength));
  return {
    extractorVersion: TENK_SECTIONS_EXTRACTOR_VERSION,
    text: doc.text,
    sections,
    description: describe(doc, lines, sections[0]!),
    fiscalYearEnded: fiscalYearEndedOf(doc.text),
  };
}
