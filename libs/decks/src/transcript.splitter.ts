import { DOCUMENT_PAGE_SEPARATOR, type ParticipantKind, type Transcript, type TranscriptParticipant, type TranscriptSection, type TranscriptTurn } from '@app/contracts';
import type { DocumentText } from './document-text.builder';

/*
 * A first-party call transcript, split from the document text the decks library builds (pages
 * joined by "\n\f\n"). Pure: text in, offsets out. Layouts seen on issuers' PDFs:
 *   - a participants list on the first page(s), under headings ("Host", "Speakers", "Presenters",
 *     "Participants"), one person a line: "Name, Title", "Name – Firm, Title" or "Name – Firm";
 *   - turns labelled "NAME IN CAPITALS: text", "Name: text", "Name – Firm – Role: text", or the
 *     name alone on its line with the text below (then only names of the list are labels);
 *   - an operator; a presentation part, then questions and answers ("Q&A" heading, or none: the
 *     first question is the operator introducing an analyst);
 *   - running headers and footers repeated on every page, a disclaimer at the end.
 */

export interface TextSpan {
  char_start: number;
  char_end: number;
}

export interface UnplacedText extends TextSpan {
  text: string;
}

export interface TranscriptSplit {
  call: { company: string | null; title: string | null; date: string | null; date_source: 'document' | 'pdf_title' | null };
  participants: TranscriptParticipant[];
  turns: TranscriptTurn[];
  front_matter: TextSpan;
  back_matter: TextSpan | null;
  /** Section headings in the body ("Q&A", "PRESENTATION"). */
  headings: TextSpan[];
  /** Running headers and footers (lines repeated at the top or bottom of most pages, page numbers). */
  furniture: TextSpan[];
  /** Non-blank body lines that belong to no turn, heading or running header: what the splitter could not place. */
  unplaced: UnplacedText[];
}

interface Line {
  text: string;
  start: number;
  end: number;
  page: number;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const DATE_WORDS = new RegExp(`\\b(${MONTHS.join('|')})\\s+(\\d{1,2}),?\\s+(\\d{4})\\b`, 'i');
const ISO_DATE = /\b(\d{4})-(\d{2})-(\d{2})\b/;

const SECTION_HEADINGS: ReadonlyArray<readonly [RegExp, TranscriptSection]> = [
  [/^(?:presentation|prepared remarks|management (?:presentation|remarks|discussion)|opening remarks)$/i, 'presentation'],
  [/^(?:q\s*&\s*a|q\s*and\s*a|questions?[- ]and[- ]answers?(?: session)?|questions? & answers?(?: session)?)$/i, 'qa'],
];

/** Participant list headings: the issuer's people, the analysts, or either (decided by the firm). */
const COMPANY_GROUP = /^(?:hosts?|speakers?|presenters?|company (?:participants|representatives|speakers)|corporate participants|executives|management)$/i;
const ANALYST_GROUP = /^(?:analysts?|conference call participants|other participants)$/i;
const EITHER_GROUP = /^(?:participants|call participants)$/i;

/** Where the disclaimer begins after the last turn. */
const BACK_MATTER = /^(?:disclaimer|terms of use|forward[- ]looking statements?|safe harbor(?: statement)?|cautionary (?:note|statement)s?.*|legal notice)$|^certain statements (?:in|contained in|made in) this (?:transcript|document)/i;

const PERIOD_WORD = /\b(?:first|second|third|fourth|q[1-4]|[1-4]q|full[- ]year|fy\s?\d{2,4}|fiscal)\b/i;
const TITLE_WORD = /\b(?:earnings|results|conference call|call|announcement|webcast)\b/i;

const DASH = /\s+[–—-]\s+/;
/** A person's name: two to five words, each starting with a capital letter. */
const PERSON = /^[A-Z][\p{L}'’.-]*(?:\s+(?:[A-Z][\p{L}'’.-]*|de|van|von|der|da|di|del|la|le)){1,4}$/u;
/** A label in capitals: one to five words of capitals (and . ' ’ -). */
const CAPS_LABEL = /^[A-Z][A-Z.'’-]*(?:\s+[A-Z][A-Z.'’-]*){0,4}$/;

/** Lowercase, one kind of apostrophe and dash, single spaces: how names are compared. */
export function nameKey(name: string): string {
  return name.replace(/[’`]/g, "'").replace(/[–—]/g, '-').replace(/\s+/g, ' ').trim().toLowerCase();
}

function linesOf(doc: DocumentText): Line[] {
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

const furnitureKey = (text: string): string => text.replace(/\d+/g, '#').replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * Lines repeated at the top (first 4 lines) or bottom (last 2) of at least half of the pages, and
 * lone page numbers at the bottom: running headers and footers. Only a run from the page's edge
 * counts, so a body line that happens to repeat a header is not taken.
 */
function findFurniture(lines: readonly Line[], pageCount: number): Set<Line> {
  const byPage: Line[][] = Array.from({ length: pageCount }, () => []);
  for (const line of lines) byPage[line.page]!.push(line);
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

function isoDate(year: string, month: number, day: string): string | null {
  const d = Number(day);
  const date = new Date(Date.UTC(Number(year), month - 1, d));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== d) return null;
  return `${year}-${String(month).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

function dateIn(text: string): string | null {
  const words = DATE_WORDS.exec(text);
  if (words) return isoDate(words[3]!, MONTHS.indexOf(words[1]!.toLowerCase()) + 1, words[2]!);
  const iso = ISO_DATE.exec(text);
  return iso ? isoDate(iso[1]!, Number(iso[2]), iso[3]!) : null;
}

interface ParsedParticipant {
  name: string;
  role: string | null;
  firm: string | null;
  group: 'company' | 'analyst' | 'either';
  quote: string;
}

/** "Name – Firm, Title", "Name – Firm", "Name, Title" or "Name"; null when the line does not start with a person's name. */
function parseParticipantLine(text: string, group: ParsedParticipant['group']): ParsedParticipant | null {
  const line = text.trim();
  const dash = DASH.exec(line);
  if (dash) {
    const name = line.slice(0, dash.index).trim();
    if (!PERSON.test(name)) return null;
    const rest = line.slice(dash.index + dash[0].length).trim();
    const comma = rest.indexOf(',');
    const firm = (comma < 0 ? rest : rest.slice(0, comma)).trim();
    const role = comma < 0 ? null : rest.slice(comma + 1).trim() || null;
    return { name, firm: firm || null, role, group, quote: line };
  }
  const comma = line.indexOf(',');
  const name = (comma < 0 ? line : line.slice(0, comma)).trim();
  if (!PERSON.test(name)) return null;
  return { name, firm: null, role: comma < 0 ? null : line.slice(comma + 1).trim() || null, group, quote: line };
}

interface Label {
  /** As printed. */
  label: string;
  /** The name part of the label (before " – Firm – Role"). */
  name: string;
  /** Offset where what was said begins: after ": " on the line, or the next line. */
  speechStart: number | null;
}

/**
 * A line that opens a turn: "LABEL: text" (a known name, "Operator", a name followed by
 * " – Firm – Role", or a name in capitals), or a line that is exactly a known name or "Operator".
 */
function labelOf(line: Line, known: ReadonlySet<string>): Label | null {
  const text = line.text.trim();
  const lead = line.text.length - line.text.trimStart().length;
  if (known.has(nameKey(text)) || /^operator$/i.test(text)) return { label: text, name: text, speechStart: null };
  const colon = /^([^:]{2,120}?):(?:\s+|$)/.exec(text);
  if (!colon) return null;
  const label = colon[1]!.trim();
  const name = label.split(DASH)[0]!.trim();
  const labelled =
    /^operator$/i.test(name) || known.has(nameKey(name)) || (CAPS_LABEL.test(name) && name.split(/\s+/).length >= 2) || (DASH.test(label) && PERSON.test(name));
  if (!labelled) return null;
  const after = line.start + lead + colon[0].length;
  return { label, name, speechStart: after < line.end ? after : null };
}

/** "JANE FRASER" -> "Jane Fraser"; "MATT O’CONNOR" -> "Matt O’Connor": for a label the list and the operator never name. */
function titleCase(name: string): string {
  return name.toLowerCase().replace(/(^|[\s'’.-])(\p{L})/gu, (_, sep: string, ch: string) => sep + ch.toUpperCase());
}

/** Where the operator introduces a speaker: "from Jim Mitchell with Seaport Global." -> the name as written, and the firm. */
function introductionOf(name: string, operatorTexts: readonly string[]): { name: string; firm: string | null; quote: string } | null {
  const words = nameKey(name)
    .split(' ')
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/'/g, "['’]"));
  const pattern = new RegExp(`\\b${words.join('\\s+')}\\b`, 'i');
  for (const text of operatorTexts) {
    const flat = text.replace(/\s+/g, ' ');
    const m = pattern.exec(flat);
    if (!m) continue;
    const rest = flat.slice(m.index + m[0].length);
    const firm = /^\s*(?:,|with|from|of|at)\s+(?:the line of\s+)?(.+?)(?:[.,;](?:\s|$)|\s+(?:your|please|and)\b|$)/i.exec(rest)?.[1] ?? null;
    const sentenceEnd = flat.indexOf('.', m.index + m[0].length);
    const quoteStart = flat.lastIndexOf('. ', m.index) + 1;
    return {
      name: m[0],
      firm: firm !== null && /^[A-Z0-9]/.test(firm) ? firm : null,
      quote: flat.slice(quoteStart, sentenceEnd < 0 ? undefined : sentenceEnd + 1).trim(),
    };
  }
  return null;
}

/**
 * Splits a transcript's document text. `pdfTitle` (the PDF's metadata title) is the date's source
 * of last resort. Never throws: what it cannot find is null or empty, and what it cannot place is
 * listed in `unplaced`; transcriptGate decides whether that is a transcript to serve.
 */
export function splitTranscript(doc: DocumentText, pdfTitle: string | null = null): TranscriptSplit {
  const lines = linesOf(doc);
  const furniture = findFurniture(lines, doc.offsets.length);

  // Front matter: the participants list, under its headings, up to the first section heading or turn.
  const listed: ParsedParticipant[] = [];
  let group: ParsedParticipant['group'] | null = null;
  let sawCompanyGroup = false;
  let firstBody = lines.length;
  const provisional = new Set<string>();
  for (let i = 0; i < lines.length; i += 1) {
    const text = lines[i]!.text.trim();
    if (SECTION_HEADINGS.some(([re]) => re.test(text)) || labelOf(lines[i]!, provisional) !== null) {
      firstBody = i;
      break;
    }
    if (COMPANY_GROUP.test(text)) {
      group = 'company';
      sawCompanyGroup = true;
    } else if (ANALYST_GROUP.test(text)) group = 'analyst';
    else if (EITHER_GROUP.test(text)) group = sawCompanyGroup ? 'analyst' : 'either';
    else if (group !== null && !furniture.has(lines[i]!)) {
      const p = parseParticipantLine(text, group);
      if (p && !provisional.has(nameKey(p.name))) {
        listed.push(p);
        provisional.add(nameKey(p.name));
      }
    }
  }
  const frontLines = lines.slice(0, firstBody);
  const front_matter: TextSpan = { char_start: 0, char_end: firstBody < lines.length ? lines[firstBody]!.start : doc.text.length };

  // The call: title line, company, date.
  const titleLine = frontLines.find((l) => TITLE_WORD.test(l.text) && PERIOD_WORD.test(l.text)) ?? frontLines.find((l) => TITLE_WORD.test(l.text)) ?? null;
  const title = titleLine?.text.trim() ?? null;
  let company: string | null = null;
  if (titleLine) {
    const period = PERIOD_WORD.exec(titleLine.text);
    const prefix = period ? titleLine.text.slice(0, period.index).replace(/['’]s\s*$/, '').trim() : '';
    const before = frontLines[frontLines.indexOf(titleLine) - 1];
    if (prefix) company = prefix;
    else if (before && !dateIn(before.text) && !/^t\s?r\s?a\s?n\s?s\s?c\s?r\s?i\s?p\s?t$/i.test(before.text.trim())) company = before.text.trim();
  }
  const frontFirms = listed.filter((p) => p.group === 'company' && p.firm).map((p) => p.firm!);
  company ??= frontFirms[0] ?? null;
  const documentDate = frontLines.map((l) => dateIn(l.text)).find((d) => d !== null) ?? null;
  const titleDate = documentDate === null && pdfTitle ? dateIn(pdfTitle) : null;

  // Body: turns, section headings, back matter.
  const known = new Set(listed.map((p) => nameKey(p.name)));
  interface RawTurn {
    label: Label;
    line: Line;
    section: TranscriptSection | null;
    /** First and last line of what was said (the label's line when it is said there too). */
    firstLine: Line | null;
    lastLine: Line | null;
  }
  const raw: RawTurn[] = [];
  const headings: TextSpan[] = [];
  let section: TranscriptSection | null = null;
  let back_matter: TextSpan | null = null;
  const unplacedLines: Line[] = [];
  for (let i = firstBody; i < lines.length; i += 1) {
    const line = lines[i]!;
    const text = line.text.trim();
    const heading = SECTION_HEADINGS.find(([re]) => re.test(text));
    if (heading) {
      section = heading[1];
      headings.push({ char_start: line.start, char_end: line.end });
      continue;
    }
    if (furniture.has(line)) continue;
    if (raw.length > 0 && BACK_MATTER.test(text)) {
      back_matter = { char_start: line.start, char_end: doc.text.length };
      break;
    }
    const label = labelOf(line, known);
    if (label) {
      const sameLine = label.speechStart === null ? null : line;
      raw.push({ label, line, section, firstLine: sameLine, lastLine: sameLine });
      continue;
    }
    const current = raw[raw.length - 1];
    if (current) {
      current.firstLine ??= line;
      current.lastLine = line;
    }
    else unplacedLines.push(line);
  }

  // Participants: the list, then speakers it omits (named as the operator introduced them), the operator.
  const participants: TranscriptParticipant[] = listed.map((p) => ({
    name: p.name,
    role: p.role,
    firm: p.firm,
    kind: p.group === 'company' ? 'company' : p.group === 'analyst' ? 'analyst' : company !== null && p.firm !== null && nameKey(p.firm) === nameKey(company) ? 'company' : 'analyst',
    listed: true,
    quote: p.quote,
  }));
  const indexOf = new Map(participants.map((p, i) => [nameKey(p.name), i]));
  const spoken = (t: RawTurn): string => doc.text.slice(t.label.speechStart ?? t.line.end, t.lastLine?.end ?? t.line.end);
  const operatorTexts = raw.filter((t) => /^operator$/i.test(t.label.name)).map(spoken);
  for (const t of raw) {
    const key = nameKey(t.label.name);
    if (indexOf.has(key)) continue;
    let participant: TranscriptParticipant;
    if (/^operator$/i.test(t.label.name)) {
      participant = { name: 'Operator', role: null, firm: null, kind: 'operator', listed: false, quote: null };
    } else {
      const intro = introductionOf(t.label.name, operatorTexts);
      participant = {
        name: intro?.name ?? titleCase(t.label.name),
        role: null,
        firm: intro?.firm ?? null,
        kind: intro !== null || t.section === 'qa' ? 'analyst' : 'company',
        listed: false,
        quote: intro?.quote ?? null,
      };
    }
    indexOf.set(key, participants.length);
    participants.push(participant);
  }

  // Sections: after a heading, as it says; without a Q&A heading, Q&A begins with the first
  // analyst's turn (or the operator's turn that introduces it).
  if (!raw.some((t) => t.section === 'qa')) {
    const firstAnalyst = raw.findIndex((t) => participants[indexOf.get(nameKey(t.label.name))!]!.kind === 'analyst');
    if (firstAnalyst >= 0) {
      const start = firstAnalyst > 0 && participants[indexOf.get(nameKey(raw[firstAnalyst - 1]!.label.name))!]!.kind === 'operator' ? firstAnalyst - 1 : firstAnalyst;
      raw.forEach((t, i) => {
        t.section = i >= start ? 'qa' : 'presentation';
      });
    }
  }

  const pageOf = (offset: number): number => {
    const i = doc.offsets.findIndex((p) => offset <= p.char_end);
    return i < 0 ? doc.offsets.length - 1 : i;
  };
  const turns: TranscriptTurn[] = raw.map((t) => {
    const index = indexOf.get(nameKey(t.label.name))!;
    const char_start = t.label.speechStart ?? t.firstLine?.start ?? t.line.end;
    const char_end = Math.max(char_start, t.lastLine?.end ?? t.line.end);
    const quoteEnd = t.firstLine && t.firstLine.start < char_end ? t.firstLine.end : t.line.end;
    return {
      speaker: participants[index]!.name,
      participant_index: index,
      label: t.label.label,
      section: t.section ?? 'presentation',
      label_start: t.line.start + (t.line.text.length - t.line.text.trimStart().length),
      char_start,
      char_end,
      page_index: pageOf(t.line.start),
      last_page_index: pageOf(char_end),
      quote: doc.text.slice(t.line.start, quoteEnd).trim(),
    };
  });

  // What the body holds outside turns, headings and running headers.
  const bodyEnd = back_matter?.char_start ?? doc.text.length;
  const inTurn = (l: Line): boolean => turns.some((t) => l.start >= t.label_start && l.end <= Math.max(t.char_end, l.start));
  for (const line of lines) {
    if (line.start < front_matter.char_end || line.start >= bodyEnd || furniture.has(line) || unplacedLines.includes(line)) continue;
    if (headings.some((h) => h.char_start === line.start)) continue;
    if (!inTurn(line)) unplacedLines.push(line);
  }

  return {
    call: { company, title, date: documentDate ?? titleDate, date_source: documentDate ? 'document' : titleDate ? 'pdf_title' : null },
    participants,
    turns,
    front_matter,
    back_matter,
    headings,
    furniture: [...furniture].map((l) => ({ char_start: l.start, char_end: l.end })).sort((a, b) => a.char_start - b.char_start),
    unplaced: unplacedLines.sort((a, b) => a.start - b.start).map((l) => ({ char_start: l.start, char_end: l.end, text: l.text })),
  };
}

/** Whether a title names a transcript ("Earnings Call Transcript", "T R A N S C R I P T"). */
export function titleSaysTranscript(title: string | null | undefined): boolean {
  return typeof title === 'string' && /transcript/i.test(title.replace(/(?<=\b\p{L}) (?=\p{L}\b)/gu, ''));
}

/**
 * The serving gate: null when the split is a transcript to serve, else the reason it is not. The
 * text was extracted; the participants list, or at least two distinct speakers, were found; every
 * non-blank line of the body belongs to a turn, a section heading or a running header (the front
 * matter and a closing disclaimer are outside the body); the call's date is known.
 */
export function transcriptGate(doc: DocumentText, split: TranscriptSplit): string | null {
  if (doc.text.replaceAll(DOCUMENT_PAGE_SEPARATOR, '').trim().length === 0) return 'no text extracted';
  if (split.turns.length === 0) return 'no speaker turns found';
  const speakers = new Set(split.turns.map((t) => t.participant_index));
  if (!split.participants.some((p) => p.listed) && speakers.size < 2) return 'no participants list and fewer than two distinct speakers';
  if (split.unplaced.length > 0) {
    const first = split.unplaced[0]!;
    return `${split.unplaced.length} body line(s) belong to no speaker turn, the first at character ${first.char_start}: ${JSON.stringify(first.text.slice(0, 80))}`;
  }
  if (split.call.date === null) return 'the call\'s date is not known';
  return null;
}

/** The contract's transcript from a split that passed the gate. */
export function toTranscript(split: TranscriptSplit): Transcript {
  if (split.call.date === null || split.call.date_source === null) throw new Error('toTranscript: the split did not pass the gate (no date)');
  return {
    call: { company: split.call.company, title: split.call.title, date: split.call.date, date_source: split.call.date_source },
    participants: split.participants,
    turns: split.turns,
    front_matter: split.front_matter,
    back_matter: split.back_matter,
  };
}

export type { ParticipantKind };
