import type { ParticipantKind } from '@app/contracts';
import { isAnalystRole, isPersonName, isRole, nameKey, sameFirm } from './transcript-names';

/*
 * The participants list of the front matter, the operator's introductions of analysts, and who
 * speaks for whom. List layouts seen: headings ("Host", "Speakers", "Presenters", "Participants",
 * "Analysts") with one person a line ("Name, Title", "Name – Firm, Title", "Name – Firm",
 * "Name (Title)"); a run-in list ("Speakers: Name, Title, and Name, Title", "Speeches by ...");
 * or a cover with "Name (Title)" lines and no heading.
 */

export type ParticipantGroup = 'company' | 'analyst' | 'either';

export interface ListedParticipant {
  name: string;
  role: string | null;
  firm: string | null;
  group: ParticipantGroup;
  /** The list line, verbatim. */
  quote: string;
}

/** Participant list headings: the issuer's people, the analysts, or either (decided by the firm). */
const COMPANY_GROUP = /^(?:hosts?|speakers?|presenters?|company (?:participants|representatives|speakers)|corporate participants|executives|management)\s*:?$/i;
const ANALYST_GROUP = /^(?:analysts?|conference call participants|other participants)\s*:?$/i;
const EITHER_GROUP = /^(?:participants|call participants)\s*:?$/i;
/** A run-in list: "Speakers: Jane Doe, CEO, and John Roe, CFO", "Speeches by Jane Doe, Chief Executive Officer, and ...". */
const RUN_IN_LIST = /^(?:(hosts?|speakers?|presenters?|participants|call participants)\s*:|(speeches|remarks|presentations?) by)\s+(.+)$/i;

/** The group a list heading opens; null when the line is not one. `sawCompany`: a company heading came before ("Participants" then means the analysts). */
export function listHeadingOf(text: string, sawCompany: boolean): ParticipantGroup | null {
  if (COMPANY_GROUP.test(text)) return 'company';
  if (ANALYST_GROUP.test(text)) return 'analyst';
  if (EITHER_GROUP.test(text)) return sawCompany ? 'analyst' : 'either';
  return null;
}

const DASH = /\s+[–—-]\s+/;

/** "Name – Firm, Title", "Name – Firm", "Name (Title)", "Name, Title" or "Name"; null when the line does not start with a person's name. */
export function parseParticipantLine(text: string, group: ParticipantGroup): ListedParticipant | null {
  const line = text.trim();
  const dash = DASH.exec(line);
  if (dash) {
    const name = line.slice(0, dash.index).trim();
    if (!isPersonName(name)) return null;
    const rest = line.slice(dash.index + dash[0].length).trim();
    const comma = rest.indexOf(',');
    const firm = (comma < 0 ? rest : rest.slice(0, comma)).trim();
    const role = comma < 0 ? null : rest.slice(comma + 1).trim() || null;
    return { name, firm: firm || null, role, group, quote: line };
  }
  const paren = /^([^()]+?)\s*\(([^()]+)\)$/.exec(line);
  if (paren) {
    if (!isPersonName(paren[1]!)) return null;
    const inside = paren[2]!.trim();
    return isRole(inside) ? { name: paren[1]!, role: inside, firm: null, group, quote: line } : { name: paren[1]!, role: null, firm: inside, group, quote: line };
  }
  const comma = line.indexOf(',');
  const name = (comma < 0 ? line : line.slice(0, comma)).trim();
  if (!isPersonName(name)) return null;
  return { name, firm: null, role: comma < 0 ? null : line.slice(comma + 1).trim() || null, group, quote: line };
}

/** Whether a line opens a run-in list, and what it lists after its heading words. */
export function runInListOf(text: string): { group: ParticipantGroup; items: string } | null {
  const m = RUN_IN_LIST.exec(text.trim());
  if (!m) return null;
  return { group: m[1] && /participants/i.test(m[1]) ? 'either' : 'company', items: m[3]! };
}

/**
 * "Sergio P. Ermotti, Group Chief Executive Officer, and Todd Tuckner, Group Chief Financial
 * Officer" -> one participant per name, with the title (or firm) printed after it. `quote` is the
 * whole list as printed.
 */
export function parseRunInList(items: string, group: ParticipantGroup, quote: string): ListedParticipant[] {
  const parts = items
    .replace(/[.;]\s*$/, '')
    .split(/\s*[,;]\s*(?:and\s+)?|\s+and\s+|\s+&\s+(?=\p{Lu}\p{Ll}+\s+\p{Lu})/u)
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  const listed: ListedParticipant[] = [];
  for (const part of parts) {
    const current = listed[listed.length - 1];
    if (isPersonName(part) && !isRole(part)) listed.push({ name: part, role: null, firm: null, group, quote });
    else if (current && current.role === null && isRole(part)) current.role = part;
    else if (current && current.firm === null) current.firm = part;
  }
  return listed;
}

/** Where the operator introduces a speaker: "from Jim Mitchell with Seaport Global." -> the name as written, and the firm. */
export function introductionOf(name: string, operatorTexts: readonly string[]): { name: string; firm: string | null; quote: string } | null {
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

export interface KindEvidence {
  group: ParticipantGroup | null;
  role: string | null;
  firm: string | null;
  /** "Q" or "A" printed under the speaker's labels. */
  marker: 'Q' | 'A' | null;
  /** The operator introduced the speaker. */
  introduced: boolean;
}

/**
 * Who a participant speaks for, from what the document prints: the list's heading, a title
 * ("Analyst", "Chief Financial Officer"), a Q/A marker, the firm (the company's own, or another),
 * the operator's introduction. Null when nothing printed says it (the section decides then).
 */
export function kindOf(e: KindEvidence, company: string | null): ParticipantKind | null {
  if (e.group === 'company' || e.group === 'analyst') return e.group;
  if (e.role !== null && isAnalystRole(e.role)) return 'analyst';
  if (e.marker !== null) return e.marker === 'Q' ? 'analyst' : 'company';
  if (e.firm !== null && company !== null && sameFirm(e.firm, company)) return 'company';
  if (e.role !== null && isRole(e.role)) return 'company';
  if (e.firm !== null || e.introduced) return 'analyst';
  return null;
}
