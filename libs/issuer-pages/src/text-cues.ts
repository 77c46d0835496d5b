import type { PageModel } from './page-text';

/**
 * Text cues shared by the extractors. They look at words a reader sees (headings, titles, link
 * texts), never at one site's CSS classes, so they carry over to other IR sites.
 */

/** The lookbehind starts a match only where a local part can start, so a long token without '@' costs O(n), not O(n²). */
export const EMAIL = /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/;
/** Phone as printed: optional +country, then 3 groups ("(877) 704-1776", "+1 212-655-0924", "212.655.0924"). */
export const PHONE = /(?:\+\d{1,3}[\s.-]?)?(?:\(\d{2,4}\)|\d{2,4})[\s.-]?\d{3,4}[\s.-]\d{3,4}(?!\d)/;

/** A heading-like line: short, not a sentence. */
export function isHeadingLike(line: string): boolean {
  return line.length <= 60 && line.split(' ').length <= 8 && !/[.;]$/.test(line);
}

/** A line that opens a section: an h1-h6 element, or a short line matching a cue. */
export function isSectionStart(page: PageModel, index: number, cue?: RegExp): boolean {
  const line = page.lines[index] ?? '';
  if (page.linkOnlyLines.has(index)) return false;
  if (cue) return isHeadingLike(line) && cue.test(line);
  return page.headingLevels.has(index);
}

/** "IR Contact", "Investor Relations Contacts", "Contact Investor Relations", "Shareholder Inquiries" (a bare "Investor Relations" titles whole pages, not a contact block). */
export const IR_CONTACT_HEADING = /^(?:(?:investor relations|investor|investors|ir|shareholder|stockholder)\s+(?:contacts?|inquiries|enquiries)|contact\s+(?:investor relations|ir|us for investors))\s*:?$/i;
export const ANALYST_HEADING = /^(?:analyst coverage|analysts? covering\b.*|research coverage|covering analysts|sell[- ]side (?:analysts|coverage)|equity research(?: coverage)?|analysts)\s*:?$/i;
export const MANAGEMENT_HEADING = /\b(?:management(?: team)?|executive (?:team|officers|leadership)|executives|leadership(?: team)?|officers|senior management)\b/i;

const ROLE_WORDS = [
  'chief', 'executive', 'president', 'vice', 'chair', 'chairman', 'chairwoman', 'chairperson', 'director', 'controller',
  'comptroller', 'treasurer', 'secretary', 'counsel', 'senior', 'managing', 'head', 'officer', 'founder', 'co-founder',
  'ceo', 'cfo', 'coo', 'cto', 'cio', 'cao', 'evp', 'svp', 'vp', 'partner', 'principal', 'manager', 'analyst', 'general',
];
/** Where a role starts in a line ("Executive Vice President, ..."): a word from ROLE_WORDS. */
export const ROLE_START = new RegExp(`\\b(?:${ROLE_WORDS.join('|')})\\b`, 'i');
const ORG_WORDS = /\b(?:inc|corp|corporation|co|company|llc|ltd|limited|plc|group|holdings|securities|capital|partners|bank|markets|research|advisors|n\.?v|s\.?a|ag|gmbh|lp|llp)\b\.?/i;

/**
 * Words that make a capitalised phrase something other than a person ("Quick Links", "Share
 * Price", "Join Our Upcoming", "FRP Development Website"): page furniture and common words.
 */
const NOT_NAME_WORDS = new Set([
  'a', 'about', 'alerts', 'all', 'an', 'and', 'annual', 'board', 'call', 'cap', 'coming', 'contact', 'corporate', 'date', 'development',
  'download', 'email', 'events', 'filings', 'for', 'form', 'free', 'from', 'governance', 'home', 'in', 'information', 'investor',
  'investors', 'join', 'links', 'live', 'market', 'more', 'news', 'of', 'on', 'our', 'outstanding', 'overview', 'page', 'presentation',
  'presentations', 'press', 'price', 'quick', 'registration', 'relations', 'releases', 'reports', 'results', 'search', 'sec', 'shares',
  'site', 'snapshot', 'soon', 'stock', 'the', 'to', 'upcoming', 'us', 'webinar', 'website', 'welcome', 'with', 'your',
]);

const NAME_TOKEN = /^(?:[A-Z][A-Za-z'’-]*\.?|[a-z]{1,3}[A-Z][A-Za-z'’-]+\.?|de|da|di|du|van|von|der|den|la|le|del|dos|bin|al|II|III|IV|Jr\.?|Sr\.?)$/;

/** A person's name as printed: 2-6 name tokens, two of them capitalised, no role or company words. */
export function isPersonName(text: string): boolean {
  const tokens = text.replace(/,$/, '').split(' ');
  if (tokens.length < 2 || tokens.length > 6) return false;
  if (ROLE_START.test(text) || ORG_WORDS.test(text) || /\d/.test(text)) return false;
  if (tokens.some((t) => NOT_NAME_WORDS.has(t.replace(/[,.]$/, '').toLowerCase()))) return false;
  if (!tokens.every((t) => NAME_TOKEN.test(t.replace(/,$/, '')))) return false;
  return tokens.filter((t) => /^[A-Z][a-z]/.test(t) || /^[a-z]{1,3}[A-Z]/.test(t)).length >= 2 || tokens.filter((t) => /^[A-Z]/.test(t)).length >= 2;
}

/** A company-like name (carries a corporate word: Inc, Corp, Securities, Capital, ...). */
export function isOrganizationName(text: string): boolean {
  return text.length <= 80 && ORG_WORDS.test(text) && !EMAIL.test(text);
}

/** Lowercase core of a company name without punctuation and legal suffixes ("FRP Holdings, Inc." -> "frp holdings"). */
export function companyNameCore(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9& ]+/g, ' ')
    .split(' ')
    .filter((w) => w && !['inc', 'incorporated', 'corp', 'corporation', 'co', 'company', 'ltd', 'limited', 'llc', 'plc', 'the', 'sa', 'nv', 'ag'].includes(w))
    .join(' ');
}

/** Separators printed between a name and its firm or role: "Scott Gordon · Core IR", "Jane Roe, CFO", "A | B". */
export const PART_SEPARATOR = /\s*(?:·|\||•|–|—|\s-\s|,)\s*/;
