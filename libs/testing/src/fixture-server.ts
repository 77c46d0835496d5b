import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createEdgarDay, type EdgarDay, type EdgarDayOptions } from './edgar-day';

/** One fixed route: a real EDGAR/IR path and the fixture file (relative to fixturesDir) served there. */
export interface FixtureRoute {
  path: string;
  /** Relative to fixturesDir, or absolute (a file a test built, e.g. a submissions.zip). */
  file: string;
  contentType?: string;
  /** Answer each request this much later (a slow download, for tests that stop a reader half-way). */
  delayMs?: number;
}

/**
 * Fixed routes at the paths the real sites use. Later ingestors add rows here (filing indexes
 * under /Archives/edgar/data/..., cgi-bin pages, IR pages) instead of writing new servers.
 */
export const FIXTURE_ROUTES: readonly FixtureRoute[] = [
  { path: '/files/company_tickers_exchange.json', file: 'tickers/company_tickers_exchange.json' },
  { path: '/files/company_tickers.json', file: 'tickers/company_tickers.json' },
  // N-PORT primary_doc.xml. The fixtures' real accession numbers are not recorded in SOURCES.md and
  // could not be looked up offline, so they are served under fixture accessions in the real path
  // shape (/Archives/edgar/data/<cik>/<accession without dashes>/primary_doc.xml): ADX (CIK 2230,
  // period 2023-06-30) as 0000002230-23-990001, Goldman Sachs Trust (CIK 822977, S000013795,
  // 2023-03-31) as 0000822977-23-990001.
  { path: '/Archives/edgar/data/2230/000000223023990001/primary_doc.xml', file: 'nport/ADX-CIK0000002230-primary_doc.xml' },
  { path: '/Archives/edgar/data/822977/000082297723990001/primary_doc.xml', file: 'nport/GSTRUST-S000013795-NPORT_Sample_7.xml' },
  // Filings feeds. Routes match the path only, so /cgi-bin/current answers for any q1/q2/q3 query.
  { path: '/Archives/edgar/daily-index/2020/QTR1/form.20200318.idx', file: 'feeds/form.20200318.idx' },
  { path: '/cgi-bin/current', file: 'feeds/current-1eb469.html' },
  // The latest-filings Atom feed (browse-edgar?action=getcurrent&output=atom), as recorded on 2026-01-12.
  { path: '/cgi-bin/browse-edgar', file: 'feeds/getcurrent-atom-2026-01-12-count100-start0.xml' },
  { path: '/Archives/edgar/data/1648960/000121390024004875/index.json', file: 'feeds/0001213900-24-004875-index.json' },
  { path: '/Archives/edgar/data/51143/000156218017002633/0001562180-17-002633-index.htm', file: 'feeds/0001562180-17-002633-index.htm' },
  // Inline-XBRL 10-Q primary documents at their Archive paths (accessions 0000320193-25-000057,
  // 0001628280-25-035806, 0001045810-25-000209).
  { path: '/Archives/edgar/data/320193/000032019325000057/aapl-20250329.htm', file: 'xbrl/AAPL-aapl-20250329.htm' },
  { path: '/Archives/edgar/data/1318605/000162828025035806/tsla-20250630.htm', file: 'xbrl/TSLA-tsla-10-q-2025-07-24.html' },
  { path: '/Archives/edgar/data/1045810/000104581025000209/nvda-20250727.htm', file: 'xbrl/NVDA-nvda-10-q-2025-08-27.html' },
  // Tesla's 10-K for 2024 at its Archive path (accession 0001628280-25-003063, filed 2025-01-30).
  { path: '/Archives/edgar/data/1318605/000162828025003063/tsla-20241231.htm', file: 'tenk/TSLA-tsla-10-k-2025-01-30.html' },
  // Issuer IR pages at their sites' paths (FRPH: frpholdings.com, saved 2018; BRAI: braiin.com).
  // Both sites share this one host here, so FRPH's relative links resolve against it.
  { path: '/investor-relations.html', file: 'ir-pages/FRPH-investor-relations.html' },
  { path: '/contactus.html', file: 'ir-pages/FRPH-contactus.html' },
  { path: '/executive-team.html', file: 'ir-pages/FRPH-executive-team.html' },
  { path: '/frppresent.html', file: 'ir-pages/FRPH-frppresent.html' },
  { path: '/investors', file: 'ir-pages/BRAI-investors.html', contentType: 'text/html; charset=utf-8' },
  // Form 4 ownership documents at their Archive paths, under the issuer's CIK. Accessions are the
  // real ones (file names, SGML headers); the bare XML files are served under the primary document's
  // name without its xslF345X0n/ rendering folder, the complete submissions (DKNG, BETR) at
  // /Archives/edgar/data/<cik>/<accession>.txt. SNOW and SCWO carry no accession anywhere, so they
  // are served under fixture accessions in the real path shape: SNOW (CIK 1640147, period
  // 2022-12-13) as 0001640147-22-990001, SCWO (CIK 933972, period 2025-04-30) as 0000933972-25-990001.
  { path: '/Archives/edgar/data/789019/000106299324016587/form4.xml', file: 'form4/MSFT-0001062993-24-016587-form4.xml' },
  { path: '/Archives/edgar/data/1572616/000095017024012830/ownership.xml', file: 'form4/GUTS-0000950170-24-012830-ownership.xml' },
  { path: '/Archives/edgar/data/1321655/000132165524000181/wk-form4_1727395357.xml', file: 'form4/PLTR-0001321655-24-000181-wk-form4_1727395357.xml' },
  { path: '/Archives/edgar/data/1512673/000106299323020702/form4.xml', file: 'form4/SQ-0001062993-23-020702-form4.xml' },
  { path: '/Archives/edgar/data/1318605/000089924321044060/doc4.xml', file: 'form4/TSLA-0000899243-21-044060-doc4.xml' },
  { path: '/Archives/edgar/data/1883685/0001104659-25-025206.txt', file: 'form4/DKNG-0001104659-25-025206.txt' },
  { path: '/Archives/edgar/data/1835856/0001493152-25-009612.txt', file: 'form4/BETR-0001493152-25-009612.txt' },
  { path: '/Archives/edgar/data/1640147/000164014722990001/form4.snow.xml', file: 'form4/SNOW-form4.snow.xml' },
  { path: '/Archives/edgar/data/933972/000093397225990001/374WaterForm4.xml', file: 'form4/SCWO-374WaterForm4.xml' },
  // FRPH PDFs (frpholdings.github.io, commit 3c0d459b): the annual-meeting deck both where the 2018
  // presentations page links it (assets/) and where the repository keeps it (assets/presentations/);
  // the January 2015 deck and the 2019 annual report, linked from no saved page, at their repository paths.
  { path: '/assets/Annual_Meeting_-_2015_FINAL2.pdf', file: 'decks/FRPH-Annual_Meeting_-_2015_FINAL2.pdf' },
  { path: '/assets/presentations/Annual_Meeting_-_2015_FINAL2.pdf', file: 'decks/FRPH-Annual_Meeting_-_2015_FINAL2.pdf' },
  { path: '/assets/presentations/1_CURRENT_12_JAN_2015_FRP_Holdings_Inc_Presentation_Pre-Spin-Off.pdf', file: 'decks/FRPH-1_CURRENT_12_JAN_2015_FRP_Holdings_Inc_Presentation_Pre-Spin-Off.pdf' },
  { path: '/assets/FRP_2019_Annual_Report.pdf', file: 'decks/FRPH-FRP_2019_Annual_Report.pdf' },
  // 8-K complete submissions (header and every document, exhibits included) at their Archive paths,
  // real accessions: what the 8-K worker reads, one request per filing.
  { path: '/Archives/edgar/data/796343/000079634323000044/0000796343-23-000044.txt', file: '8k/ADBE-0000796343-23-000044.txt' },
  { path: '/Archives/edgar/data/1173313/000121390025032135/0001213900-25-032135.txt', file: '8k/ABVC-0001213900-25-032135.txt' },
  { path: '/Archives/edgar/data/66740/000006674024000023/0000066740-24-000023.txt', file: '8k/MMM-0000066740-24-000023.txt' },
  { path: '/Archives/edgar/data/1045810/000104581026000024/0001045810-26-000024.txt', file: '8k/NVDA-0001045810-26-000024.txt' },
  { path: '/Archives/edgar/data/72333/000007233323000015/0000072333-23-000015.txt', file: '8k/JWN-0000072333-23-000015.txt' },
  { path: '/Archives/edgar/data/320193/000091205700002128/0000912057-00-002128.txt', file: '8k/AAPL-0000912057-00-002128.txt' },
  // 13F complete submissions at their Archive paths under the manager's CIK, real accessions: what the
  // 13F worker reads, one request per filing. Acorn Creek (CIK 1994827) files under its agent's
  // accession prefix; its dissemination .nc file (same header and documents) stands in for the .txt.
  { path: '/Archives/edgar/data/1619124/000161912421000002/0001619124-21-000002.txt', file: '13f/ACTIAM-0001619124-21-000002.txt' },
  { path: '/Archives/edgar/data/1894188/000189418823000007/0001894188-23-000007.txt', file: '13f/LTSONE-0001894188-23-000007.txt' },
  { path: '/Archives/edgar/data/1994827/000195175725000093/0001951757-25-000093.txt', file: '13f/ACORNCREEK-0001951757-25-000093.nc' },
  // SEC's Official List of Section 13(f) Securities for 2020Q3, where SEC publishes it.
  { path: '/files/investment/13flist2020q3.pdf', file: '13f/SEC-13flist2020q3.pdf' },
  // A first-party call transcript (Citigroup, Q4 2024; its source page is not recorded): the one PDF
  // scripts/run.sh and the fixture platform give ingest-decks directly (--url), for Citigroup (CIK 831001).
  { path: '/transcripts/C-citi-4Q2024-earnings-call-transcript.pdf', file: 'transcripts/C-citi-4Q2024-earnings-call-transcript.pdf' },
];

/** POST here answers 204: a webhook endpoint for a local run (`npm start` subscribes one). */
export const WEBHOOK_SINK_PATH = '/webhooks/sink';

export interface FixtureRequest {
  method: string;
  path: string;
  userAgent: string | undefined;
  acceptEncoding: string | undefined;
  /** 0 while a delayed route has not answered yet. */
  status: number;
  /** When the request arrived (not when it was answered). */
  at: number;
}

export interface FixtureServerOptions {
  /** Defaults to FIXTURES_DIR, else `../shared/fixtures` next to the repository root. */
  fixturesDir?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Extra routes on top of FIXTURE_ROUTES (a test's own files, or overrides). */
  routes?: readonly FixtureRoute[];
  /** A simulated EDGAR day (libs/testing/src/edgar-day.ts): its listings, and its filings from their time on. */
  day?: EdgarDayOptions;
  /**
   * Answer one request with SEC's 403 "Request Rate Threshold Exceeded": the first whose path starts
   * with `pathPrefix` (default any) arriving `afterMs` or more after the server started.
   */
  throttleOnce?: { afterMs: number; pathPrefix?: string };
}

export interface FixtureServer {
  /** `http://127.0.0.1:<port>`: use it as both the www and the data base URL. */
  url: string;
  /** Every request seen, in order. */
  readonly requests: readonly FixtureRequest[];
  /** Paths this server can answer (fixed routes plus every submissions and company-facts file found). */
  paths(): string[];
  /** Answer the next `times` requests for `path` with `status` (429/503/...), then serve normally. */
  failNext(path: string, status: number, times?: number): void;
  /**
   * Adds or replaces a route while the server runs (a page that changes between two crawls). Give
   * it a file not served before: each file is read once, then answered from memory.
   */
  serve(route: FixtureRoute): void;
  /** The simulated day, when one was asked for. */
  day: EdgarDay | null;
  fixturesDir: string;
  close(): Promise<void>;
}

/** The fixtures directory: FIXTURES_DIR, else `../shared/fixtures` relative to the repository root. */
export function defaultFixturesDir(): string {
  if (process.env.FIXTURES_DIR) return resolve(process.env.FIXTURES_DIR);
  // libs/testing/src -> repository root is three levels up (also from dist/libs/testing/src, four).
  for (const up of ['../../..', '../../../..']) {
    const root = resolve(__dirname, up);
    if (existsSync(join(root, 'package.json'))) return resolve(root, '../shared/fixtures');
  }
  return resolve(process.cwd(), '../shared/fixtures');
}

function contentTypeOf(file: string): string {
  if (file.endsWith('.json')) return 'application/json';
  if (file.endsWith('.xml')) return 'application/xml';
  if (file.endsWith('.htm') || file.endsWith('.html')) return 'text/html; charset=utf-8';
  if (file.endsWith('.pdf')) return 'application/pdf';
  return 'text/plain; charset=utf-8';
}

/** Where data.sec.gov serves a company's facts: this, then `CIK##########.json`. */
export const COMPANY_FACTS_PATH = '/api/xbrl/companyfacts/';

/**
 * Route table: fixed routes, then `/submissions/CIK##########.json` for every file in submissions/
 * and `/api/xbrl/companyfacts/CIK##########.json` for every company-facts file in xbrl/.
 */
function buildRoutes(fixturesDir: string, extra: readonly FixtureRoute[]): Map<string, FixtureRoute> {
  const routes = new Map<string, FixtureRoute>();
  for (const route of FIXTURE_ROUTES) routes.set(route.path, route);
  const submissionsDir = join(fixturesDir, 'submissions');
  if (existsSync(submissionsDir)) {
    for (const name of readdirSync(submissionsDir)) {
      if (/^CIK\d{10}\.json$/.test(name)) routes.set(`/submissions/${name}`, { path: `/submissions/${name}`, file: `submissions/${name}` });
    }
  }
  // data.sec.gov company facts: `xbrl/<TICKER>-companyfacts-CIK##########.json` at `/api/xbrl/companyfacts/CIK##########.json`.
  const xbrlDir = join(fixturesDir, 'xbrl');
  if (existsSync(xbrlDir)) {
    for (const name of readdirSync(xbrlDir)) {
      const cik = /^[A-Za-z0-9.-]+-companyfacts-(CIK\d{10}\.json)$/.exec(name)?.[1];
      if (cik) routes.set(`${COMPANY_FACTS_PATH}${cik}`, { path: `${COMPANY_FACTS_PATH}${cik}`, file: `xbrl/${name}` });
    }
  }
  for (const route of extra) routes.set(route.path, route);
  return routes;
}

/**
 * A real HTTP server on 127.0.0.1 serving real EDGAR files at the real EDGAR paths (www.sec.gov
 * and data.sec.gov paths from one server). Gzips when asked, like SEC. 404 for anything else.
 */
export async function startFixtureServer(options: FixtureServerOptions = {}): Promise<FixtureServer> {
  const fixturesDir = resolve(options.fixturesDir ?? defaultFixturesDir());
  if (!existsSync(fixturesDir)) throw new Error(`fixtures directory not found: ${fixturesDir} (set FIXTURES_DIR)`);
  const routes = buildRoutes(fixturesDir, options.routes ?? []);
  const requests: FixtureRequest[] = [];
  const failures = new Map<string, { status: number; remaining: number }>();
  const cache = new Map<string, Buffer>();
  const day = options.day ? createEdgarDay(fixturesDir, FIXTURE_ROUTES, options.day) : null;
  const throttle = options.throttleOnce ? { at: Date.now() + options.throttleOnce.afterMs, prefix: options.throttleOnce.pathPrefix ?? '/', done: false } : null;

  const answer = (req: IncomingMessage, res: ServerResponse, url: URL): number => {
    const path = url.pathname;
    const failure = failures.get(path);
    if (failure && failure.remaining > 0) {
      failure.remaining -= 1;
      res.writeHead(failure.status, { 'content-type': 'text/plain' }).end(`injected ${failure.status}`);
      return failure.status;
    }
    if (throttle && !throttle.done && Date.now() >= throttle.at && path.startsWith(throttle.prefix)) {
      throttle.done = true;
      res.writeHead(403, { 'content-type': 'text/html' }).end('<h1>Your Request Originates from an Undeclared Automated Tool</h1><p>Request Rate Threshold Exceeded</p>');
      return 403;
    }
    // A webhook receiver for a local run: every delivery posted here is taken (204).
    if (req.method === 'POST' && path === WEBHOOK_SINK_PATH) {
      req.resume();
      res.writeHead(204).end();
      return 204;
    }
    // The day's listings and filings first: a filing's documents are 404 until it appears.
    const header = (name: string) => (typeof req.headers[name] === 'string' ? req.headers[name] : undefined);
    const dayAnswer =
      day && (req.method === 'GET' || req.method === 'HEAD')
        ? day.answer(path, url.searchParams, Date.now(), { ifNoneMatch: header('if-none-match'), ifModifiedSince: header('if-modified-since') })
        : null;
    if (dayAnswer?.status === 404) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      return 404;
    }
    if (dayAnswer?.status === 304) {
      res.writeHead(304, dayAnswer.headers).end();
      return 304;
    }
    // A generated page has no file: its body is the day's.
    const route: FixtureRoute | undefined = dayAnswer ? { path, file: 'file' in dayAnswer ? dayAnswer.file : '' } : req.method === 'GET' || req.method === 'HEAD' ? routes.get(path) : undefined;
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      return 404;
    }
    let body = dayAnswer && 'body' in dayAnswer ? dayAnswer.body : cache.get(route.file);
    if (!body) {
      body = readFileSync(resolve(fixturesDir, route.file));
      cache.set(route.file, body);
    }
    const contentType = dayAnswer && 'body' in dayAnswer ? dayAnswer.contentType : (route.contentType ?? contentTypeOf(route.file));
    const headers: Record<string, string> = { 'content-type': contentType, 'accept-ranges': 'bytes', ...(dayAnswer && 'headers' in dayAnswer ? dayAnswer.headers : {}) };
    // One `bytes=a-b` range (what zip readers ask for), answered as SEC does: 206, never gzipped.
    const range = /^bytes=(\d+)-(\d*)$/.exec(String(req.headers.range ?? ''));
    if (range) {
      const start = Number(range[1]);
      const end = Math.min(range[2] ? Number(range[2]) : body.length - 1, body.length - 1);
      if (start > end) {
        res.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
        return 416;
      }
      res.writeHead(206, { ...headers, 'content-range': `bytes ${start}-${end}/${body.length}`, 'content-length': String(end - start + 1) });
      res.end(req.method === 'HEAD' ? undefined : body.subarray(start, end + 1));
      return 206;
    }
    if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
      body = gzipSync(body);
      headers['content-encoding'] = 'gzip';
    }
    headers['content-length'] = String(body.length);
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
    return 200;
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fixture.local');
    const path = url.pathname;
    // Recorded on arrival: a test that acts while a delayed answer is pending sees the request at once.
    const request: FixtureRequest = {
      method: req.method ?? 'GET',
      path,
      userAgent: req.headers['user-agent'],
      acceptEncoding: req.headers['accept-encoding'],
      status: 0,
      at: Date.now(),
    };
    requests.push(request);
    const respond = () => {
      request.status = answer(req, res, url);
    };
    const delayMs = routes.get(path)?.delayMs ?? 0;
    if (delayMs > 0) setTimeout(respond, delayMs);
    else respond();
  });
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolveListen());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    paths: () => [...routes.keys()].sort(),
    failNext: (path, status, times = 1) => {
      failures.set(path, { status, remaining: times });
    },
    serve: (route) => {
      routes.set(route.path, route);
    },
    day,
    fixturesDir,
    close: () =>
      new Promise<void>((resolveClose) => {
        server.closeAllConnections();
        server.close(() => resolveClose());
      }),
  };
}
