import type { PageModel } from './page-text';

/** Pages of an IR site worth reading after the landing page. */
export const SITE_PAGE_KINDS = ['contact', 'management', 'presentations', 'press', 'reports'] as const;
export type SitePageKind = (typeof SITE_PAGE_KINDS)[number];
export type SiteLinks = Record<SitePageKind, string[]>;

/**
 * Cues on a nav link's text or on the last segment of its URL path. Old CMS sites name pages
 * by slug only ("frppresent", "frphpress", "frphanulrpt"), so the path cues match inside words.
 * The first kind that matches wins.
 */
const PAGE_CUES: ReadonlyArray<{ kind: SitePageKind; text: RegExp; path: RegExp }> = [
  { kind: 'contact', text: /\bcontact/i, path: /contact/i },
  { kind: 'management', text: /\b(?:management|executive team|executives|leadership|officers)\b/i, path: /management|executive|leadership|officers/i },
  { kind: 'presentations', text: /\b(?:presentations?|events? (?:&|and) presentations|slides)\b/i, path: /present|slides|decks?\b/i },
  { kind: 'press', text: /\b(?:press|news|releases)\b/i, path: /press|news|releases/i },
  { kind: 'reports', text: /\b(?:annual reports?|quarterly reports?|financial reports|proxy)\b/i, path: /annual|anulrpt|10-?k|10-?q|quarterly|proxy/i },
];
const DOCUMENT_FILE = /\.(?:pdf|pptx?|docx?|xlsx?|mp3|m3u8?|mp4|wav|zip|jpe?g|png|gif)$/i;

function hostOf(url: string): string {
  return new URL(url).host.toLowerCase().replace(/^www\./, '');
}

/**
 * Links to the site's contact, management, presentations, press and report pages: absolute URLs
 * on the page's own host (www. ignored), documents and the page itself excluded, page order.
 */
export function extractSiteLinks(page: PageModel): SiteLinks {
  const links: SiteLinks = { contact: [], management: [], presentations: [], press: [], reports: [] };
  const self = new URL(page.url);
  self.hash = '';
  for (const link of page.links) {
    if (!link.url || hostOf(link.url) !== hostOf(page.url) || link.url === self.toString()) continue;
    const path = new URL(link.url).pathname;
    if (DOCUMENT_FILE.test(path)) continue;
    const slug = path.split('/').filter(Boolean).pop() ?? '';
    const cue = PAGE_CUES.find((c) => (link.text && c.text.test(link.text)) || c.path.test(slug));
    if (cue && !links[cue.kind].includes(link.url)) links[cue.kind].push(link.url);
  }
  return links;
}
