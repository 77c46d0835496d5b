/** The IR website a 10-K names (Item 1 "Available Information"), and where it says so. */
export interface TenkIrWebsite {
  /** Absolute https URL of the IR landing page as printed (an IR path cut after its IR segment). */
  url: string;
  /** The sentence naming it, verbatim in the text. */
  quote: string;
  /** investor_relations_website: the sentence calls it the investor relations website; ir_url: the URL itself is an IR one. */
  cue: 'investor_relations_website' | 'ir_url';
}

// A printed web address: www.example.com, ir.example.com, example.com/ir, https://... (no trailing punctuation).
const ADDRESS = /\b(?:https?:\/\/)?(?:[a-z0-9-]+\.)+(?:com|net|org|io|co|us|biz|info|inc|bank|financial)\b(?:\/[^\s,;)"”’]*)?/gi;
// "our investor relations website at", "Our investor relations website is", "investors website", "Investor Relations page".
const CALLED_IR = /\binvestor(?:s| relations)(?: section of our)? (?:web ?site|web ?page|page)\b[^.]{0,60}$/i;
const IR_HOST = /^(?:ir|investors?|investor-relations)\./i;
const IR_SEGMENT = /^(?:ir|investors?|investor-relations|investor_relations|investor)$/i;
/** The SEC's own site and the XBRL namespaces a 10-K prints are never the issuer's IR site. */
const NOT_ISSUER = /(?:^|\.)(?:sec\.gov|fasb\.org|xbrl\.org|w3\.org)$/i;

/** The sentence of `text` around [start, end): from after the previous sentence end to the next one. */
function sentenceAround(text: string, start: number, end: number): string {
  const before = text.slice(0, start);
  const from = Math.max(before.lastIndexOf('. '), before.lastIndexOf('\n')) + 1;
  const after = text.slice(end).search(/\.(?:\s|$)|\n/);
  const to = after === -1 ? text.length : end + after + 1;
  return text.slice(from, to).trim();
}

/** The printed address as a URL; an IR path ends after its IR segment (…/investor-relations/filings -> …/investor-relations/). */
function landingOf(printed: string): { url: URL; irUrl: boolean } | null {
  let url: URL;
  try {
    url = new URL(/^https?:\/\//i.test(printed) ? printed : `https://${printed}`);
  } catch {
    return null;
  }
  if (NOT_ISSUER.test(url.hostname)) return null;
  const segments = url.pathname.split('/').filter(Boolean);
  const ir = segments.findIndex((s) => IR_SEGMENT.test(s));
  if (ir >= 0) url.pathname = `/${segments.slice(0, ir + 1).join('/')}/`;
  url.search = '';
  url.hash = '';
  return { url, irUrl: ir >= 0 || IR_HOST.test(url.hostname) };
}

/**
 * Pure: the IR website a 10-K's text names, e.g. Tesla's "on our investor relations website at
 * ir.tesla.com", Amazon's "Our investor relations website is amazon.com/ir", Wells Fargo's
 * "available for free at www.wellsfargo.com/about/investor-relations/filings". An address the
 * sentence calls the investor relations website wins over one that is only an IR URL; the first
 * in the text wins among equals. The company's plain website ("Our website address is
 * www.wellsfargo.com") is not an IR website. Null when the text names none.
 */
export function extractTenkIrWebsite(text: string): TenkIrWebsite | null {
  let best: TenkIrWebsite | null = null;
  for (const m of text.matchAll(ADDRESS)) {
    const printed = m[0].replace(/[.:]+$/, '');
    const landing = landingOf(printed);
    if (!landing) continue;
    const called = CALLED_IR.test(text.slice(Math.max(0, m.index - 120), m.index));
    if (!called && !landing.irUrl) continue;
    const found: TenkIrWebsite = {
      url: landing.url.toString(),
      quote: sentenceAround(text, m.index, m.index + printed.length),
      cue: called ? 'investor_relations_website' : 'ir_url',
    };
    if (called) return found;
    best ??= found;
  }
  return best;
}
