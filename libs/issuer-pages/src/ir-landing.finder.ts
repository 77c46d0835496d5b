import { pageModel, type PageLink, type PageModel } from './page-text';

/** The IR landing page a company's homepage points to, and the evidence. */
export interface IrLanding {
  url: string;
  /** text: the link says "Investor Relations" / "Investors" / ...; host: an ir./investors. host; path: an /investors-like path; self: the page itself is one. */
  cue: 'text' | 'host' | 'path' | 'self';
  /** The link's text as it stands in the page (the page's own title for `self`). */
  quote: string;
}

// Nav labels of IR sections. "Investor Presentation", "Investor Day" are documents or events, not the section.
const IR_TEXT_EXACT = /^(?:investor relations|investors|investor information|investor center|shareholders?|shareholder information|stockholders?|stockholder information|ir)$/i;
const IR_TEXT = /\b(?:investor relations|investors|shareholder (?:information|relations|services)|stockholder (?:information|relations))\b/i;
const IR_HOST = /^(?:ir|investors?|investor-relations|shareholders?)\./i;
const IR_PATH_SEGMENT = /^(?:investors?|investor[-_]?relations|ir|shareholders?|stockholders?|investor[-_]?(?:info|information|center))(?:\.(?:html?|aspx?|php|jsp))?$/i;
const DOCUMENT_FILE = /\.(?:pdf|pptx?|docx?|xlsx?|mp3|mp4|zip|jpe?g|png|gif)$/i;

const SCORES = { exactText: 100, text: 80, host: 60, path: 50 } as const;

/** `www.example.com` and `ir.example.com` are one site; an IP address is its own site. */
function siteOf(host: string): string {
  const h = host.toLowerCase().replace(/:\d+$/, '');
  if (/^[\d.]+$/.test(h) || h.startsWith('[')) return h;
  return h.split('.').slice(-2).join('.');
}

function pathCue(url: URL): boolean {
  return url.pathname.split('/').filter(Boolean).some((s) => IR_PATH_SEGMENT.test(s));
}

function scoreOf(link: PageLink, url: URL, page: URL): { score: number; cue: IrLanding['cue'] } | null {
  const sameSite = siteOf(url.host) === siteOf(page.host);
  const text = link.text || link.imageAlt || '';
  // A link's text is the strongest cue and may point off-site (IR sites are often hosted by a vendor).
  if (IR_TEXT_EXACT.test(text)) return { score: SCORES.exactText - (sameSite ? 0 : 10), cue: 'text' };
  if (IR_TEXT.test(text)) return { score: SCORES.text - (sameSite ? 0 : 10), cue: 'text' };
  if (!sameSite) return null;
  if (IR_HOST.test(url.host)) return { score: SCORES.host, cue: 'host' };
  if (pathCue(url)) return { score: SCORES.path, cue: 'path' };
  return null;
}

/**
 * Pure: the IR landing page of a company's homepage, found by link text ("Investor Relations",
 * "Investors", "Shareholder Information", ...), else by URL (an ir./investors. host of the same
 * site, an /investors or /investor-relations path). Best cue wins, then page order. A link found
 * only by its ir. host lands on that host's root (the link itself is usually a sub-page). When no
 * link qualifies but the page itself is at such a URL, the page is the landing. Documents
 * (PDF, slides, ...) never qualify: "Investor Presentation" links are not the IR section.
 */
export function findIrLanding(page: PageModel): IrLanding | null {
  const self = new URL(page.url);
  self.hash = '';
  let best: (IrLanding & { score: number }) | null = null;
  for (const link of page.links) {
    if (!link.url) continue;
    const url = new URL(link.url);
    if (DOCUMENT_FILE.test(url.pathname) || url.toString() === self.toString()) continue;
    const scored = scoreOf(link, url, self);
    if (!scored || (best && best.score >= scored.score)) continue;
    const landing = scored.cue === 'host' && !pathCue(url) ? `${url.origin}/` : url.toString();
    best = { url: landing, cue: scored.cue, quote: link.text || link.imageAlt || link.href, score: scored.score };
  }
  if (best) return { url: best.url, cue: best.cue, quote: best.quote };
  if (IR_HOST.test(self.host) || pathCue(self)) return { url: self.toString(), cue: 'self', quote: page.title || self.toString() };
  return null;
}

/** findIrLanding over page bytes. */
export function findIrLandingIn(html: string | Buffer, pageUrl: string): IrLanding | null {
  return findIrLanding(pageModel(html, pageUrl));
}
