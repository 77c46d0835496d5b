import type { IrSiteSource, IrSiteStatus } from '@app/contracts';
import type { IrSite } from './ingest-ir.config';
import { noWebsiteOutcome, type IrCompany, type IrSiteEvidence } from './ir-site.mapper';

/** A site to crawl: the registry entry, or one built from what SEC publishes, and where it came from. */
export interface CrawlTarget {
  kind: 'crawl';
  site: IrSite;
  source: IrSiteSource;
  /** Where the crawl started: the landing page, or the homepage it was found on (source website). */
  startUrl: string;
  /** Where the landing page was named (the homepage linking it, the 10-K naming it); null when given as such. */
  foundOn: IrSiteEvidence | null;
}

/** A homepage to read for its IR link (SEC's website field). */
export interface HomepageTarget {
  kind: 'homepage';
  url: string;
}

/** A company whose site is not crawled, and why. */
export interface SiteVerdict {
  kind: 'verdict';
  status: Exclude<IrSiteStatus, 'found'>;
  source: IrSiteSource | null;
  startUrl: string | null;
  detail: string;
  evidence: IrSiteEvidence;
}

/** SEC's website fields as printed ("www.tesla.com", "https://ir.tesla.com"): an http(s) URL, or null. */
export function websiteUrl(field: string | null): string | null {
  const text = field?.trim();
  if (!text) return null;
  try {
    const url = new URL(/^https?:\/\//i.test(text) ? text : `https://${text}`);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null;
  } catch {
    return null;
  }
}

export function operatorTarget(site: IrSite): CrawlTarget {
  return { kind: 'crawl', site, source: 'operator', startUrl: site.landing_url, foundOn: null };
}

/**
 * Pure: where a company's IR site is to be found, most specific first: the registry entry (the
 * operator adds or overrides), SEC's investorWebsite, the IR website its newest 10-K names (Item 1),
 * SEC's website (a homepage to read for its IR link); else no_website.
 */
export function chooseTarget(company: IrCompany, registry: readonly IrSite[]): CrawlTarget | HomepageTarget | SiteVerdict {
  const operator = registry.find((s) => s.cik === company.cik);
  if (operator) return operatorTarget(operator);
  const siteAt = (landing: string): IrSite => ({ cik: company.cik, ticker: company.ticker, name: company.name, landing_url: landing, pages: {}, documents: [] });
  const investor = websiteUrl(company.investorWebsite);
  if (investor) return { kind: 'crawl', site: siteAt(investor), source: 'investor_website', startUrl: investor, foundOn: null };
  const tenk = company.tenkIrWebsite;
  if (tenk) {
    const foundOn: IrSiteEvidence = { provider: 'sec', url: tenk.documentUrl, contentHash: tenk.contentHash, fetchedAt: tenk.observedAt, quote: tenk.quote };
    return { kind: 'crawl', site: siteAt(tenk.url), source: 'tenk_available_information', startUrl: tenk.url, foundOn };
  }
  const home = websiteUrl(company.website);
  if (home) return { kind: 'homepage', url: home };
  return { kind: 'verdict', status: 'no_website', source: null, startUrl: null, ...noWebsiteOutcome(company) };
}
