import type { DocGroup, DocType, DocumentKind } from '@app/contracts';
import type { TextRotation } from './text-layout';

export interface ClassifiablePage {
  width: number;
  height: number;
  text_rotation: TextRotation;
}

export interface ClassifyInput {
  pages: readonly ClassifiablePage[];
  info: { title: string | null; creator: string | null; producer: string | null };
  /** The kind the IR page gave the link (ir-document@1 `kind`), when known. */
  kind?: DocumentKind | null;
  /** The link title from the IR page, when known. */
  title?: string | null;
  /** The first page's caption (or first line): covers carry "Annual Report", "Investor Presentation". */
  firstPageCaption?: string | null;
}

export interface DocumentClass {
  doc_type: DocType;
  doc_group: DocGroup;
  /** Which rule decided, for logs and tests: `title:<phrase>`, `landscape`, `kind:<kind>`, `producer`, `none`. */
  cue: string;
}

const GROUP_OF: Record<DocType, DocGroup> = {
  slide_deck: 'slide_deck',
  annual_report: 'report',
  quarterly_report: 'report',
  proxy_statement: 'report',
  press_release: 'press_release',
  transcript: 'transcript',
  other: 'other',
};

/**
 * Title phrases, most specific first: "Notice of Annual Meeting and Proxy Statement" is a proxy,
 * not a deck; "Annual Meeting" alone is the meeting's slides; "Reports Fourth Quarter Results" is
 * a release, "Quarterly Report" is not.
 */
const TITLE_CUES: ReadonlyArray<readonly [RegExp, DocType]> = [
  [/\bproxy\b|\bdef\s?14a\b/i, 'proxy_statement'],
  [/\bannual\s+report\b|\b10-?k\b|\bform\s+20-?f\b/i, 'annual_report'],
  [/\bquarterly\s+report\b|\b10-?q\b/i, 'quarterly_report'],
  [/\b(press|news)\s+release\b|\breports?\b.*\bresults\b|\bannounces?\b/i, 'press_release'],
  [/\bpresentation\b|\bslides?\b|\b(investor|analyst)\s+day\b|\b(annual|shareholder|stockholder)s?\s+meeting\b|\bearnings\s+call\b|\bconference\b|\bpowerpoint\b|\bkeynote\b/i, 'slide_deck'],
];

const KIND_TYPES: Partial<Record<DocumentKind, DocType>> = {
  presentation: 'slide_deck',
  annual_report: 'annual_report',
  quarterly_report: 'quarterly_report',
  press_release: 'press_release',
  proxy_statement: 'proxy_statement',
};

/**
 * Whether a page shows landscape content: a landscape page with upright text, or a portrait page
 * whose text runs sideways (a slide printed rotated onto letter paper without /Rotate). Sizes are
 * as shown, after /Rotate: the FRPH Annual Meeting deck is portrait letter in its MediaBox but
 * every page has /Rotate 90, so it shows (and counts) as 792x612 landscape.
 */
function showsLandscape(page: ClassifiablePage): boolean {
  const sideways = page.text_rotation === 90 || page.text_rotation === 270;
  return page.width > page.height !== sideways;
}

const cueOf = (pattern: RegExp, text: string): string => (pattern.exec(text)?.[0] ?? '').toLowerCase().replace(/\s+/g, ' ');

/**
 * The document's type, first rule that applies:
 *   1. a phrase in the IR link title, the PDF's Info Title or the first page's caption
 *      ("Annual Report", "Proxy", "Presentation", "Annual Meeting", ...);
 *   2. landscape content on more than half of the pages -> slide_deck;
 *   3. the kind the IR page gave the link;
 *   4. made by PowerPoint or Keynote (Info Creator/Producer) -> slide_deck;
 *   5. other.
 * Titles come first because they are the publisher's own words; geometry before the IR kind
 * because the kind is itself a guess from link text and page sections.
 */
export function classifyDocument(input: ClassifyInput): DocumentClass {
  const decide = (doc_type: DocType, cue: string): DocumentClass => ({ doc_type, doc_group: GROUP_OF[doc_type], cue });

  const titles = [input.title, input.info.title, input.firstPageCaption].filter((t): t is string => typeof t === 'string' && t.length > 0);
  for (const [pattern, docType] of TITLE_CUES) {
    const hit = titles.find((t) => pattern.test(t));
    if (hit !== undefined) return decide(docType, `title:${cueOf(pattern, hit)}`);
  }

  const landscape = input.pages.filter(showsLandscape).length;
  if (input.pages.length > 0 && landscape * 2 > input.pages.length) return decide('slide_deck', 'landscape');

  const fromKind = input.kind ? KIND_TYPES[input.kind] : undefined;
  if (fromKind && input.kind) return decide(fromKind, `kind:${input.kind}`);

  if (/powerpoint|keynote/i.test(`${input.info.creator ?? ''} ${input.info.producer ?? ''}`)) return decide('slide_deck', 'producer');
  return decide('other', 'none');
}
