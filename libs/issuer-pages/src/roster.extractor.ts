import type { PageModel } from './page-text';
import {
  ANALYST_HEADING,
  EMAIL,
  IR_CONTACT_HEADING,
  MANAGEMENT_HEADING,
  PART_SEPARATOR,
  PHONE,
  ROLE_START,
  companyNameCore,
  isHeadingLike,
  isOrganizationName,
  isPersonName,
  isSectionStart,
} from './text-cues';

/** One person read from a page; `quote` is verbatim page text (see page-text.ts). */
export interface RosterItem {
  name: string;
  role: string;
  affiliation: string;
  email: string | null;
  phone: string | null;
  quote: string;
}

export interface IssuerIdentity {
  cik: string;
  name?: string;
  ticker?: string;
}

/** Role printed for IR contacts when the page prints none but lists them as investor contacts. */
export const IR_ROLE = 'Investor Relations';
export const ANALYST_ROLE = 'Analyst';
/** A section ends at the next heading, or after this many lines. */
const MAX_SECTION_LINES = 40;
/** Lines below a contact's name that can still carry its e-mail and phone. */
const CONTACT_DETAIL_LINES = 3;

/**
 * Seniority order of executive roles, most senior first. A role takes the best tier any of its
 * parts matches ("Executive Vice President, ... Chief Financial Officer" is a CFO). "President"
 * alone is not "Vice President"; CAO and Controller sit after VPs as the desk's order wants.
 */
export const EXECUTIVE_SENIORITY: ReadonlyArray<{ tier: string; pattern: RegExp }> = [
  { tier: 'chief executive', pattern: /\b(?:chief executive officer|ceo)\b/i },
  { tier: 'executive chair', pattern: /\bexecutive chair(?:man|woman|person)?\b/i },
  { tier: 'chair', pattern: /\bchair(?:man|woman|person)?\b/i },
  { tier: 'president', pattern: /(?<!vice[ -])\bpresident\b/i },
  { tier: 'chief financial', pattern: /\b(?:chief financial officer|cfo)\b/i },
  { tier: 'chief operating', pattern: /\b(?:chief operating officer|coo)\b/i },
  { tier: 'other chief', pattern: /\bchief (?!executive|financial|operating|accounting)[a-z]+(?: [a-z]+)? officer\b|\b(?:cto|cio|cmo|cro|clo|cso|cco|cpo)\b/i },
  { tier: 'executive vice president', pattern: /\b(?:executive vice president|evp)\b/i },
  { tier: 'senior vice president', pattern: /\b(?:senior vice president|svp)\b/i },
  { tier: 'vice president', pattern: /\b(?:vice president|vp)\b/i },
  { tier: 'controller', pattern: /\b(?:controller|comptroller|chief accounting officer|cao)\b/i },
];

/** 0-based seniority tier of a role (EXECUTIVE_SENIORITY.length for roles matching none). */
export function seniorityTier(role: string): number {
  const tier = EXECUTIVE_SENIORITY.findIndex((t) => t.pattern.test(role));
  return tier === -1 ? EXECUTIVE_SENIORITY.length : tier;
}

/** Executives sorted by seniority; equal tiers keep page order. */
export function rankExecutives<T extends { role: string }>(items: readonly T[]): T[] {
  return items.map((item, index) => ({ item, index, tier: seniorityTier(item.role) })).sort((a, b) => a.tier - b.tier || a.index - b.index).map((x) => x.item);
}

/** "John D. Baker II Executive Chairman" -> name + role, split where the role's first word starts. */
export function splitNameAndRole(line: string): { name: string; role: string } | null {
  const match = ROLE_START.exec(line);
  if (!match || match.index === 0) return null;
  const name = line.slice(0, match.index).replace(/[\s,|·:–—-]+$/, '');
  const role = line.slice(match.index).trim();
  if (!isPersonName(name) || role.length > 120 || /[.!?]\s+[A-Z]/.test(role)) return null;
  return { name, role };
}

function isRoleLine(line: string): boolean {
  return line.length <= 120 && ROLE_START.exec(line)?.index === 0;
}

/** Line range [start, end) of the section a cue heading opens (until the next heading-like section start). */
function sectionsAfter(page: PageModel, cue: RegExp): Array<{ heading: number; start: number; end: number }> {
  const sections = [];
  for (let i = 0; i < page.lines.length; i += 1) {
    if (!isSectionStart(page, i, cue)) continue;
    // An h2 cue ends at the next h1/h2 (h3 names inside it stay); a cue that is not an h-element ends at any heading.
    const level = page.headingLevels.get(i) ?? 6;
    let end = i + 1;
    while (end < page.lines.length && end - i <= MAX_SECTION_LINES && (page.headingLevels.get(end) ?? 7) > level) end += 1;
    sections.push({ heading: i, start: i + 1, end });
  }
  return sections;
}

/**
 * Executives: on a page whose title or a heading names management ("Executive Team", "Management",
 * "Leadership"), each line "Name Role" (or a name line followed by a role line) is one executive.
 * Navigation lines (a link's whole text) are skipped. Sorted by EXECUTIVE_SENIORITY.
 */
export function extractExecutives(page: PageModel, affiliation: string): RosterItem[] {
  let ranges: Array<{ start: number; end: number }> = [];
  if (MANAGEMENT_HEADING.test(page.title)) ranges = [{ start: 0, end: page.lines.length }];
  else ranges = sectionsAfter(page, MANAGEMENT_HEADING);
  const items: RosterItem[] = [];
  const seen = new Set<string>();
  for (const { start, end } of ranges) {
    for (let i = start; i < end; i += 1) {
      if (page.linkOnlyLines.has(i)) continue;
      const line = page.lines[i]!;
      const split = splitNameAndRole(line);
      let found: { name: string; role: string; quote: string } | null = split ? { ...split, quote: line } : null;
      const next = page.lines[i + 1];
      if (!found && isPersonName(line) && next !== undefined && i + 1 < end && isRoleLine(next)) {
        found = { name: line, role: next, quote: `${line}\n${next}` };
        i += 1;
      }
      if (!found || seen.has(found.name)) continue;
      seen.add(found.name);
      items.push({ name: found.name, role: found.role, affiliation, email: null, phone: null, quote: found.quote });
    }
  }
  return rankExecutives(items);
}

/** "Scott Gordon · Core IR" -> name, and the rest as role (a role word) or firm (anything else). */
function personLine(line: string): { name: string; role: string | null; firm: string | null } | null {
  const withoutContacts = line.replace(EMAIL, ' ').replace(PHONE, ' ').trim();
  const parts = withoutContacts.split(PART_SEPARATOR).map((p) => p.trim()).filter(Boolean);
  if (parts.length === 0 || !isPersonName(parts[0]!)) return null;
  let role: string | null = null;
  let firm: string | null = null;
  for (const part of parts.slice(1)) {
    if (/^(?:investor relations|ir|media relations)$/i.test(part) || isRoleLine(part)) role ??= part;
    else firm ??= part;
  }
  return { name: parts[0]!, role, firm };
}

/**
 * IR contacts, two cues:
 * - a section under an IR-contact heading ("IR Contact", "Investor Relations Contacts"): each line
 *   starting with a person's name opens a contact; emails and phones on it and on the lines below
 *   (until the next person) belong to it. The firm printed beside the name (an IR agency like
 *   "Core IR") is the affiliation, else the company.
 * - "Attn: <name>" under an address block (contact pages): the block's first company-like line is
 *   whom the person answers for. Only the issuer's own block counts (its name matches the issuer)
 *   or a block that says investor relations: a subsidiary's or a sales office's "Attn:" is not an
 *   investor contact. Role: as printed, else IR_ROLE.
 */
export function extractIrContacts(page: PageModel, issuer: IssuerIdentity, company: string): RosterItem[] {
  const items: RosterItem[] = [];
  for (const { start, end } of sectionsAfter(page, IR_CONTACT_HEADING)) {
    let current: { item: RosterItem; from: number; to: number } | null = null;
    const close = () => {
      // A contact without an e-mail or a phone is not a way to reach anyone: not kept.
      if (current && (current.item.email || current.item.phone)) {
        current.item.quote = page.lines.slice(current.from, current.to + 1).join('\n');
        items.push(current.item);
      }
      current = null;
    };
    for (let i = start; i < end; i += 1) {
      if (page.linkOnlyLines.has(i) && !EMAIL.test(page.lines[i]!)) continue;
      const line = page.lines[i]!;
      const person = personLine(line);
      if (person) {
        close();
        current = {
          item: { name: person.name, role: person.role ?? IR_ROLE, affiliation: person.firm ?? company, email: null, phone: null, quote: '' },
          from: i,
          to: i,
        };
      }
      // Details belong to the person printed at most CONTACT_DETAIL_LINES lines above them.
      if (!current) continue;
      const c: { item: RosterItem; from: number; to: number } = current;
      if (i - c.from > CONTACT_DETAIL_LINES) {
        close();
        continue;
      }
      const email = EMAIL.exec(line)?.[0] ?? null;
      const phone = PHONE.exec(line)?.[0] ?? null;
      if (email || phone) c.to = i;
      c.item.email ??= email;
      c.item.phone ??= phone;
    }
    close();
  }
  items.push(...attentionContacts(page, issuer, company));
  const seen = new Set<string>();
  return items.filter((item) => (seen.has(item.name) ? false : (seen.add(item.name), true)));
}

const ATTENTION = /^(?:attn|attention)\s*[:.]?\s*(.+)$/i;

function attentionContacts(page: PageModel, issuer: IssuerIdentity, company: string): RosterItem[] {
  const items: RosterItem[] = [];
  const issuerCore = issuer.name ? companyNameCore(issuer.name) : null;
  let blockStart = 0;
  for (let i = 0; i < page.lines.length; i += 1) {
    const match = ATTENTION.exec(page.lines[i]!);
    if (!match) {
      if (page.headingLevels.has(i) || page.linkOnlyLines.has(i)) blockStart = i + 1;
      continue;
    }
    const name = match[1]!.trim();
    const block = page.lines.slice(blockStart, i);
    const orgOffset = block.findIndex((l) => isOrganizationName(l) && !PHONE.test(l));
    const org = orgOffset === -1 ? null : block[orgOffset]!;
    const saysInvestor = block.some((l) => /\binvestor/i.test(l));
    const isIssuers = org !== null && issuerCore !== null && companyNameCore(org) === issuerCore;
    if (isPersonName(name) && (isIssuers || saysInvestor)) {
      const from = blockStart + Math.max(orgOffset, 0);
      const lines = page.lines.slice(from, i + 1);
      items.push({
        name,
        role: IR_ROLE,
        affiliation: org ?? company,
        email: lines.map((l) => EMAIL.exec(l)?.[0]).find(Boolean) ?? null,
        phone: lines.map((l) => PHONE.exec(l)?.[0]).find(Boolean) ?? null,
        quote: lines.join('\n'),
      });
    }
    blockStart = i + 1;
  }
  return items;
}

/**
 * Analysts under an analyst-coverage heading: "Name, Firm" / "Firm · Name" on one line, or a firm
 * line and a name line next to each other. Role: ANALYST_ROLE; affiliation: the firm.
 */
export function extractAnalysts(page: PageModel): RosterItem[] {
  const items: RosterItem[] = [];
  for (const { start, end } of sectionsAfter(page, ANALYST_HEADING)) {
    for (let i = start; i < end; i += 1) {
      const line = page.lines[i]!;
      if (!isHeadingLike(line) && line.length > 100) continue;
      const parts = line.replace(EMAIL, ' ').replace(PHONE, ' ').split(PART_SEPARATOR).map((p) => p.trim()).filter(Boolean);
      let found: { name: string; firm: string; quote: string } | null = null;
      if (parts.length >= 2) {
        const nameAt = parts.findIndex((p) => isPersonName(p));
        const firm = parts.find((p, k) => k !== nameAt && !isPersonName(p) && !ROLE_START.test(p));
        if (nameAt !== -1 && firm) found = { name: parts[nameAt]!, firm, quote: line };
      } else {
        const next = page.lines[i + 1];
        if (next !== undefined && i + 1 < end) {
          if (isOrganizationName(line) && isPersonName(next)) found = { name: next, firm: line, quote: `${line}\n${next}` };
          else if (isPersonName(line) && isOrganizationName(next)) found = { name: line, firm: next, quote: `${line}\n${next}` };
          if (found) i += 1;
        }
      }
      if (!found) continue;
      const quoteLines = found.quote.split('\n');
      items.push({
        name: found.name,
        role: ANALYST_ROLE,
        affiliation: found.firm,
        email: quoteLines.map((l) => EMAIL.exec(l)?.[0]).find(Boolean) ?? null,
        phone: quoteLines.map((l) => PHONE.exec(l)?.[0]).find(Boolean) ?? null,
        quote: found.quote,
      });
    }
  }
  return items;
}
