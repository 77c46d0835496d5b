/* How people, their roles and their firms are printed in transcripts, and how names are compared. */

/** Lowercase, one kind of apostrophe and dash, single spaces: how names are compared. */
export function nameKey(name: string): string {
  return name.replace(/[’`]/g, "'").replace(/[–—]/g, '-').replace(/\s+/g, ' ').trim().toLowerCase();
}

/** A person's name: two to five words, each starting with a capital letter ("C.S. Venkatakrishnan", "Tarik El Mejjad"). */
const PERSON = /^\p{Lu}[\p{L}'’.-]*(?:\s+(?:\p{Lu}[\p{L}'’.-]*|de|van|von|der|da|di|del|la|le)){1,4}$/u;
/** A name in capitals: one to five words of capitals (and . ' ’ -). */
const CAPS_NAME = /^[A-Z][A-Z.'’-]*(?:\s+[A-Z][A-Z.'’-]*){0,4}$/;

export const isPersonName = (text: string): boolean => PERSON.test(text);
/** A person's name printed in capitals ("JANE FRASER"), which section titles ("COST OF RISK") look like too. */
export const isCapsName = (text: string): boolean => CAPS_NAME.test(text) && text.split(/\s+/).length >= 2;

/** Words that make a phrase a job title rather than a firm. */
const ROLE_WORDS =
  /\b(?:chief|officer|ceo|cfo|coo|cro|president|chair(?:man|woman|person)?|director|head|analyst|treasurer|secretary|controller|executive|manager|partner|founder|investor relations|general counsel|managing|vice)\b/i;
export const isRole = (text: string): boolean => ROLE_WORDS.test(text);
export const isAnalystRole = (text: string): boolean => /\banalyst\b/i.test(text);

const DASH = /\s+[–—-]\s+/;

/**
 * What is printed beside a name, as role and firm: "Chief Financial Officer, JPMorganChase",
 * "Analyst, Truist Securities, Inc.", "Group Finance Director", "BNP Paribas Exane", "Firm – Role".
 * A part with a job-title word is the role; the other part is the firm.
 */
export function roleAndFirm(decoration: string): { role: string | null; firm: string | null } {
  const text = decoration.trim();
  const dash = DASH.exec(text);
  const cut = dash ?? /,\s*/.exec(text);
  if (cut) {
    const first = text.slice(0, cut.index).trim();
    const rest = text.slice(cut.index + cut[0].length).trim();
    if (isRole(first)) return { role: first, firm: rest || null };
    if (isRole(rest)) return { role: rest, firm: first || null };
  }
  return isRole(text) ? { role: text, firm: null } : { role: null, firm: text || null };
}

/** "JANE FRASER" -> "Jane Fraser"; "MATT O’CONNOR" -> "Matt O’Connor": for a label the list and the operator never name. */
export function titleCase(name: string): string {
  return name.toLowerCase().replace(/(^|[\s'’.-])(\p{L})/gu, (_, sep: string, ch: string) => sep + ch.toUpperCase());
}

/** Whether a firm is the company ("JPMorganChase" and "JPMorgan Chase & Co." are; spaces and case do not count). */
export function sameFirm(firm: string, company: string): boolean {
  const squash = (s: string): string => nameKey(s).replace(/[^\p{L}\p{N}]/gu, '');
  const a = squash(firm);
  const b = squash(company);
  return a.length > 0 && b.length > 0 && (a === b || a.startsWith(b) || b.startsWith(a));
}
