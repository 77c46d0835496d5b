import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  classifyExhibit,
  exhibitPages,
  HoldingMatcher,
  isEightKForm,
  parseCompleteSubmission,
  parseForm4,
  parseNport,
  parseThirteenFSubmission,
  parseTickerMapExchange,
  type TickerMapEntry,
} from '@app/edgar';
import type { DayFiling } from './edgar-day';
import { busiestSecond } from './request-windows';

/**
 * After a simulated EDGAR day: for every filing that appeared, each API resource that should derive
 * from it, and whether the API serves it. Expectations come from what the fixture files hold (the
 * Form 4's issuer, the N-PORT's matched equity holding, the 10-Q's segment axis), never from counts
 * written down here.
 */

export type ResourceKind = 'filing' | 'items' | 'document' | 'insiders' | 'segments' | 'sections' | 'description' | 'fund-exposure' | 'institution-holdings';

export interface ExpectedResource {
  accession: string;
  form: string;
  kind: ResourceKind;
  /** The API path that should serve it. */
  path: string;
  /** What of the response shows it (for the table). */
  shows: string;
  /** True when the response shows the filing's accession where it should. */
  check: (body: unknown) => boolean;
}

export interface CoverageRow extends Omit<ExpectedResource, 'check'> {
  served: boolean;
  status: number;
}

const symbolOf = (map: readonly TickerMapEntry[], cik: string): string | null => {
  const padded = cik.padStart(10, '0');
  const row = map.find((e) => e.cik === padded);
  return row ? `${row.ticker.toUpperCase()}:US` : null;
};

type Json = Record<string, unknown>;
const rows = (body: unknown): Json[] => (body && typeof body === 'object' && Array.isArray((body as Json).data) ? ((body as Json).data as Json[]) : []);
const provenanceAccession = (row: Json): unknown => (row.provenance as Json | undefined)?.accession;

/** The resources each appeared filing of the day should give, read from its fixture files. */
export function expectedResources(fixturesDir: string, date: string, filings: readonly DayFiling[]): ExpectedResource[] {
  // The company load reads this map, so the API's symbols are these tickers.
  const map = parseTickerMapExchange(readFileSync(join(fixturesDir, 'tickers/company_tickers_exchange.json')));
  const out: ExpectedResource[] = [];
  for (const f of filings) {
    const base = { accession: f.accession, form: f.form };
    if (f.background) {
      // Thousands of background rows: looked up in the day's list (one paged read), not one by one.
      out.push({ ...base, kind: 'filing', path: `/v1/filings?filed_from=${date}&filed_to=${date}&limit=500`, shows: 'the filing in the day', check: (b) => rows(b).some((r) => r.accession === f.accession) });
      continue;
    }
    out.push({ ...base, kind: 'filing', path: `/v1/filings/${f.accession}`, shows: 'the filing', check: (b) => (b as Json | null)?.accession === f.accession });
    const text = (name: string) => readFileSync(join(fixturesDir, f.documents.find((d) => d.name === name)!.file));
    const main = f.documents[0]!.name;
    const symbol = symbolOf(map, f.cik);
    if (f.form === '4' || f.form === '4/A') {
      const doc = parseForm4(text(main), { accession: f.accession });
      const issuer = symbolOf(map, doc.issuer.cik);
      if (issuer && doc.rows.length > 0) {
        out.push({ ...base, kind: 'insiders', path: `/v1/companies/${issuer}/insiders?limit=500`, shows: 'a row of its accession', check: (b) => rows(b).some((r) => r.accession === f.accession) });
      }
    }
    if ((f.form === '10-Q' || f.form === '10-K') && symbol && /StatementBusinessSegmentsAxis/.test(text(main).toString('utf8'))) {
      out.push({ ...base, kind: 'segments', path: `/v1/companies/${symbol}/segments?limit=500`, shows: 'a segment figure of its accession', check: (b) => rows(b).some((r) => provenanceAccession(r) === f.accession) });
    }
    if (f.form === '10-K' && symbol) {
      out.push({ ...base, kind: 'sections', path: `/v1/companies/${symbol}/sections/1A`, shows: 'Item 1A of its accession', check: (b) => ((b as Json | null)?.filing as Json | undefined)?.accession === f.accession });
      out.push({ ...base, kind: 'description', path: `/v1/companies/${symbol}`, shows: 'the description from it', check: (b) => ((b as Json | null)?.description_provenance as Json | undefined)?.accession === f.accession });
    }
    if (isEightKForm(f.form)) {
      // The items, and each exhibit the classifier serves (a press release, a presentation) as a document with pages.
      const submission = parseCompleteSubmission(text(main).toString('utf8'));
      out.push({ ...base, kind: 'items', path: `/v1/filings/${f.accession}`, shows: 'its items', check: (b) => Array.isArray((b as Json | null)?.items) });
      for (const doc of submission.documents) {
        if (doc.binary || !doc.filename || (doc.format !== 'html' && doc.format !== 'text')) continue;
        const pages = exhibitPages(doc.body, doc.format).pages;
        if (classifyExhibit({ type: doc.type, description: doc.description, filename: doc.filename, text: pages.slice(0, 1).join('\n') }) === null) continue;
        const url = `https://www.sec.gov/Archives/edgar/data/${f.cik}/${f.accession.replace(/-/g, '')}/${doc.filename}`;
        out.push({ ...base, kind: 'document', path: `/v1/documents?limit=500`, shows: `${doc.type} with pages`, check: (b) => rows(b).some((r) => r.url === url && typeof r.pages === 'number' && r.pages > 0) });
      }
    }
    if (f.form === 'NPORT-P') {
      // The fund's largest equity holding of a company in the ticker map, matched as the N-PORT follower matches.
      const matcher = new HoldingMatcher(map.map((e) => ({ cik: e.cik, ticker: e.ticker, name: e.name })));
      const held = parseNport(text(main))
        .holdings.filter((h) => h.assetCat === 'EC')
        .map((h) => ({ h, match: matcher.match(h) }))
        .filter((x) => x.match !== null)
        .sort((a, b) => (b.h.pctVal ?? 0) - (a.h.pctVal ?? 0))[0];
      if (held) {
        out.push({ ...base, kind: 'fund-exposure', path: `/v1/companies/${held.match!.symbol}/fund-exposure?limit=500`, shows: 'a holding of its accession', check: (b) => rows(b).some((r) => provenanceAccession(r) === f.accession) });
      }
    }
    if (f.form === '13F-HR') {
      // The manager's portfolio (its CIK as the primary document states it), with rows of this filing.
      const manager = parseThirteenFSubmission(text(main).toString('utf8')).primary.managerCik;
      if (manager) {
        out.push({
          ...base,
          kind: 'institution-holdings',
          path: `/v1/institutions/${manager.padStart(10, '0')}/holdings?limit=500`,
          shows: 'a holding of its accession',
          check: (b) => rows(b).some((r) => r.accession === f.accession || provenanceAccession(r) === f.accession),
        });
      }
    }
  }
  return out;
}

/**
 * Asks the API for each expected resource (real HTTP, a Bearer key). Each path is read once; a list
 * is read to its last page (its rows joined), so a resource on a later page counts.
 */
export async function checkResources(api: string, key: string, expected: readonly ExpectedResource[]): Promise<CoverageRow[]> {
  const read = new Map<string, { status: number; body: unknown }>();
  const get = async (path: string): Promise<{ status: number; body: unknown }> => {
    const res = await fetch(`${api}${path}`, { headers: { authorization: `Bearer ${key}` } });
    return { status: res.status, body: res.headers.get('content-type')?.includes('json') ? await res.json() : await res.text() };
  };
  const out: CoverageRow[] = [];
  for (const { check, ...e } of expected) {
    let answer = read.get(e.path);
    if (!answer) {
      answer = await get(e.path);
      for (let page = answer.body as Json; (page.pagination as Json | undefined)?.has_more === true; ) {
        const next = await get(`${e.path}&cursor=${encodeURIComponent(String((page.pagination as Json).next_cursor))}`);
        if (next.status !== 200) break;
        page = next.body as Json;
        (answer.body as Json).data = [...rows(answer.body), ...rows(page)];
      }
      read.set(e.path, answer);
    }
    out.push({ ...e, status: answer.status, served: answer.status === 200 && check(answer.body) });
  }
  return out;
}

export interface RequestFigures {
  requests: number;
  busiestSecond: number;
  /** Requests per minute over the span of the log. */
  perMinute: number;
  /** Requests per kind: listings (latest-filings feed, current events, daily index), index.json, documents, company load, other. */
  byKind: Record<string, number>;
}

/** Reads the fixture server's request log (`<epoch ms> <status> <path>` lines). */
export function requestFigures(log: string): RequestFigures {
  const lines = log
    .split('\n')
    .map((l) => /^(\d+) (\d+) (\S+)$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null);
  const at = lines.map((m) => Number(m[1]));
  const byKind: Record<string, number> = {};
  for (const m of lines) {
    const path = m[3]!;
    const kind = path.startsWith('/cgi-bin/current') || path.startsWith('/cgi-bin/browse-edgar') || path.includes('/daily-index/')
      ? 'listings'
      : path.endsWith('/index.json')
        ? 'index.json'
        : path.startsWith('/Archives/edgar/data/')
          ? 'documents'
          : path.startsWith('/files/') || path.startsWith('/submissions/')
            ? 'company load'
            : 'other';
    byKind[kind] = (byKind[kind] ?? 0) + 1;
  }
  const span = at.length > 1 ? Math.max(...at) - Math.min(...at) : 0;
  return { requests: at.length, busiestSecond: busiestSecond(at.map((t) => ({ at: t }))), perMinute: span > 0 ? Math.round((at.length * 60_000) / span) : at.length, byKind };
}

/** The table, one line per resource, then the share served (of all, and per kind). */
export function formatCoverage(rows: readonly CoverageRow[], figures: RequestFigures | null): string {
  const lines = [`${'accession'.padEnd(22)}${'form'.padEnd(9)}${'resource'.padEnd(15)}${'served'.padEnd(8)}path`];
  for (const r of rows) lines.push(`${r.accession.padEnd(22)}${r.form.padEnd(9)}${r.kind.padEnd(15)}${(r.served ? 'yes' : `NO ${r.status}`).padEnd(8)}${r.path}`);
  const pct = (rs: readonly CoverageRow[]) => (rs.length === 0 ? 100 : Math.round((1000 * rs.filter((r) => r.served).length) / rs.length) / 10);
  lines.push('', `served: ${rows.filter((r) => r.served).length} of ${rows.length} resources (${pct(rows)}%)`);
  for (const kind of [...new Set(rows.map((r) => r.kind))]) {
    const of = rows.filter((r) => r.kind === kind);
    lines.push(`  ${kind.padEnd(15)}${of.filter((r) => r.served).length}/${of.length} (${pct(of)}%)`);
  }
  if (figures) {
    lines.push('', `fixture EDGAR requests: ${figures.requests}, busiest second ${figures.busiestSecond}, ${figures.perMinute}/min on average`);
    lines.push(`  by kind: ${Object.entries(figures.byKind).map(([k, n]) => `${k} ${n}`).join(', ')}`);
  }
  return lines.join('\n');
}
