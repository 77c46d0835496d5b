import { createHash } from 'node:crypto';
import type { DayFiling } from './edgar-day';
import { eastern } from './eastern-time';
import { escapeMarkup, noDashes } from './markup';

/**
 * EDGAR's latest-filings Atom feed (`/cgi-bin/browse-edgar?action=getcurrent&output=atom`) for the
 * filings of a simulated day, in the layout of the real feed (feeds/getcurrent-atom-2026-01-12-count100-start0.xml):
 * its head with the feed's time, then one `<entry>` per filer role of each filing, newest
 * acceptance first. A Form 4 is listed under its reporting owner and under its issuer, as EDGAR
 * lists it; any other filing once, under its filer.
 */

export interface FeedQuery {
  /** Entries per page: EDGAR's default 40, at most 100. */
  count: number;
  start: number;
  /** Form type prefix (`8-K` holds `8-K/A`); empty: every form. */
  type: string;
  /** `include` (default), `exclude` (no ownership forms 3/4/5), `only` (ownership forms only). */
  owner: 'include' | 'exclude' | 'only';
}

/** The feed's query as EDGAR reads it: out-of-range numbers fall back to the defaults or the maximum. */
export function feedQueryOf(query: URLSearchParams): FeedQuery {
  const whole = (name: string) => (/^\d+$/.test(query.get(name) ?? '') ? Number(query.get(name)) : null);
  const owner = query.get('owner');
  return {
    count: Math.min(100, whole('count') || 40),
    start: whole('start') ?? 0,
    type: (query.get('type') ?? '').trim(),
    owner: owner === 'exclude' || owner === 'only' ? owner : 'include',
  };
}

export interface FeedFiling {
  filing: DayFiling;
  /** Bytes of its documents: the entry's "Size". */
  sizeBytes: number;
}

export interface LatestFilingsFeed {
  body: Buffer;
  /** Hash of the entries: unchanged while the page's entries are. */
  etag: string;
  /** Newest feed visibility among the page's entries (epoch ms); null for an empty page. */
  lastModified: number | null;
}

const OWNERSHIP_FORMS = /^[345](\/A)?$/;

/** The template's head (up to its first entry) and one entry's markup. */
function splitTemplate(template: string): { head: string; entry: string } {
  const first = template.indexOf('<entry>');
  const end = template.indexOf('</entry>', first) + '</entry>\n'.length;
  if (first < 0 || end < first) throw new Error('latest-filings template: no <entry> found');
  return { head: template.slice(0, first), entry: template.slice(first, end) };
}

interface Entry {
  filing: DayFiling;
  sizeBytes: number;
  role: 'Reporting' | 'Issuer' | 'Filer';
  cik: string;
  name: string;
}

/** Each filing's entries in the real feed's order: a Form 4's reporting owner first, then its issuer. */
function entriesOf({ filing, sizeBytes }: FeedFiling): Entry[] {
  const principal = { filing, sizeBytes, cik: filing.cik, name: filing.companyName };
  if (!OWNERSHIP_FORMS.test(filing.form)) return [{ ...principal, role: 'Filer' }];
  const owner = filing.reportingOwner;
  return [...(owner ? [{ filing, sizeBytes, role: 'Reporting' as const, cik: owner.cik, name: owner.name }] : []), { ...principal, role: 'Issuer' }];
}

function entryXml(template: string, e: Entry, filedDate: string): string {
  const cik10 = e.cik.padStart(10, '0');
  const cikUnpadded = String(Number(e.cik));
  const kb = Math.round(e.sizeBytes / 1024);
  return template
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeMarkup(`${e.filing.form} - ${e.name} (${cik10}) (${e.role})`)}</title>`)
    .replace(/(<link [^>]*href=")[^"]*(")/, `$1https://www.sec.gov/Archives/edgar/data/${cikUnpadded}/${noDashes(e.filing.accession)}/${e.filing.accession}-index.htm$2`)
    .replace(/(<summary type="html">\n)[\s\S]*?(\n<\/summary>)/, `$1 &lt;b&gt;Filed:&lt;/b&gt; ${filedDate} &lt;b&gt;AccNo:&lt;/b&gt; ${e.filing.accession} &lt;b&gt;Size:&lt;/b&gt; ${kb} KB$2`)
    .replace(/<updated>[^<]*<\/updated>/, `<updated>${eastern(e.filing.acceptedAt).iso}</updated>`)
    .replace(/(<category [^>]*term=")[^"]*(")/, `$1${escapeMarkup(e.filing.form)}$2`)
    .replace(/(accession-number=)[\d-]+/, `$1${e.filing.accession}`);
}

/**
 * The page of the feed for `query` at `now`, from the filings visible on it (any order). The
 * ETag covers the entries only, so the feed's own time (title, `<updated>`) changing every second
 * does not make an unchanged page look new.
 */
export function latestFilingsFeed(template: string, visible: readonly FeedFiling[], query: FeedQuery, filedDate: string, now: number): LatestFilingsFeed {
  const { head, entry } = splitTemplate(template);
  const all = [...visible]
    .filter(({ filing }) => filing.form.startsWith(query.type))
    .filter(({ filing }) => (query.owner === 'include' ? true : OWNERSHIP_FORMS.test(filing.form) === (query.owner === 'only')))
    .sort((a, b) => b.filing.acceptedAt - a.filing.acceptedAt || a.filing.accession.localeCompare(b.filing.accession))
    .flatMap(entriesOf);
  const page = all.slice(query.start, query.start + query.count);
  const entries = page.map((e) => entryXml(entry, e, filedDate)).join('');
  const at = eastern(now);
  const feedHead = head.replace(/<title>Latest Filings - [^<]*<\/title>/, `<title>Latest Filings - ${at.title}</title>`).replace(/<updated>[^<]*<\/updated>/, `<updated>${at.iso}</updated>`);
  const lastModified = page.length === 0 ? null : Math.max(...page.map((e) => e.filing.visibleAt.feed));
  return {
    body: Buffer.from(`${feedHead}${entries}</feed>\n`, 'latin1'),
    etag: `"${createHash('sha1').update(entries).digest('hex')}"`,
    lastModified,
  };
}

/**
 * Whether a conditional GET is answered 304 (RFC 9110 13.2.2): If-None-Match decides when sent
 * (any listed tag, or `*`); otherwise If-Modified-Since, when it is not older than Last-Modified
 * (HTTP dates have whole seconds).
 */
export function notModified(feed: Pick<LatestFilingsFeed, 'etag' | 'lastModified'>, ifNoneMatch: string | undefined, ifModifiedSince: string | undefined): boolean {
  if (ifNoneMatch !== undefined) {
    const tags = ifNoneMatch.split(',').map((t) => t.trim().replace(/^W\//, ''));
    return tags.includes('*') || tags.includes(feed.etag);
  }
  if (ifModifiedSince === undefined || feed.lastModified === null) return false;
  const since = Date.parse(ifModifiedSince);
  return Number.isFinite(since) && Math.floor(feed.lastModified / 1000) * 1000 <= since;
}
