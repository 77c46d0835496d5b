import type { Line } from './transcript-lines';
import { isCapsName, isPersonName, isRole } from './transcript-names';

/*
 * Speaker labels: the line (or lines) that open a turn. Shapes seen on issuers' PDFs:
 *   - "LABEL: text" on one line: "OPERATOR:", "JANE FRASER:", "Name – Firm – Role:",
 *     "Name (Firm):", "NAME, ROLE/FIRM:", or a name alone before the colon;
 *   - the label alone on its line, the text below: "Name", "Name, Firm", "Name (Firm)", or the
 *     name with its role on the next line ("Jeremy Barnum" / "Chief Financial Officer,
 *     JPMorganChase"), then maybe a "Q" or "A" line saying question or answer.
 * The shape says how sure it is: a bare name could be a heading ("Global Markets"), so the
 * splitter takes one only when it knows the name (participants list, a decorated label elsewhere,
 * or the same bare name opening several turns).
 */

export type LabelShape =
  /** "Operator", "Operator:". */
  | 'operator'
  /** A name with its firm or role beside or under it. */
  | 'decorated'
  /** "NAME IN CAPITALS: text". */
  | 'caps_colon'
  /** A name alone (with or without a colon): a label only when the name is known. */
  | 'bare';

export interface Label {
  /** The label's first line as printed, without the colon ("Tarik El Mejjad (Bank of America)", "JANE FRASER", "Jeremy Barnum"). */
  label: string;
  /** The name part of the label. */
  name: string;
  /** What is printed beside or under the name: firm, role or both; null when nothing. */
  decoration: string | null;
  /** "Q" or "A" printed under the label: the turn asks or answers. */
  marker: 'Q' | 'A' | null;
  shape: LabelShape;
  /** Whether the label stands alone on its line(s) (then what was said begins on the next line). */
  ownLine: boolean;
  /** Offset where what was said begins on the label's line (after ": "); null when it begins on a later line. */
  speechStart: number | null;
  /** How many lines the label takes: 1, or more with a role line and a Q/A line. */
  lineCount: number;
}

const DASH = /\s+[–—-]\s+/;
/** Longest decoration beside a name, in words: a firm or a job title, not a sentence. */
const MAX_DECORATION_WORDS = 8;

/** "Name (Firm)", "Name – Firm – Role", "Name, Role", "Name" -> the name and what is printed beside it. */
function nameAndDecoration(head: string): { name: string; decoration: string | null } {
  const paren = /^(.+?)\s*\(([^()]+)\)$/.exec(head);
  if (paren) return { name: paren[1]!.trim(), decoration: paren[2]!.trim() };
  const dash = DASH.exec(head);
  if (dash) return { name: head.slice(0, dash.index).trim(), decoration: head.slice(dash.index + dash[0].length).trim() };
  const comma = /^([^,]+?)\s*,\s*(.+)$/.exec(head);
  if (comma) return { name: comma[1]!.trim(), decoration: comma[2]!.trim() };
  return { name: head.trim(), decoration: null };
}

/** Words a firm or title may have in lower case ("Bank of America", "Head of Investor Relations"). */
const SMALL_WORDS = new Set(['of', 'and', 'for', 'the', 'de', 'du', 'des', 'la', 'le', 'et', 'und', 'y', '&', 'at', 'in']);

/** A firm or a job title: a few capitalized words, no sentence ("Mining Properties. The following" is not one). */
function isDecoration(text: string | null): boolean {
  if (text === null || /[.?!]\s/.test(text)) return false;
  const words = text.split(/[\s,/]+/).filter((w) => w.length > 0);
  return words.length <= MAX_DECORATION_WORDS && words.every((w) => /^[\p{Lu}\p{N}(]/u.test(w) || SMALL_WORDS.has(w.toLowerCase()));
}

/** A speaker's name: a person's name (or one in capitals), not a job title ("Executive Vice-President"). */
const isSpeakerName = (name: string): boolean => (isPersonName(name) || isCapsName(name)) && !isRole(name);

/** A job title (and firm) printed under a name: short, with a job-title word, not a sentence. */
export function isRoleLine(text: string): boolean {
  const t = text.trim();
  return t.length <= 100 && t.split(/\s+/).length <= 12 && /^\p{Lu}/u.test(t) && isRole(t) && !/[?!:;,]$/.test(t) && !/[.?!]\s+\p{Lu}\p{Ll}*\s+\p{Ll}/u.test(t);
}

const nextOnPage = (lines: readonly Line[], i: number): Line | null => (lines[i + 1]?.page === lines[i]!.page ? lines[i + 1]! : null);

/**
 * The label that opens a turn at line i, if the line has a label's shape. `known` holds the keys
 * (nameKey) of names known to speak: a known name is a label in any shape.
 */
export function labelAt(lines: readonly Line[], i: number, isKnown: (name: string) => boolean): Label | null {
  const line = lines[i]!;
  const text = line.text.trim();
  const lead = line.text.length - line.text.trimStart().length;

  const colon = /^([^:]{2,120}?):(?:\s+|$)/.exec(text);
  if (colon) {
    const head = colon[1]!.trim();
    const { name, decoration } = nameAndDecoration(head);
    const after = line.start + lead + colon[0].length;
    const speechStart = after < line.end ? after : null;
    const base = { label: head, name, decoration: null, marker: null, ownLine: false, speechStart, lineCount: 1 } as const;
    if (/^operator$/i.test(head)) return { ...base, shape: 'operator' };
    if (isKnown(head)) return { ...base, name: head, shape: 'bare' };
    if (decoration !== null && isDecoration(decoration) && isSpeakerName(name)) return { ...base, decoration, shape: 'decorated' };
    if (isCapsName(head) && !isRole(head)) return { ...base, shape: 'caps_colon' };
    if (isSpeakerName(head)) return { ...base, shape: 'bare' };
  }

  // The label alone on its line: no sentence punctuation, short.
  if (/[.?!:;,]$/.test(text) || text.length > 80) return null;
  if (/^operator$/i.test(text)) return { label: text, name: text, decoration: null, marker: null, shape: 'operator', ownLine: true, speechStart: null, lineCount: 1 };
  // On its own line a name takes its decoration after a comma or in brackets; "A – B" there is a caption ("Square Feet Owned – Tenant Occupancy").
  if (DASH.test(text) && !isKnown(text)) return null;
  const { name, decoration } = isKnown(text) ? { name: text, decoration: null } : nameAndDecoration(text);
  if (!(isSpeakerName(name) || isKnown(name)) || (decoration !== null && !isDecoration(decoration))) return null;
  let lineCount = 1;
  let roleLine: string | null = null;
  const second = nextOnPage(lines, i);
  if (second && isRoleLine(second.text)) {
    roleLine = second.text.trim();
    lineCount += 1;
  }
  const markerLine = nextOnPage(lines, i + lineCount - 1);
  const marker = markerLine && /^[QA]$/.test(markerLine.text.trim()) ? (markerLine.text.trim() as 'Q' | 'A') : null;
  if (marker) lineCount += 1;
  const decorations = [decoration, roleLine].filter((d): d is string => d !== null);
  return {
    label: text,
    name,
    decoration: decorations.length > 0 ? decorations.join(', ') : null,
    marker,
    shape: decorations.length > 0 ? 'decorated' : 'bare',
    ownLine: true,
    speechStart: null,
    lineCount,
  };
}
