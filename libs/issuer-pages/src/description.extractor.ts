import type { PageModel } from './page-text';
import { companyNameCore } from './text-cues';

export interface CompanyDescription {
  text: string;
  /** Verbatim: the meta tag's content (source 'meta') or a line of the page's text (source 'text'). */
  quote: string;
  source: 'meta' | 'text';
}

/** Text about the site rather than the company: "Access ... investor resources", "Visit our ...". */
const ABOUT_THE_PAGE = /^(?:access|explore|find|view|visit|learn|discover|read|download|subscribe|welcome|get|see|browse|click)\b|\b(?:investor resources|this (?:page|site|website)|our (?:website|site|investor relations portal))\b/i;
const ABOUT_HEADING = /^(?:about(?: us| the company)?|about [A-Z].{0,40}|company overview|overview|who we are|our company|company profile|corporate profile)\s*:?$/i;
/** The company's self-description: "<name> is a ...", "We are ...", "<name> provides ...". */
const SELF_DESCRIPTION = /^.{0,80}?\b(?:is|are)\s+(?:a|an|the|one of)\b|^.{0,80}?\b(?:provides|develops|operates|owns|designs|manufactures|offers|specializes|focuses|engages|is engaged)\b/i;

function isProse(text: string): boolean {
  return text.length >= 60 && text.split(' ').length >= 10 && /[.!?)"”]$/.test(text);
}

function namesTheCompany(text: string, names: readonly string[]): boolean {
  const start = companyNameCore(text.slice(0, 80));
  return /^(?:we|the company)\b/i.test(text) || names.some((n) => n && start.startsWith(n));
}

/**
 * The issuer's own words about itself, null when the page has none:
 * 1. the meta description, when it describes the company (not the page: BRAI's "Access Braiin
 *    Limited (NASDAQ: BRAI) investor resources ..." describes its IR page, so it is refused);
 * 2. the first prose paragraph under an "About" / "Overview" heading;
 * 3. the first prose paragraph that opens with the company's name (or "We") and says what it is
 *    ("FRP Holdings, Inc., is a publicly traded company ...").
 */
export function extractDescription(page: PageModel, issuer: { name?: string; ticker?: string }): CompanyDescription | null {
  const names = [issuer.name ? companyNameCore(issuer.name) : '', issuer.ticker?.toLowerCase() ?? ''].filter(Boolean);
  const describes = (text: string) => isProse(text) && !ABOUT_THE_PAGE.test(text) && SELF_DESCRIPTION.test(text) && namesTheCompany(text, names);
  const meta = page.metaDescription;
  if (meta && describes(meta)) return { text: meta, quote: meta, source: 'meta' };
  for (let i = 0; i < page.lines.length; i += 1) {
    if (page.linkOnlyLines.has(i) || !ABOUT_HEADING.test(page.lines[i]!)) continue;
    const next = page.lines.slice(i + 1, i + 4).find((l) => isProse(l) && !ABOUT_THE_PAGE.test(l));
    if (next) return { text: next, quote: next, source: 'text' };
  }
  const line = page.lines.find((l, i) => !page.linkOnlyLines.has(i) && describes(l));
  return line ? { text: line, quote: line, source: 'text' } : null;
}
