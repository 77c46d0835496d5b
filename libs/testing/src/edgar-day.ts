import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cloneAccession, evenTimes, peakDurationMs, peakPicks, peakTimes, type DaySchedule } from './day-schedule';
import { eastern } from './eastern-time';
import { filingIndexPage } from './filing-index-page';
import { feedQueryOf, latestFilingsFeed, notModified } from './latest-filings-feed';
import { noDashes } from './markup';

/**
 * A simulated EDGAR day: the fixture filings are accepted one after another over a compressed day
 * (evenly, or as a peak hour: day-schedule.ts), each with entries in the latest-filings Atom feed
 * (`/cgi-bin/browse-edgar?action=getcurrent`), a row in the current-events listing
 * (`/cgi-bin/current`), a row in the day's form index
 * (`/Archives/edgar/daily-index/<yyyy>/QTR<q>/form.<yyyymmdd>.idx`), its directory listing
 * (`index.json`), its index page (`<accession>-index.htm`) and its documents. Each source shows a
 * filing from its own time (`visibleAt`: EDGAR's feeds trail acceptance by different delays); before
 * it a filing's paths answer 404, as on EDGAR. The pages are the real files' layouts
 * (feeds/getcurrent-atom-2026-01-12-count100-start0.xml, feeds/current-1eb469.html,
 * feeds/form.20200318.idx, feeds/0001213900-24-004875-index.json,
 * feeds/0001562180-17-002633-index.htm) with the rows of the day; filings keep their real CIK,
 * accession and form, and take the simulated day's date.
 */

/** Form type of a filing by the fixture folder of its documents. */
const FORM_OF_FOLDER: Readonly<Record<string, string>> = {
  '8k': '8-K',
  tenk: '10-K',
  xbrl: '10-Q',
  form4: '4',
  nport: 'NPORT-P',
  '13f': '13F-HR',
};

export interface DayDocument {
  /** File name inside the filing's directory. */
  name: string;
  /** Fixture file (relative to the fixtures directory). */
  file: string;
}

export interface DayFiling {
  /** Unpadded, as in Archives paths. */
  cik: string;
  accession: string;
  form: string;
  companyName: string;
  /** What the directory listing names (every document served under the filing's directory). */
  documents: DayDocument[];
  /** Fixture filings have documents; background rows of the real daily index are listed only. */
  background: boolean;
  /**
   * The fixture filing this one copies under a synthetic accession (day-schedule.ts cloneAccession),
   * when a peak day needs more filings than the fixtures hold; null for a fixture filing itself.
   */
  cloneOf: string | null;
  /** A Form 4's (first) reporting owner, as its XML names it: the feed lists the filing under it too. */
  reportingOwner: { cik: string; name: string } | null;
  /** Epoch ms EDGAR accepted it. */
  acceptedAt: number;
  /** Epoch ms each source shows it from. */
  visibleAt: DayVisibility;
}

/** When each of EDGAR's sources shows a filing (epoch ms). */
export interface DayVisibility {
  /** Its directory: index.json, -index.htm, documents. */
  index: number;
  /** Its complete submission (`<accession>.txt`), assembled by EDGAR after the documents (about 40 s after acceptance). */
  completeSubmission: number;
  /** The latest-filings Atom feed. */
  feed: number;
  /** The current-events listing. */
  listing: number;
  /** The day's form index. */
  dailyIndex: number;
}

/** A filing of the fixtures before the day gives it its times. */
export type FixtureFiling = Omit<DayFiling, 'acceptedAt' | 'visibleAt'>;

/**
 * How long after acceptance each source shows a filing (default: all 0, the daily index at once).
 * `dailyIndex: 'night'` publishes the day's form index only once the day is over, as EDGAR does.
 */
export interface DayDelays {
  indexMs?: number;
  /** After acceptance, never before the directory (default: with the directory). */
  completeSubmissionMs?: number;
  feedMs?: number;
  listingMs?: number;
  dailyIndex?: 'immediate' | 'night';
}

export interface EdgarDayOptions {
  /** YYYY-MM-DD of the simulated day (default: today, UTC). */
  date?: string;
  /** The day's filings appear over this many ms from `startAt` (default 60 s); a peak schedule sets its own length. */
  durationMs?: number;
  /** Epoch ms the day starts at (default: now). */
  startAt?: number;
  /**
   * Rows of the real daily index feeds/form.20200318.idx listed as more filings of the day (their
   * documents are not served): the volume of a real day in the listings. Default 0.
   */
  background?: number;
  delays?: DayDelays;
  /** Default `{ kind: 'even' }`. */
  schedule?: DaySchedule;
}

export type DayAnswer =
  | { status: 404 }
  | { status: 304; headers: Record<string, string> }
  | { status: 200; body: Buffer; contentType: string; headers?: Record<string, string> }
  | { status: 200; file: string };

/** The request's validators, for the feed's conditional GETs. */
export interface DayConditional {
  ifNoneMatch?: string;
  ifModifiedSince?: string;
}

export interface EdgarDay {
  date: string;
  startAt: number;
  endAt: number;
  filings: readonly DayFiling[];
  /** Filings `source` shows at `now`. */
  visibleOn(source: keyof DayVisibility, now: number): DayFiling[];
  /** The answer for a request, or null when the path is not the day's (the fixed routes answer it). */
  answer(pathname: string, query: URLSearchParams, now: number, conditional?: DayConditional): DayAnswer | null;
}

/** What `--day-manifest` writes: the day and every filing with its times, for coverage reports and benches. */
export interface DayManifest {
  fixturesDir: string;
  url: string;
  date: string;
  startAt: number;
  endAt: number;
  delays: DayDelays;
  schedule: DaySchedule;
  filings: readonly DayFiling[];
}

export function dayManifest(day: EdgarDay, options: EdgarDayOptions, fixturesDir: string, url: string): DayManifest {
  return { fixturesDir, url, date: day.date, startAt: day.startAt, endAt: day.endAt, delays: options.delays ?? {}, schedule: options.schedule ?? { kind: 'even' }, filings: day.filings };
}

/** The first time a poller could see a filing: on the feed or the current-events listing (detection lag counts from it). */
export const firstPolledVisibility = (filing: Pick<DayFiling, 'visibleAt'>): number => Math.min(filing.visibleAt.feed, filing.visibleAt.listing);


/** The fixture filings: every routed document under /Archives/edgar/data/ of a folder with a form type, grouped by accession. */
export function fixtureDayFilings(fixturesDir: string, routes: readonly { path: string; file: string }[]): FixtureFiling[] {
  const byAccession = new Map<string, FixtureFiling>();
  const names = companyNames(fixturesDir);
  for (const route of routes) {
    const form = FORM_OF_FOLDER[route.file.split('/')[0]!];
    if (!form) continue;
    const inDir = /^\/Archives\/edgar\/data\/(\d+)\/(\d{10})(\d{2})(\d{6})\/([^/]+)$/.exec(route.path);
    // A complete submission at /Archives/edgar/data/<cik>/<accession>.txt: EDGAR serves it inside the directory too.
    const txt = /^\/Archives\/edgar\/data\/(\d+)\/((\d{10})-(\d{2})-(\d{6}))\.txt$/.exec(route.path);
    const cik = inDir?.[1] ?? txt?.[1];
    const accession = inDir ? `${inDir[2]}-${inDir[3]}-${inDir[4]}` : txt?.[2];
    if (!cik || !accession) continue;
    const name = inDir ? inDir[5]! : `${accession}.txt`;
    let filing = byAccession.get(accession);
    if (!filing) {
      const companyName = names.get(cik) ?? registrantName(join(fixturesDir, route.file)) ?? `CIK ${cik}`;
      filing = { cik, accession, form, companyName, documents: [], background: false, cloneOf: null, reportingOwner: null };
      byAccession.set(accession, filing);
    }
    filing.documents.push({ name, file: route.file });
  }
  const filings = [...byAccession.values()];
  for (const f of filings) if (f.form === '4' || f.form === '4/A') f.reportingOwner = reportingOwner(readFileSync(join(fixturesDir, f.documents[0]!.file), 'utf8'));
  return filings;
}

/** The first reporting owner an ownership document names (its XML, bare or inside a complete submission). */
export function reportingOwner(text: string): { cik: string; name: string } | null {
  const cik = /<rptOwnerCik>\s*(\d+)\s*<\/rptOwnerCik>/.exec(text)?.[1];
  const name = /<rptOwnerName>\s*([^<]+?)\s*<\/rptOwnerName>/.exec(text)?.[1];
  return cik && name ? { cik: String(Number(cik)), name } : null;
}

/** The period of report a filing's primary document states (Form 4 XML, or a complete submission's header). */
function periodOfReport(text: string): string | null {
  const xml = /<periodOfReport>\s*(\d{4}-\d{2}-\d{2})/.exec(text);
  if (xml) return xml[1]!;
  const header = /CONFORMED PERIOD OF REPORT:\s*(\d{4})(\d{2})(\d{2})/.exec(text);
  return header ? `${header[1]}-${header[2]}-${header[3]}` : null;
}

/** Company names by unpadded CIK, from SEC's ticker map (the first title of each CIK). */
function companyNames(fixturesDir: string): Map<string, string> {
  const map = JSON.parse(readFileSync(join(fixturesDir, 'tickers/company_tickers.json'), 'utf8')) as Record<string, { cik_str: number; title: string }>;
  const names = new Map<string, string>();
  for (const e of Object.values(map)) if (!names.has(String(e.cik_str))) names.set(String(e.cik_str), e.title);
  return names;
}

/**
 * The filer's name in its document, for filers without a ticker: a fund's N-PORT regName, a
 * complete submission's COMPANY CONFORMED NAME, a dissemination file's <CONFORMED-NAME>.
 */
function registrantName(file: string): string | null {
  const text = readFileSync(file, 'utf8');
  const m = /<regName>([^<]+)<\/regName>/.exec(text) ?? /COMPANY CONFORMED NAME:[ \t]*([^\r\n]+)/.exec(text) ?? /<CONFORMED-NAME>([^\r\n<]+)/.exec(text);
  return m ? m[1]!.trim() : null;
}

/** Rows of the real form index listed as background filings: every `step`-th row, `count` of them. */
function backgroundFilings(fixturesDir: string, count: number, skip: ReadonlySet<string>): FixtureFiling[] {
  if (count <= 0) return [];
  const rows = readFileSync(join(fixturesDir, 'feeds/form.20200318.idx'), 'latin1')
    .split('\n')
    .map((line) => /^(.{12})(.{62})(\d+)\s+\d{8}\s+edgar\/data\/\d+\/(\d{10}-\d{2}-\d{6})\.txt/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null && !skip.has(m[4]!));
  // A Form 4 is listed under its issuer and each reporting owner: one filing, once.
  const taken = new Set<string>();
  const unique = rows.filter((m) => !taken.has(m[4]!) && taken.add(m[4]!));
  const step = Math.max(1, Math.floor(unique.length / count));
  return unique
    .filter((_, i) => i % step === 0)
    .slice(0, count)
    .map((m) => ({ cik: m[3]!, accession: m[4]!, form: m[1]!.trim(), companyName: m[2]!.trim(), documents: [], background: true, cloneOf: null, reportingOwner: null }));
}

/**
 * The peak day's filings: each time takes the next pick; a fixture filing picked again is a clone
 * under a synthetic accession (same CIK and documents; a complete submission named after it).
 */
function peakFilings(fixtures: readonly FixtureFiling[], times: readonly number[], year: string): Array<FixtureFiling & { acceptedAt: number }> {
  const used = new Set<string>();
  let clones = 0;
  return peakPicks(fixtures, times.length).map((f, i) => {
    const acceptedAt = times[i]!;
    if (!used.has(f.accession)) {
      used.add(f.accession);
      return { ...f, acceptedAt };
    }
    const accession = cloneAccession(year, (clones += 1));
    const documents = f.documents.map((d) => (d.name === `${f.accession}.txt` ? { ...d, name: `${accession}.txt` } : d));
    return { ...f, accession, documents, cloneOf: f.accession, acceptedAt };
  });
}

/** When each source shows a filing accepted at `acceptedAt`. */
export function visibility(acceptedAt: number, delays: DayDelays, endAt: number): DayVisibility {
  return {
    index: acceptedAt + (delays.indexMs ?? 0),
    completeSubmission: acceptedAt + Math.max(delays.indexMs ?? 0, delays.completeSubmissionMs ?? 0),
    feed: acceptedAt + (delays.feedMs ?? 0),
    listing: acceptedAt + (delays.listingMs ?? 0),
    // At night: once the day is over and its last filing has shown everywhere else.
    dailyIndex: delays.dailyIndex === 'night' ? Math.max(endAt, acceptedAt) + Math.max(delays.indexMs ?? 0, delays.feedMs ?? 0, delays.listingMs ?? 0) : acceptedAt,
  };
}

/** `routes`: the fixture server's fixed routes (FIXTURE_ROUTES); the day's filings are the routed documents of filings. */
export function createEdgarDay(fixturesDir: string, routes: readonly { path: string; file: string }[], options: EdgarDayOptions = {}): EdgarDay {
  const dir = resolve(fixturesDir);
  const date = options.date ?? new Date().toISOString().slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error(`day date must be YYYY-MM-DD: ${date}`);
  const startAt = options.startAt ?? Date.now();
  const schedule = options.schedule ?? { kind: 'even' };
  const durationMs = schedule.kind === 'peak' ? peakDurationMs(schedule) : (options.durationMs ?? 60_000);
  const endAt = startAt + durationMs;
  const fixtures = fixtureDayFilings(dir, routes);
  const background = backgroundFilings(dir, options.background ?? 0, new Set(fixtures.map((f) => f.accession)));
  // Fixture and background filings each spread over the whole day (independently).
  const accepted = [
    ...(schedule.kind === 'peak' ? peakFilings(fixtures, peakTimes(schedule, startAt), date.slice(0, 4)) : withTimes(fixtures, evenTimes(fixtures.length, startAt, durationMs))),
    ...withTimes(background, evenTimes(background.length, startAt, durationMs)),
  ];
  const delays = options.delays ?? {};
  const filings: DayFiling[] = accepted.map((f) => ({ ...f, visibleAt: visibility(f.acceptedAt, delays, endAt) })).sort((a, b) => a.acceptedAt - b.acceptedAt);
  const byAccession = new Map(filings.map((f) => [noDashes(f.accession), f]));
  const sizeOf = memo((file: string) => statSync(join(dir, file)).size);
  const sizeBytes = (f: DayFiling) => f.documents.reduce((sum, d) => sum + sizeOf(d.file), 0);
  const currentTemplate = readFileSync(join(dir, 'feeds/current-1eb469.html'), 'utf8');
  const indexTemplate = readFileSync(join(dir, 'feeds/form.20200318.idx'), 'latin1');
  const feedTemplate = readFileSync(join(dir, 'feeds/getcurrent-atom-2026-01-12-count100-start0.xml'), 'latin1');
  const indexPageTemplate = readFileSync(join(dir, 'feeds/0001562180-17-002633-index.htm'), 'utf8');
  const indexPath = dailyIndexPathOf(date);
  const visibleOn = (source: keyof DayVisibility, now: number) => filings.filter((f) => f.visibleAt[source] <= now);

  return {
    date,
    startAt,
    endAt,
    filings,
    visibleOn,
    answer(pathname, query, now, conditional = {}) {
      if (pathname === '/cgi-bin/browse-edgar' && query.get('action') === 'getcurrent') {
        const visible = visibleOn('feed', now).map((filing) => ({ filing, sizeBytes: sizeBytes(filing) }));
        const feed = latestFilingsFeed(feedTemplate, visible, feedQueryOf(query), date, now);
        const headers: Record<string, string> = { etag: feed.etag, ...(feed.lastModified === null ? {} : { 'last-modified': new Date(feed.lastModified).toUTCString() }) };
        if (notModified(feed, conditional.ifNoneMatch, conditional.ifModifiedSince)) return { status: 304, headers };
        return { status: 200, body: feed.body, contentType: 'application/atom+xml', headers };
      }
      if (pathname === '/cgi-bin/current') {
        // q1: days back (0 = today); q3: the form type asked.
        const rows = (query.get('q1') ?? '0') === '0' ? visibleOn('listing', now) : [];
        const form = query.get('q3');
        const html = currentEventsPage(currentTemplate, date, rows.filter((f) => !form || f.form === form || f.form === `${form}/A`), rows.length, now);
        return { status: 200, body: Buffer.from(html, 'utf8'), contentType: 'text/html' };
      }
      if (pathname === indexPath) {
        const rows = visibleOn('dailyIndex', now);
        // EDGAR publishes nothing for a day before its first filing.
        if (rows.length === 0) return { status: 404 };
        return { status: 200, body: Buffer.from(formIndex(indexTemplate, date, rows), 'latin1'), contentType: 'text/plain' };
      }
      const inDir = /^\/Archives\/edgar\/data\/(\d+)\/(\d{18})\/([^/]+)$/.exec(pathname);
      const txt = /^\/Archives\/edgar\/data\/(\d+)\/(\d{10}-\d{2}-\d{6})\.txt$/.exec(pathname);
      const filing = inDir ? byAccession.get(inDir[2]!) : txt ? byAccession.get(noDashes(txt[2]!)) : undefined;
      // EDGAR serves a filing's directory under each of its parties' CIKs.
      const cik = inDir?.[1] ?? txt?.[1];
      if (!filing || (filing.cik !== cik && filing.reportingOwner?.cik !== cik)) return null;
      if (filing.visibleAt.index > now) return { status: 404 };
      const name = inDir ? inDir[3]! : `${txt![2]}.txt`;
      if (name === 'index.json') return { status: 200, body: Buffer.from(directoryListing(dir, filing), 'utf8'), contentType: 'application/json' };
      if (name === `${filing.accession}-index.htm` || name === `${filing.accession}-index.html`) {
        const documents = filing.documents.map((d) => ({ name: d.name, sizeBytes: sizeOf(d.file) }));
        const primary = filing.documents[0];
        const period = primary ? periodOfReport(readFileSync(join(dir, primary.file), 'latin1')) : null;
        return { status: 200, body: Buffer.from(filingIndexPage(indexPageTemplate, filing, date, documents, period), 'utf8'), contentType: 'text/html; charset=utf-8' };
      }
      // The complete submission .txt is served both in the directory and beside it, as on EDGAR.
      if (name === `${filing.accession}.txt` && filing.visibleAt.completeSubmission > now) return { status: 404 };
      const doc = filing.documents.find((d) => d.name === name);
      if (!doc) return { status: 404 };
      // A clone's complete submission states the clone's accession in its header, as a real one states its own.
      if (filing.cloneOf !== null && name === `${filing.accession}.txt`) {
        return { status: 200, body: cloneSubmission(readFileSync(join(dir, doc.file), 'latin1'), filing.cloneOf, filing.accession), contentType: 'text/plain' };
      }
      return { status: 200, file: doc.file };
    },
  };
}

/** The complete submission `text` of `original`, every mention of its accession (dashed or not) naming `clone` instead. Pure. */
export function cloneSubmission(text: string, original: string, clone: string): Buffer {
  return Buffer.from(text.split(original).join(clone).split(noDashes(original)).join(noDashes(clone)), 'latin1');
}

const withTimes = <T>(items: readonly T[], times: readonly number[]): Array<T & { acceptedAt: number }> => items.map((item, i) => ({ ...item, acceptedAt: times[i]! }));

function memo<V>(compute: (key: string) => V): (key: string) => V {
  const cache = new Map<string, V>();
  return (key) => {
    if (!cache.has(key)) cache.set(key, compute(key));
    return cache.get(key)!;
  };
}

function dailyIndexPathOf(date: string): string {
  const [y, m, d] = date.split('-');
  return `/Archives/edgar/daily-index/${y}/QTR${Math.floor((Number(m) - 1) / 3) + 1}/form.${y}${m}${d}.idx`;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * The current-events page in the layout of the real one: its head and foot as they stand, the
 * day's counts, and one `<pre>` line per filing (date, form linked to its index page, CIK linked
 * to the company, name), sorted by company name as EDGAR sorts them.
 */
export function currentEventsPage(template: string, date: string, rows: readonly DayFiling[], formsOfDay: number, now: number): string {
  const [y, m, d] = date.split('-');
  const headEnd = template.indexOf('</strong><hr>') + '</strong><hr>'.length;
  const footStart = template.indexOf('\n<hr></pre>');
  const head = template
    .slice(0, headEnd)
    .replace(/(total number of matches for )\d{4}-\d{2}-\d{2}( is <strong>)\d+/, `$1${date}$2${rows.length}`)
    .replace(/(total number of forms for )\d{4}-\d{2}-\d{2}( is <strong>)\d+/, `$1${date}$2${formsOfDay}`);
  const e = eastern(now);
  const day = new Date(now);
  const foot = template
    .slice(footStart)
    .replace(/Generated {2}at [^<]+/, `Generated  at ${e.time} ${e.zone} on ${MONTHS[day.getUTCMonth()]} ${day.getUTCDate()}, ${day.getUTCFullYear()}`);
  const lines = [...rows]
    .sort((a, b) => a.companyName.localeCompare(b.companyName))
    .map((f) => {
      // The form column and the CIK end together 21 characters after the form starts.
      const gap = ' '.repeat(Math.max(1, 21 - f.form.length - f.cik.length));
      return `${m}-${d}-${y}   <a href="/Archives/edgar/data/${f.cik}/${f.accession}-index.html">${f.form}</a>${gap}<a href="browse-edgar?action=getcompany&CIK=${f.cik}">${f.cik}</a>   ${f.companyName}`;
    });
  return head + lines.join('\n') + foot;
}

/**
 * The day's form index in the real file's fixed-width layout: its header lines as they stand (with
 * the day's date), then one row per filing sorted by form type and company name. A Form 4 is listed
 * once, under its issuer (EDGAR lists it under each reporting owner too).
 */
export function formIndex(template: string, date: string, rows: readonly DayFiling[]): string {
  const lines = template.split('\n');
  const dashes = lines.findIndex((l) => /^-{20,}/.test(l));
  const [y, m, d] = date.split('-');
  const received = `${MONTHS[Number(m) - 1]!.slice(0, 3)} ${Number(d)}, ${y}`;
  const header = lines.slice(0, dashes + 1).map((l) => l.replace(/^(Last Data Received: +).*$/, `$1${received}`));
  const body = [...rows]
    .sort((a, b) => a.form.localeCompare(b.form) || a.companyName.localeCompare(b.companyName))
    .map((f) => {
      const file = `edgar/data/${f.cik}/${f.accession}.txt`;
      return `${f.form.padEnd(11)} ${f.companyName.slice(0, 61).padEnd(61)} ${f.cik.padEnd(11)} ${y}${m}${d}    ${file.padEnd(52)}`;
    });
  return [...header, ...body, ''].join('\n');
}

/** The filing's directory listing in index.json's layout, naming the documents served under it. */
export function directoryListing(fixturesDir: string, filing: DayFiling): string {
  const directory = `/Archives/edgar/data/${filing.cik}/${noDashes(filing.accession)}`;
  const modified = eastern(filing.acceptedAt).stamp;
  return JSON.stringify(
    {
      directory: {
        item: filing.documents.map((doc) => ({ 'last-modified': modified, name: doc.name, type: 'text.gif', size: String(statSync(join(fixturesDir, doc.file)).size) })),
        name: directory,
        'parent-dir': `/Archives/edgar/data/${filing.cik}`,
      },
    },
    null,
    2,
  );
}
