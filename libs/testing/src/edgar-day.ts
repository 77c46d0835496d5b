import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * A simulated EDGAR day: the fixture filings appear one after another over a compressed day, each
 * with a row in the current-events listing (`/cgi-bin/current`), a row in the day's form index
 * (`/Archives/edgar/daily-index/<yyyy>/QTR<q>/form.<yyyymmdd>.idx`), its directory listing
 * (`index.json`) and its documents. Before its time a filing's paths answer 404, as on EDGAR. The
 * pages are the real files' layouts (feeds/current-1eb469.html, feeds/form.20200318.idx,
 * feeds/0001213900-24-004875-index.json) with the rows of the day; filings keep their real CIK,
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
  /** Epoch ms it appears at. */
  at: number;
}

export interface EdgarDayOptions {
  /** YYYY-MM-DD of the simulated day (default: today, UTC). */
  date?: string;
  /** The day's filings appear over this many ms from `startAt` (default 60 s). */
  durationMs?: number;
  /** Epoch ms the day starts at (default: now). */
  startAt?: number;
  /**
   * Rows of the real daily index feeds/form.20200318.idx listed as more filings of the day (their
   * documents are not served): the volume of a real day in the listings. Default 0.
   */
  background?: number;
}

export type DayAnswer = { status: 404 } | { status: 200; body: Buffer; contentType: string } | { status: 200; file: string };

export interface EdgarDay {
  date: string;
  startAt: number;
  endAt: number;
  filings: readonly DayFiling[];
  /** Filings that appeared by `now`. */
  appeared(now: number): DayFiling[];
  /** The answer for a request, or null when the path is not the day's (the fixed routes answer it). */
  answer(pathname: string, query: URLSearchParams, now: number): DayAnswer | null;
}

const noDashes = (accession: string) => accession.replace(/-/g, '');

/** The fixture filings: every routed document under /Archives/edgar/data/ of a folder with a form type, grouped by accession. */
export function fixtureDayFilings(fixturesDir: string, routes: readonly { path: string; file: string }[]): Omit<DayFiling, 'at'>[] {
  const byAccession = new Map<string, Omit<DayFiling, 'at'>>();
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
      filing = { cik, accession, form, companyName, documents: [], background: false };
      byAccession.set(accession, filing);
    }
    filing.documents.push({ name, file: route.file });
  }
  return [...byAccession.values()];
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
function backgroundFilings(fixturesDir: string, count: number, skip: ReadonlySet<string>): Omit<DayFiling, 'at'>[] {
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
    .map((m) => ({ cik: m[3]!, accession: m[4]!, form: m[1]!.trim(), companyName: m[2]!.trim(), documents: [], background: true }));
}

/** Spreads items evenly over [startAt, startAt + durationMs]: the first at startAt + durationMs / n, the last at the end. */
function schedule<T>(items: readonly T[], startAt: number, durationMs: number): Array<T & { at: number }> {
  return items.map((item, i) => ({ ...item, at: startAt + Math.round((durationMs * (i + 1)) / items.length) }));
}

/** `routes`: the fixture server's fixed routes (FIXTURE_ROUTES); the day's filings are the routed documents of filings. */
export function createEdgarDay(fixturesDir: string, routes: readonly { path: string; file: string }[], options: EdgarDayOptions = {}): EdgarDay {
  const dir = resolve(fixturesDir);
  const date = options.date ?? new Date().toISOString().slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error(`day date must be YYYY-MM-DD: ${date}`);
  const startAt = options.startAt ?? Date.now();
  const durationMs = options.durationMs ?? 60_000;
  const fixtures = fixtureDayFilings(dir, routes);
  const background = backgroundFilings(dir, options.background ?? 0, new Set(fixtures.map((f) => f.accession)));
  // Fixture and background filings each spread over the whole day (independently).
  const filings = [...schedule(fixtures, startAt, durationMs), ...schedule(background, startAt, durationMs)].sort((a, b) => a.at - b.at);
  const byAccession = new Map(filings.map((f) => [noDashes(f.accession), f]));
  const currentTemplate = readFileSync(join(dir, 'feeds/current-1eb469.html'), 'utf8');
  const indexTemplate = readFileSync(join(dir, 'feeds/form.20200318.idx'), 'latin1');
  const indexPath = dailyIndexPathOf(date);
  const appeared = (now: number) => filings.filter((f) => f.at <= now);

  return {
    date,
    startAt,
    endAt: startAt + durationMs,
    filings,
    appeared,
    answer(pathname, query, now) {
      if (pathname === '/cgi-bin/current') {
        // q1: days back (0 = today); q3: the form type asked.
        const rows = (query.get('q1') ?? '0') === '0' ? appeared(now) : [];
        const form = query.get('q3');
        const html = currentEventsPage(currentTemplate, date, rows.filter((f) => !form || f.form === form || f.form === `${form}/A`), rows.length, now);
        return { status: 200, body: Buffer.from(html, 'utf8'), contentType: 'text/html' };
      }
      if (pathname === indexPath) {
        const rows = appeared(now);
        // EDGAR publishes nothing for a day before its first filing.
        if (rows.length === 0) return { status: 404 };
        return { status: 200, body: Buffer.from(formIndex(indexTemplate, date, rows), 'latin1'), contentType: 'text/plain' };
      }
      const inDir = /^\/Archives\/edgar\/data\/(\d+)\/(\d{18})\/([^/]+)$/.exec(pathname);
      const txt = /^\/Archives\/edgar\/data\/(\d+)\/(\d{10}-\d{2}-\d{6})\.txt$/.exec(pathname);
      const filing = inDir ? byAccession.get(inDir[2]!) : txt ? byAccession.get(noDashes(txt[2]!)) : undefined;
      if (!filing || filing.cik !== (inDir?.[1] ?? txt?.[1])) return null;
      if (filing.at > now) return { status: 404 };
      if (inDir?.[3] === 'index.json') return { status: 200, body: Buffer.from(directoryListing(dir, filing), 'utf8'), contentType: 'application/json' };
      const doc = inDir ? filing.documents.find((d) => d.name === inDir[3]) : undefined;
      // Documents outside the directory (the complete submission .txt) are the fixed routes' to serve.
      return doc ? { status: 200, file: doc.file } : txt ? null : { status: 404 };
    },
  };
}

function dailyIndexPathOf(date: string): string {
  const [y, m, d] = date.split('-');
  return `/Archives/edgar/daily-index/${y}/QTR${Math.floor((Number(m) - 1) / 3) + 1}/form.${y}${m}${d}.idx`;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** New York wall time of an instant: `2024-01-19 16:21:45` and its zone abbreviation. */
function eastern(at: number): { stamp: string; time: string; zone: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', timeZoneName: 'short' })
      .formatToParts(new Date(at))
      .map((p) => [p.type, p.value]),
  );
  const time = `${parts.hour}:${parts.minute}:${parts.second}`;
  return { stamp: `${parts.year}-${parts.month}-${parts.day} ${time}`, time, zone: parts.timeZoneName ?? 'ET' };
}

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
  const modified = eastern(filing.at).stamp;
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
