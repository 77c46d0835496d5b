import { DOCUMENT_PAGE_SEPARATOR, type ParticipantKind, type Transcript, type TranscriptParticipant, type TranscriptSection, type TranscriptTurn } from '@app/contracts';
import type { DocumentText } from './document-text.builder';
import { dateIn } from './transcript-dates';
import { labelAt, type Label } from './transcript-labels';
import { endsSentence, findFurniture, isRule, linesOf, unspaced, type Line } from './transcript-lines';
import { isCapsName, isPersonName, isRole, isAnalystRole, nameKey, roleAndFirm, titleCase } from './transcript-names';
import { introductionOf, kindOf, listHeadingOf, parseParticipantLine, parseRunInList, runInListOf, type ListedParticipant, type ParticipantGroup } from './transcript-participants';
import { DISCLAIMER_WORDS, opensBackMatter, sectionHeadingOf } from './transcript-sections';

/*
 * A first-party call transcript, split from the document text the decks library builds (pages
 * joined by "\n\f\n"). Pure: text in, offsets out. The document is read as: front matter (title,
 * date, participants list: transcript-participants.ts), then turns, each opened by a speaker label
 * (transcript-labels.ts), grouped in sections by headings (transcript-sections.ts), then maybe a
 * disclaimer. Running headers and footers and dotted rules are set aside (transcript-lines.ts).
 * What cannot be placed is listed, and transcriptGate refuses the document then: a call the
 * splitter cannot read stays a document, never a wrong transcript.
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
  /** Lines with no letter or digit (dotted rules between turns, a stray period). */
  rules: TextSpan[];
  /** Non-blank body lines that belong to no turn, heading, rule or running header: what the splitter could not place. */
  unplaced: UnplacedText[];
}

const PERIOD_WORD = /\b(?:first|second|third|fourth|q[1-4](?:\s?\d{2,4})?|[1-4]q(?:\s?\d{2,4})?|full[- ]year|half[- ]year|fy\s?\d{2,4}|fiscal)\b/i;
const TITLE_WORD = /\b(?:earnings|results|conference call|call|announcement|webcast)\b/i;

/** Repeated this many times, a bare name alone on its line (after a finished sentence) is a speaker label. */
const MIN_BARE_LABELS = 2;

/** The first turn begins at the latest on this (0-based) page: a cover, then a participants page. */
const MAX_FRONT_PAGES = 2;

const span = (l: Line): TextSpan => ({ char_start: l.start, char_end: l.end });
const isOperator = (name: string): boolean => /^operator$/i.test(name);

interface RawTurn {
  label: Label;
  /** The label's first line, and its last (role line, Q/A line). */
  line: Line;
  labelEnd: Line;
  /** Where the decoration (role line) ends: the participant's quote when read from the label. */
  decorationEnd: number;
  section: TranscriptSection | null;
  /** First and last line of what was said (the label's line when it is said there too). */
  firstLine: Line | null;
  lastLine: Line | null;
}

/** The call's title, company and date from the front matter's lines (running headers included: a cover may print the title only there). */
function readCall(front: readonly Line[], pdfTitle: string | null): { title: string | null; company: string | null; date: string | null; date_source: 'document' | 'pdf_title' | null } {
  const titleLine = front.find((l) => TITLE_WORD.test(l.text) && PERIOD_WORD.test(l.text)) ?? front.find((l) => TITLE_WORD.test(l.text)) ?? null;
  let company: string | null = null;
  if (titleLine) {
    const period = PERIOD_WORD.exec(titleLine.text);
    const prefix = period ? titleLine.text.slice(0, period.index).replace(/['’]s\s*$/, '').replace(/[:|–—-]\s*$/, '').trim() : '';
    const before = front[front.indexOf(titleLine) - 1];
    // The line above the title names the company when it is a short name ("Bank of America"), not a date or "T R A N S C R I P T".
    const beforeText = before?.text.trim() ?? '';
    if (prefix) company = prefix;
    else if (before && !dateIn(beforeText) && unspaced(beforeText) === beforeText && !/\d|transcript/i.test(beforeText) && beforeText.split(/\s+/).length <= 6) company = beforeText;
  }
  const documentDate = front.map((l) => dateIn(l.text)).find((d) => d !== null) ?? null;
  const titleDate = documentDate === null && pdfTitle ? dateIn(pdfTitle) : null;
  return { title: titleLine?.text.trim() ?? null, company, date: documentDate ?? titleDate, date_source: documentDate ? 'document' : titleDate ? 'pdf_title' : null };
}

/**
 * Splits a transcript's document text. `pdfTitle` (the PDF's metadata title) is the date's source
 * of last resort. Never throws: what it cannot find is null or empty, and what it cannot place is
 * listed in `unplaced`; transcriptGate decides whether that is a transcript to serve.
 */
export function splitTranscript(doc: DocumentText, pdfTitle: string | null = null): TranscriptSplit {
  const lines = linesOf(doc);
  const furniture = findFurniture(lines, doc.offsets.length);
  const rules = lines.filter((l) => isRule(l.text));
  // The lines that carry words of the document: no running header, footer or rule.
  const content = lines.filter((l) => !furniture.has(l) && !isRule(l.text));
  const indexInLines = new Map(lines.map((l, i) => [l, i]));

  /** Whether the line before content[i] closes what came before: a finished sentence, a rule, a heading, the start. */
  const afterBreak = (i: number): boolean => {
    for (let j = indexInLines.get(content[i]!)! - 1; j >= 0; j -= 1) {
      const prev = lines[j]!;
      if (furniture.has(prev)) continue;
      return isRule(prev.text) || sectionHeadingOf(prev.text) !== null || endsSentence(prev.text);
    }
    return true;
  };

  // Front matter: the participants list, up to the first section heading or turn.
  const listed: ListedParticipant[] = [];
  const listedKeys = new Set<string>();
  const isListed = (name: string): boolean => listedKeys.has(nameKey(name));
  const addListed = (p: ListedParticipant): void => {
    if (listedKeys.has(nameKey(p.name))) return;
    listed.push(p);
    listedKeys.add(nameKey(p.name));
  };
  /** A list line is followed by another list line, a heading, or the end of its page; a speaker label by what was said. */
  const listGoesOn = (i: number): boolean => {
    const next = content[i + 1];
    if (!next || next.page !== content[i]!.page) return true;
    const text = next.text.trim();
    return sectionHeadingOf(text) !== null || listHeadingOf(text, true) !== null || parseParticipantLine(text, 'either') !== null;
  };
  let group: ParticipantGroup | null = null;
  let sawCompanyGroup = false;
  let firstBody = content.length;
  for (let i = 0; i < content.length; i += 1) {
    const line = content[i]!;
    const text = line.text.trim();
    if (sectionHeadingOf(text) !== null) {
      firstBody = i;
      break;
    }
    const heading = listHeadingOf(text, sawCompanyGroup);
    if (heading !== null) {
      group = heading;
      sawCompanyGroup ||= heading === 'company';
      continue;
    }
    const runIn = runInListOf(text);
    if (runIn !== null) {
      // The list runs on while a line ends with "," or "and".
      let items = runIn.items;
      let last = i;
      while (/(?:,|\band)$/.test(items.trim()) && content[last + 1]?.page === line.page) {
        last += 1;
        items = `${items} ${content[last]!.text.trim()}`;
      }
      parseRunInList(items, runIn.group, doc.text.slice(line.start, content[last]!.end)).forEach(addListed);
      sawCompanyGroup ||= runIn.group === 'company';
      i = last;
      continue;
    }
    const entry = parseParticipantLine(text, group ?? 'either');
    // Without a heading, only "Name (Title)" or "Name, Title" lines make a list (a cover's "BNP Paribas" or "John D. Milton, Jr." does not).
    if (entry && !isRole(entry.name) && (group !== null || (entry.role !== null && isRole(entry.role))) && listGoesOn(i)) {
      addListed(entry);
      continue;
    }
    const label = labelAt(content, i, isListed);
    if (label && (label.shape === 'operator' || label.shape === 'caps_colon' || isListed(label.name) || (label.shape === 'decorated' && (!label.ownLine || afterBreak(i))))) {
      firstBody = i;
      break;
    }
  }
  const front_matter: TextSpan = { char_start: 0, char_end: firstBody < content.length ? content[firstBody]!.start : doc.text.length };

  // Who speaks: the list's names, names printed with a firm or role in a label, and a bare name
  // that opens two or more turns (alone on its line after a finished sentence, or before a colon).
  const named = new Set(listedKeys);
  const bareCounts = new Map<string, number>();
  for (let i = firstBody; i < content.length; i += 1) {
    const label = labelAt(content, i, isListed);
    if (!label || isOperator(label.name)) continue;
    const key = nameKey(label.name);
    if (label.shape === 'decorated' && (!label.ownLine || afterBreak(i))) named.add(key);
    else if (label.shape === 'caps_colon') named.add(key);
    else if (label.shape === 'bare' && isPersonName(label.name) && !isCapsName(label.name) && (!label.ownLine || afterBreak(i))) bareCounts.set(key, (bareCounts.get(key) ?? 0) + 1);
  }
  // Only beside two speakers printed with a firm or role (or listed): a deck's repeated caption ("Pro Forma") is no speaker.
  const repeatedBare = new Set(named.size >= 2 ? [...bareCounts].filter(([, n]) => n >= MIN_BARE_LABELS).map(([key]) => key) : []);
  const isKnown = (name: string): boolean => named.has(nameKey(name)) || repeatedBare.has(nameKey(name));
  const accepts = (label: Label, i: number): boolean => {
    const key = nameKey(label.name);
    switch (label.shape) {
      case 'operator':
      case 'caps_colon':
        return true;
      case 'decorated':
        return !label.ownLine || afterBreak(i) || named.has(key);
      case 'bare':
        return named.has(key) || (repeatedBare.has(key) && (!label.ownLine || afterBreak(i)));
    }
  };

  // Body: turns, section headings, back matter.
  const raw: RawTurn[] = [];
  const headings: TextSpan[] = [];
  let section: TranscriptSection | null = null;
  let back_matter: TextSpan | null = null;
  const unplacedLines: Line[] = [];
  const ruleBefore = (i: number): boolean => i > 0 && lines.slice(indexInLines.get(content[i - 1]!)! + 1, indexInLines.get(content[i]!)).some((l) => isRule(l.text));
  let turnOpen = false;
  for (let i = firstBody; i < content.length; i += 1) {
    const line = content[i]!;
    const text = line.text.trim();
    const heading = sectionHeadingOf(text);
    if (heading !== null) {
      section = heading;
      headings.push(span(line));
      continue;
    }
    if (raw.length > 0 && opensBackMatter(text)) {
      back_matter = { char_start: line.start, char_end: doc.text.length };
      break;
    }
    const label = labelAt(content, i, isKnown);
    if (label && accepts(label, i)) {
      const labelEnd = content[i + label.lineCount - 1]!;
      const decorationEnd = label.marker ? content[i + label.lineCount - 2]!.end : labelEnd.end;
      const sameLine = label.speechStart === null ? null : line;
      raw.push({ label, line, labelEnd, decorationEnd, section, firstLine: sameLine, lastLine: sameLine });
      turnOpen = true;
      i += label.lineCount - 1;
      continue;
    }
    // A rule (dotted line) closes a turn: text after it with no label is no one's.
    if (raw.length > 0 && ruleBefore(i)) turnOpen = false;
    const current = turnOpen ? raw[raw.length - 1] : undefined;
    if (current) {
      current.firstLine ??= line;
      current.lastLine = line;
    } else unplacedLines.push(line);
  }

  // A disclaimer without a heading: a page after the last turn's label that starts after a
  // finished sentence and speaks of forward-looking statements is back matter, not the last turn.
  const lastTurn = raw[raw.length - 1];
  if (back_matter === null && lastTurn?.firstLine) {
    const from = content.indexOf(lastTurn.firstLine);
    for (let i = Math.max(from, 1); i < content.length; i += 1) {
      const line = content[i]!;
      const prev = content[i - 1]!;
      const page = doc.offsets[line.page]!;
      if (line.page === prev.page || prev.start < lastTurn.line.start || !endsSentence(prev.text)) continue;
      if (!DISCLAIMER_WORDS.test(doc.text.slice(line.start, page.char_end))) continue;
      back_matter = { char_start: line.start, char_end: doc.text.length };
      lastTurn.lastLine = prev.start >= lastTurn.labelEnd.start ? prev : lastTurn.lastLine;
      break;
    }
  }

  // The company: as the title names it, else the firm of the issuer's people (list, or labels with an executive's title).
  const frontLines = lines.filter((l) => l.start < front_matter.char_end && !isRule(l.text));
  const call = readCall(frontLines, pdfTitle);
  const decorationOf = new Map<string, { role: string | null; firm: string | null; marker: 'Q' | 'A' | null; quote: string }>();
  for (const t of raw) {
    const key = nameKey(t.label.name);
    const known = decorationOf.get(key);
    if (known && (known.role !== null || known.firm !== null)) continue;
    const printed = t.label.decoration === null ? { role: null, firm: null } : roleAndFirm(t.label.decoration);
    decorationOf.set(key, { ...printed, marker: known?.marker ?? t.label.marker, quote: doc.text.slice(t.line.start, t.decorationEnd).trim() });
  }
  const executiveFirm = [...decorationOf.values()].find((d) => d.firm !== null && d.role !== null && isRole(d.role) && !isAnalystRole(d.role))?.firm ?? null;
  const company = call.company ?? listed.find((p) => p.group === 'company' && p.firm)?.firm ?? executiveFirm;

  // Participants: the list, then speakers it omits (named as the operator introduced them, else as labelled), the operator.
  const kinds: Array<ParticipantKind | null> = [];
  const participants: TranscriptParticipant[] = listed.map((p) => {
    kinds.push(kindOf({ group: p.group, role: p.role, firm: p.firm, marker: decorationOf.get(nameKey(p.name))?.marker ?? null, introduced: false }, company) ?? 'analyst');
    return { name: p.name, role: p.role, firm: p.firm, kind: 'company', listed: true, quote: p.quote };
  });
  const indexOf = new Map(participants.map((p, i) => [nameKey(p.name), i]));
  const spoken = (t: RawTurn): string => doc.text.slice(t.label.speechStart ?? t.labelEnd.end, t.lastLine?.end ?? t.labelEnd.end);
  const operatorTexts = raw.filter((t) => isOperator(t.label.name)).map(spoken);
  for (const t of raw) {
    const key = nameKey(t.label.name);
    if (indexOf.has(key)) continue;
    indexOf.set(key, participants.length);
    if (isOperator(t.label.name)) {
      kinds.push('operator');
      participants.push({ name: 'Operator', role: null, firm: null, kind: 'operator', listed: false, quote: null });
      continue;
    }
    const intro = introductionOf(t.label.name, operatorTexts);
    const printed = decorationOf.get(key);
    const decorated = printed !== undefined && (printed.role !== null || printed.firm !== null);
    const role = printed?.role ?? null;
    const firm = printed?.firm ?? intro?.firm ?? null;
    kinds.push(kindOf({ group: null, role, firm, marker: printed?.marker ?? null, introduced: intro !== null }, company));
    participants.push({
      name: intro?.name ?? (isCapsName(t.label.name) ? titleCase(t.label.name) : t.label.name),
      role,
      firm,
      kind: 'company',
      listed: false,
      // The quote is where role and firm were read: the label when it prints them, else the introduction.
      quote: decorated ? printed.quote : (intro?.quote ?? null),
    });
  }
  const kindAt = (t: RawTurn): ParticipantKind | null => kinds[indexOf.get(nameKey(t.label.name))!]!;

  // Sections: after a heading, as it says; without a Q&A heading, Q&A begins with the first
  // analyst's turn (or the operator's turn that introduces it).
  if (!raw.some((t) => t.section === 'qa')) {
    const firstAnalyst = raw.findIndex((t) => kindAt(t) === 'analyst');
    if (firstAnalyst >= 0) {
      const start = firstAnalyst > 0 && kindAt(raw[firstAnalyst - 1]!) === 'operator' ? firstAnalyst - 1 : firstAnalyst;
      raw.forEach((t, i) => {
        t.section = i >= start ? 'qa' : 'presentation';
      });
    }
  }
  // A speaker nothing printed places speaks for the company in the presentation, asks in Q&A.
  participants.forEach((p, i) => {
    const first = raw.find((t) => indexOf.get(nameKey(t.label.name)) === i);
    p.kind = kinds[i] ?? (first?.section === 'qa' ? 'analyst' : 'company');
  });

  const pageOf = (offset: number): number => {
    const i = doc.offsets.findIndex((p) => offset <= p.char_end);
    return i < 0 ? doc.offsets.length - 1 : i;
  };
  const turns: TranscriptTurn[] = raw.map((t) => {
    const index = indexOf.get(nameKey(t.label.name))!;
    const char_start = t.label.speechStart ?? t.firstLine?.start ?? t.labelEnd.end;
    const char_end = Math.max(char_start, t.lastLine?.end ?? t.labelEnd.end);
    const quoteEnd = t.firstLine && t.firstLine.start < char_end ? t.firstLine.end : t.labelEnd.end;
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

  // What the body holds outside turns, headings, rules and running headers.
  const bodyEnd = back_matter?.char_start ?? doc.text.length;
  const inTurn = (l: Line): boolean => turns.some((t) => l.start >= t.label_start && l.end <= Math.max(t.char_end, l.start));
  for (const line of content) {
    if (line.start < front_matter.char_end || line.start >= bodyEnd || unplacedLines.includes(line)) continue;
    if (headings.some((h) => h.char_start === line.start)) continue;
    if (!inTurn(line)) unplacedLines.push(line);
  }

  return {
    call: { company, title: call.title, date: call.date, date_source: call.date_source },
    participants,
    turns,
    front_matter,
    back_matter,
    headings,
    furniture: [...furniture].map(span).sort((a, b) => a.char_start - b.char_start),
    rules: rules.map(span),
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
 * turn says something; every non-blank line of the body belongs to a turn, a section heading, a
 * rule or a running header (the front matter and a closing disclaimer are outside the body); the
 * call's date is known.
 */
export function transcriptGate(doc: DocumentText, split: TranscriptSplit): string | null {
  if (doc.text.replaceAll(DOCUMENT_PAGE_SEPARATOR, '').trim().length === 0) return 'no text extracted';
  if (split.turns.length === 0) return 'no speaker turns found';
  // A call's front matter (title, date, participants) takes a page or two; turns found further on are captions of a deck or a report.
  if (split.turns[0]!.page_index > MAX_FRONT_PAGES) return `the first speaker turn is on page ${split.turns[0]!.page_index + 1}: too far for a call's front matter`;
  const speakers = new Set(split.turns.map((t) => t.participant_index));
  if (!split.participants.some((p) => p.listed) && speakers.size < 2) return 'no participants list and fewer than two distinct speakers';
  const empty = split.turns.findIndex((t) => t.char_end <= t.char_start);
  if (empty >= 0) return `turn ${empty} (${JSON.stringify(split.turns[empty]!.label)}) says nothing: a label with no text is not a turn`;
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

export { nameKey };
export type { ParticipantKind };
