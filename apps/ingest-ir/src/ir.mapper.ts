import {
  contentHash,
  recordId,
  sourceId,
  stableStringify,
  type CompanyDescriptionRecordV1,
  type IssuerDocumentData,
  type IssuerDocumentRecordV1,
  type IssuerRosterEntry,
  type IssuerRosterRecordV1,
  type PageCitation,
  type RosterCategory,
  type RecordOrigin,
} from '@app/contracts';
import { rankExecutives, type IssuerPageExtract, type RosterItem } from '@app/issuer-pages';
import type { IrSite } from './ingest-ir.config';

export const IR_PRODUCED_BY = 'ingest-ir';

/** Why a page was read: the landing page, or the kind of page it was found (or configured) as. */
export type PageRole = 'landing' | 'contact' | 'management' | 'presentations' | 'press' | 'reports';

/** One page read in a crawl: where from, its bytes' hash, and what it says. */
export interface ReadPage {
  role: PageRole;
  url: string;
  contentHash: string;
  fetchedAt: string;
  extract: IssuerPageExtract;
}

export interface MapContext {
  runId: string;
  /** Live discovery or history: the records' origin. */
  origin: RecordOrigin;
  extractedAt: string;
}

export interface SiteRecords {
  rosters: IssuerRosterRecordV1[];
  documents: IssuerDocumentRecordV1[];
  description: CompanyDescriptionRecordV1 | null;
}

/** The page a category is published from: see rosterRecordsOf for when a category is published. */
const CARRIER_ROLES: Record<RosterCategory, readonly PageRole[]> = {
  ir: ['contact'],
  executives: ['management'],
  analysts: [],
};

function citation(page: ReadPage, quote: string): PageCitation {
  return { source_url: page.url, content_hash: page.contentHash, quote };
}

/** The record id: natural key + hash of the data (which cites every page's hash), so the same pages give the same id. */
function idOf(key: string, data: unknown): string {
  return recordId(key, contentHash(stableStringify(data)));
}

function provenance(page: ReadPage, quote: string | null, ctx: MapContext, citationUrl?: string) {
  return {
    src_id: sourceId(page.url, page.contentHash),
    source_provider: 'issuer_page' as const,
    source_url: page.url,
    ...(citationUrl ? { citation_url: citationUrl } : {}),
    accession: null,
    quote,
    content_hash: page.contentHash,
    extracted_at: ctx.extractedAt,
  };
}

function itemsOf(extract: IssuerPageExtract, category: RosterCategory): RosterItem[] {
  switch (category) {
    case 'ir':
      return extract.irContacts;
    case 'executives':
      return extract.executives;
    case 'analysts':
      return extract.analysts;
  }
}

/**
 * One ir-roster@1 per category the crawl can speak for. People are merged across pages by name
 * (first page in crawl order wins); executives are ranked by seniority, the others by page order.
 * The record replaces the category's roster, so it must be whole:
 * - a carrier page (contact for ir, management for executives) of the site was not read in this
 *   crawl (`unreadRoles`: 404, robots.txt, page limit): not published, even when other pages name
 *   a few people (a CEO and CFO on the landing page would otherwise end every other executive);
 * - the carrier page was read: published, empty when it shows nobody (the site lists no one now);
 * - the site has no carrier page at all: published from the other pages when they name someone.
 */
export function rosterRecordsOf(site: IrSite, pages: readonly ReadPage[], ctx: MapContext, unreadRoles: ReadonlySet<PageRole> = new Set()): IssuerRosterRecordV1[] {
  const records: IssuerRosterRecordV1[] = [];
  for (const category of ['executives', 'ir', 'analysts'] as const) {
    const found: Array<{ item: RosterItem; page: ReadPage }> = [];
    for (const page of pages) {
      for (const item of itemsOf(page.extract, category)) if (!found.some((f) => f.item.name === item.name)) found.push({ item, page });
    }
    if (CARRIER_ROLES[category].some((role) => unreadRoles.has(role))) continue;
    const carrier = pages.find((p) => CARRIER_ROLES[category].includes(p.role));
    if (found.length === 0 && !carrier) continue;
    const ordered = category === 'executives' ? rankExecutives(found.map((f) => ({ ...f, role: f.item.role }))) : found;
    const entries: IssuerRosterEntry[] = ordered.map(({ item, page }, i) => ({
      name: item.name,
      role: item.role,
      affiliation: item.affiliation,
      email: item.email,
      phone: item.phone,
      rank: i + 1,
      citation: citation(page, item.quote),
    }));
    const source = ordered[0]?.page ?? carrier!;
    const key = `${site.cik}|${category}`;
    const data = { cik: site.cik, ticker: site.ticker, category, site_url: site.landing_url, entries };
    records.push({
      schema: 'ir-roster@1',
      key,
      id: idOf(key, data),
      observed_at: source.fetchedAt,
      produced_by: IR_PRODUCED_BY,
      correlation_id: ctx.runId,
      origin: ctx.origin,
      provenance: provenance(source, entries[0]?.citation.quote ?? null, ctx),
      data,
    });
  }
  return records;
}

/**
 * One ir-document@1 per document URL. A document listed on several pages is taken from the
 * listing that says most (a date, then an event), else the first in crawl order. Registry
 * documents linked from no page read follow, `listed_on: 'registry'` with no page citation:
 * nothing on a page shows them, so nothing is quoted.
 */
export function documentRecordsOf(site: IrSite, pages: readonly ReadPage[], ctx: MapContext, landing: ReadPage): IssuerDocumentRecordV1[] {
  const best = new Map<string, { doc: IssuerPageExtract['documents'][number]; page: ReadPage }>();
  const score = (d: IssuerPageExtract['documents'][number]) => (d.published_on ? 2 : 0) + (d.event ? 1 : 0);
  for (const page of pages) {
    for (const doc of page.extract.documents) {
      const held = best.get(doc.url);
      if (!held || score(doc) > score(held.doc)) best.set(doc.url, { doc, page });
    }
  }
  const records: IssuerDocumentRecordV1[] = [];
  for (const { doc, page } of best.values()) {
    const data: IssuerDocumentData = {
      cik: site.cik,
      ticker: site.ticker,
      url: doc.url,
      title: doc.title,
      kind: doc.kind,
      published_on: doc.published_on,
      is_pdf: doc.is_pdf,
      event: doc.event,
      listed_on: 'ir_page',
      citation: citation(page, doc.quote),
    };
    records.push(documentRecord(data, page, doc.quote, ctx));
  }
  for (const known of site.documents) {
    const url = new URL(known.url);
    url.hash = '';
    if (best.has(url.toString())) continue;
    const data: IssuerDocumentData = {
      cik: site.cik,
      ticker: site.ticker,
      url: url.toString(),
      title: known.title,
      kind: known.kind,
      published_on: known.published_on ?? null,
      is_pdf: /\.pdf$/i.test(url.pathname),
      event: null,
      listed_on: 'registry',
      citation: null,
    };
    records.push(documentRecord(data, landing, null, ctx));
  }
  return records;
}

function documentRecord(data: IssuerDocumentData, page: ReadPage, quote: string | null, ctx: MapContext): IssuerDocumentRecordV1 {
  return {
    schema: 'ir-document@1',
    key: data.url,
    id: idOf(data.url, data),
    observed_at: page.fetchedAt,
    produced_by: IR_PRODUCED_BY,
    correlation_id: ctx.runId,
    origin: ctx.origin,
    provenance: provenance(page, quote, ctx, data.url),
    data,
  };
}

/** The issuer's description from the first page (crawl order: landing first) that has one. */
export function descriptionRecordOf(site: IrSite, pages: readonly ReadPage[], ctx: MapContext): CompanyDescriptionRecordV1 | null {
  const page = pages.find((p) => p.extract.description !== null);
  const description = page?.extract.description;
  if (!page || !description) return null;
  const data = { cik: site.cik, ticker: site.ticker, description: description.text, citation: citation(page, description.quote) };
  return {
    schema: 'company-description@1',
    key: site.cik,
    id: idOf(site.cik, data),
    observed_at: page.fetchedAt,
    produced_by: IR_PRODUCED_BY,
    correlation_id: ctx.runId,
    origin: ctx.origin,
    provenance: provenance(page, description.quote, ctx),
    data,
  };
}

/** Every record of one site's crawl. `pages[0]` is the landing page; `unreadRoles` as in rosterRecordsOf. Pure. */
export function siteRecordsOf(site: IrSite, pages: readonly ReadPage[], ctx: MapContext, unreadRoles: ReadonlySet<PageRole> = new Set()): SiteRecords {
  const landing = pages.find((p) => p.role === 'landing') ?? pages[0];
  if (!landing) throw new RangeError(`no page read for ${site.cik}`);
  return {
    rosters: rosterRecordsOf(site, pages, ctx, unreadRoles),
    documents: documentRecordsOf(site, pages, ctx, landing),
    description: descriptionRecordOf(site, pages, ctx),
  };
}
