import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { IrSiteData, IrSitePages, IrSiteStatus, RecordOrigin, TopicDefinition } from '@app/contracts';
import { extractIssuerPage, findIrLandingIn, IrFetchError, PoliteFetcher, type IssuerIdentity, type PageFetchResult, type SiteLinks } from '@app/issuer-pages';
import { PublishGaveUpError, type RecordPublisher } from '@app/messaging';
import type { Logger } from '@app/observability';
import { CrawlStateStore, type PageState } from './crawl-state.store';
import type { IngestIrConfig, IrSite } from './ingest-ir.config';
import { irSiteRecordOf, irSiteSignature, type IrCompany, type IrSiteEvidence } from './ir-site.mapper';
import { chooseTarget, operatorTarget, type CrawlTarget, type SiteVerdict } from './ir-target';
import { siteRecordsOf, type PageRole, type ReadPage, type SiteRecords } from './ir.mapper';

export const IR_CONFIG = Symbol('IR_CONFIG');
export const IR_LOGGER = Symbol('IR_LOGGER');
export const IR_TOPICS = Symbol('IR_TOPICS');
export const RECORD_PUBLISHER = Symbol('RECORD_PUBLISHER');
export type { RecordPublisher };


export interface IrTopics {
  roster: TopicDefinition;
  documents: TopicDefinition;
  descriptions: TopicDefinition;
  sites: TopicDefinition;
}


export interface SiteOutcome {
  cik: string;
  /** published: records went out; unchanged: nothing changed, nothing published; failed: the site could not be read; none: no site to read. */
  status: 'published' | 'unchanged' | 'failed' | 'none';
  /** The ir-site@1 outcome. */
  site: IrSiteStatus;
  pages: number;
  rosters?: number;
  documents?: number;
  description?: boolean;
  error?: string;
}

export interface IrIngestSummary {
  runId: string;
  sites: SiteOutcome[];
  durationMs: number;
}

/**
 * The crawl stopped because the broker did not take a site's records within the retry bound. No
 * checkpoint of its own: the crawl state (IR_STATE_FILE) keeps the validators of the sites
 * published before, so the same command reads them with conditional requests and publishes
 * nothing for them; the site that was being published is read in full again.
 */
export class IrIngestStoppedError extends Error {
  constructor(
    readonly summary: IrIngestSummary,
    /** The site whose records the broker did not take. */
    readonly cik: string,
    /** Sites of the run not crawled (that one included). */
    readonly remaining: number,
    override readonly cause: PublishGaveUpError,
  ) {
    const published = summary.sites.filter((s) => s.status === 'published').length;
    super(
      `stopped at site ${cik} with ${published} of ${summary.sites.length + remaining} sites published, ${remaining} not done: ${cause.message}; ` +
        'run the same command again (sites published since are read as unchanged when IR_STATE_FILE is set)',
    );
    this.name = 'IrIngestStoppedError';
  }
}

/** Pages read after the landing page, in this order (the order also ranks IR contacts across pages). */
const FOLLOWED: ReadonlyArray<Exclude<PageRole, 'landing'>> = ['contact', 'management', 'presentations', 'press', 'reports'];

/** A page the crawl needed did not load: robots.txt forbids it, or it answered 4xx. */
class SiteFailed extends Error {
  constructor(
    readonly status: Extract<IrSiteStatus, 'robots_disallowed' | 'fetch_failed'>,
    message: string,
  ) {
    super(message);
  }
}

interface Identity {
  cik: string;
  ticker: string | null;
  name: string;
}

const NO_PAGES: IrSitePages = { contact: [], management: [], presentations: [], press: [], reports: [] };

/**
 * The IR use case. One path for every site, configured or found:
 * - the target (chooseTarget): the operator's registry entry (IR_SITES / IR_SITES_FILE) when it
 *   lists the CIK, else SEC's investor_website, else the IR website the newest 10-K names, else
 *   SEC's website, whose homepage is read and its IR landing page found by link text / URL
 *   (findIrLanding); else none (`no_website`);
 * - the crawl: the landing page, then its contact, management, presentations, press and report
 *   pages (configured hints first, else links found on the landing page, same host only, at most
 *   IR_MAX_PAGES_PER_SITE pages) -> extract -> map -> publish;
 * - the outcome, an ir-site@1 record (ir.sites.v1, key CIK): found, or why not. It is published
 *   when it differs from the last one this process published for the CIK (so a restart publishes
 *   each once more; the projector skips identical content).
 * When no page changed since the last crawl (304, or the same content hash) nothing is
 * published. A site's validators are kept aside and committed to the state only once all its
 * records are published (or it proved unchanged), so a failed site is read in full next run.
 * A site that fails (fetch, robots.txt, extraction, mapping) is reported and the next one goes
 * on; a publish failure (broker down) stops the run.
 */
@Injectable()
export class IngestIrService {
  private readonly fetcher: PoliteFetcher;
  private readonly state: CrawlStateStore;
  /** CIK -> signature of the last ir-site@1 this process published. */
  private readonly publishedSites = new Map<string, string>();

  constructor(
    @Inject(IR_CONFIG) private readonly config: IngestIrConfig,
    @Inject(RECORD_PUBLISHER) private readonly publisher: RecordPublisher,
    @Inject(IR_TOPICS) private readonly topics: IrTopics,
    @Inject(IR_LOGGER) private readonly logger: Logger,
  ) {
    this.fetcher = new PoliteFetcher({
      userAgent: config.IR_USER_AGENT,
      maxRpsPerHost: config.IR_MAX_RPS_PER_HOST,
      timeoutMs: config.IR_TIMEOUT_MS,
      maxAttempts: config.IR_MAX_ATTEMPTS,
      backoffBaseMs: config.IR_BACKOFF_MS,
      maxBytes: config.IR_MAX_PAGE_BYTES,
      allowPrivateHosts: config.IR_ALLOW_PRIVATE_HOSTS,
      // `--follow` lives for weeks: robots.txt is read again daily (RFC 9309 2.4), a failed one included.
      robotsTtlMs: 24 * 3_600_000,
      logger: logger.child({ component: 'ir-fetcher' }),
    });
    this.state = IngestIrService.openState(config.IR_STATE_FILE, logger);
  }

  /**
   * The state saves requests and tells a site's first crawl (history) from later ones (news): an
   * unreadable state file is reported and the crawl starts fresh, every site's crawl then a first one.
   */
  private static openState(path: string | undefined, logger: Logger): CrawlStateStore {
    if (!path) logger.warn('IR_STATE_FILE not set: every crawl is a site\'s first, whose documents are history and make no webhook event');
    try {
      return new CrawlStateStore(path);
    } catch (error) {
      logger.warn({ path, error: error instanceof Error ? error.message : String(error) }, 'IR state file unreadable: starting without it (every site\'s next crawl is a first one: no webhook event for its documents)');
      return new CrawlStateStore(path, { ignoreExisting: true });
    }
  }

  /**
   * Crawls `companies` (the follower: each company's target as above), or else the registry's
   * sites (`ciks`: those only), in order.
   */
  async execute(command: { ciks?: readonly string[]; companies?: readonly IrCompany[]; firstCrawl?: RecordOrigin; runId?: string } = {}): Promise<IrIngestSummary> {
    const started = Date.now();
    const runId = command.runId ?? `run_${randomUUID()}`;
    const log = this.logger.child({ runId, useCase: 'ir' });
    const jobs: Array<{ identity: Identity; target: (log: Logger) => Promise<CrawlTarget | SiteVerdict> }> = command.companies
      ? command.companies.map((c) => ({ identity: { cik: c.cik, ticker: c.ticker, name: c.name }, target: (l: Logger) => this.targetOf(c, l) }))
      : (command.ciks ? this.config.sites.filter((s) => command.ciks!.includes(s.cik)) : this.config.sites).map((site) => ({
          identity: { cik: site.cik, ticker: site.ticker, name: site.name },
          target: () => Promise.resolve(operatorTarget(site)),
        }));
    const outcomes: SiteOutcome[] = [];
    for (const [i, { identity, target }] of jobs.entries()) {
      const siteLog = log.child({ cik: identity.cik, ticker: identity.ticker });
      try {
        const resolved = await target(siteLog);
        outcomes.push(resolved.kind === 'crawl' ? await this.crawlSite(resolved, runId, command.firstCrawl ?? 'backfill', siteLog) : await this.publishVerdict(identity, resolved, runId, siteLog));
      } catch (error) {
        if (!(error instanceof PublishGaveUpError)) throw error;
        const summary = { runId, sites: outcomes, durationMs: Date.now() - started };
        log.error({ cik: identity.cik, done: i, of: jobs.length, error: error.message }, 'IR crawl stopped: the broker did not take the records');
        throw new IrIngestStoppedError(summary, identity.cik, jobs.length - i, error);
      }
      this.state.save();
    }
    const summary = { runId, sites: outcomes, durationMs: Date.now() - started };
    log.info({ sites: outcomes, durationMs: summary.durationMs }, 'IR crawl finished');
    return summary;
  }

  /** A company's crawl target (chooseTarget); a homepage is read here and searched for its IR link. */
  private async targetOf(company: IrCompany, log: Logger): Promise<CrawlTarget | SiteVerdict> {
    const chosen = chooseTarget(company, this.config.sites);
    if (chosen.kind !== 'homepage') return chosen;
    const home = chosen.url;
    const siteAt = (landing: string): IrSite => ({ cik: company.cik, ticker: company.ticker, name: company.name, landing_url: landing, pages: {}, documents: [] });
    const failed = (status: SiteVerdict['status'], detail: string, url: string): SiteVerdict => ({
      kind: 'verdict',
      status,
      source: 'website',
      startUrl: home,
      detail,
      evidence: { provider: 'issuer_page', url, contentHash: null, fetchedAt: new Date().toISOString(), quote: null },
    });
    let result: PageFetchResult;
    try {
      result = await this.fetcher.fetch(home);
    } catch (error) {
      if (!(error instanceof IrFetchError)) throw error;
      log.warn({ url: home, error: error.message }, 'homepage failed');
      return failed('fetch_failed', `homepage ${home}: ${error.message}`, home);
    }
    switch (result.kind) {
      case 'disallowed':
        return failed('robots_disallowed', `homepage ${home} is disallowed by robots.txt`, home);
      case 'not_found':
        return failed('fetch_failed', `homepage ${home} answered ${result.status}`, home);
      case 'not_modified':
        // No validators were sent: a 304 here is the server's mistake.
        return failed('fetch_failed', `homepage ${home} answered 304 to an unconditional GET`, home);
      case 'ok': {
        const landing = findIrLandingIn(result.bytes, result.finalUrl);
        const evidence: IrSiteEvidence = { provider: 'issuer_page', url: result.finalUrl, contentHash: result.contentHash, fetchedAt: result.fetchedAt, quote: landing?.quote ?? null };
        if (!landing) return { kind: 'verdict', status: 'no_ir_page', source: 'website', startUrl: home, detail: `no link to an IR page on ${result.finalUrl}`, evidence };
        log.info({ homepage: result.finalUrl, landing: landing.url, cue: landing.cue }, 'IR landing page found on the homepage');
        return { kind: 'crawl', site: siteAt(landing.url), source: 'website', startUrl: home, foundOn: evidence };
      }
    }
  }

  /** Publishes a verdict's ir-site@1 when it differs from the last one published for the company. */
  private async publishVerdict(identity: Identity, verdict: SiteVerdict, runId: string, log: Logger): Promise<SiteOutcome> {
    const data: IrSiteData = {
      ...identity,
      status: verdict.status,
      source: verdict.source,
      start_url: verdict.startUrl,
      landing_url: null,
      pages: NO_PAGES,
      detail: verdict.detail,
      checked_at: new Date().toISOString(),
    };
    // A verdict makes no event whatever its origin: it is the site's status as checked now.
    await this.publishSite(data, verdict.evidence, runId, 'live');
    log.info({ status: verdict.status, detail: verdict.detail }, 'IR site not crawled');
    const failed = verdict.status === 'robots_disallowed' || verdict.status === 'fetch_failed';
    return { cik: identity.cik, status: failed ? 'failed' : 'none', site: verdict.status, pages: 0, error: verdict.detail };
  }

  private async publishSite(data: IrSiteData, evidence: IrSiteEvidence, runId: string, origin: RecordOrigin): Promise<void> {
    const signature = irSiteSignature(data);
    if (this.publishedSites.get(data.cik) === signature) return;
    await this.publisher.publish(this.topics.sites, [irSiteRecordOf(data, evidence, { runId, origin, extractedAt: new Date().toISOString() })]);
    this.publishedSites.set(data.cik, signature);
  }

  private async crawlSite(target: CrawlTarget, runId: string, firstCrawl: RecordOrigin, log: Logger): Promise<SiteOutcome> {
    const { site } = target;
    log.info({ landing: site.landing_url, source: target.source }, 'IR site: crawling');
    const identity: Identity = { cik: site.cik, ticker: site.ticker, name: site.name };
    const siteData = (status: IrSiteStatus, pages: IrSitePages, detail: string | null): IrSiteData => ({
      ...identity,
      status,
      source: target.source,
      start_url: target.startUrl,
      landing_url: site.landing_url,
      pages,
      detail,
      checked_at: new Date().toISOString(),
    });
    // A site's first crawl reads what it already lists (history: no webhook event, unless `firstCrawl` says live); later crawls discover what is new.
    const origin: RecordOrigin = this.state.get(site.landing_url) ? 'live' : firstCrawl;
    // This site's new validators: committed to the state only after its records are published.
    const pending = new Map<string, PageState>();
    let crawl: SiteCrawl;
    try {
      crawl = await this.readSite(site, { runId, origin }, pending, log);
    } catch (error) {
      // Nothing of this site was published and its validators are dropped: the next run reads it in full.
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof IrFetchError || error instanceof SiteFailed) log.error({ error: message }, 'IR site failed: skipped');
      else log.error({ err: error }, 'IR site failed unexpectedly: skipped');
      const status = error instanceof SiteFailed ? error.status : 'fetch_failed';
      // Outside the catch's reach: a publish failure stops the run.
      const evidence: IrSiteEvidence = { provider: 'issuer_page', url: error instanceof IrFetchError ? error.url : site.landing_url, contentHash: null, fetchedAt: new Date().toISOString(), quote: null };
      await this.publishSite(siteData(status, NO_PAGES, message), target.foundOn ?? evidence, runId, origin);
      return { cik: site.cik, status: 'failed', site: status, pages: 0, error: message };
    }
    const found = siteData('found', crawl.found, null);
    const evidence: IrSiteEvidence = target.foundOn ?? { provider: 'issuer_page', url: site.landing_url, contentHash: crawl.landing.contentHash, fetchedAt: crawl.landing.fetchedAt, quote: null };
    if (crawl.kind === 'unchanged') {
      await this.publishSite(found, evidence, runId, origin);
      this.commit(pending);
      log.info({ pages: crawl.pages }, 'IR site unchanged since the last crawl: nothing published');
      return { cik: site.cik, status: 'unchanged', site: 'found', pages: crawl.pages };
    }
    const { records } = crawl;
    // Outside the try: a publish failure is not this site's, it stops the run (nothing committed).
    await this.publisher.publish(this.topics.roster, records.rosters);
    await this.publisher.publish(this.topics.documents, records.documents);
    if (records.description) await this.publisher.publish(this.topics.descriptions, [records.description]);
    await this.publishSite(found, evidence, runId, origin);
    this.commit(pending);
    const outcome: SiteOutcome = {
      cik: site.cik,
      status: 'published',
      site: 'found',
      pages: crawl.pages,
      rosters: records.rosters.length,
      documents: records.documents.length,
      description: records.description !== null,
    };
    log.info(outcome, 'IR site published');
    return outcome;
  }

  private commit(pending: ReadonlyMap<string, PageState>): void {
    for (const [url, state] of pending) this.state.set(url, state);
  }

  /** Reads the site's pages and maps them: fetch -> extract -> map, no publishing. */
  private async readSite(site: IrSite, run: { runId: string; origin: RecordOrigin }, pending: Map<string, PageState>, log: Logger): Promise<SiteCrawl> {
    const issuer: IssuerIdentity = { cik: site.cik, name: site.name, ...(site.ticker ? { ticker: site.ticker } : {}) };
    const landing = await this.read(site.landing_url, 'landing', true, issuer, pending, log);
    const found: Partial<SiteLinks> = landing.page?.extract.links ?? this.state.get(site.landing_url)?.next ?? {};
    const reads = [landing];
    // Roles whose page the site has but this crawl did not read: their rosters are not published (partial).
    const unreadRoles = new Set<PageRole>();
    for (const { url, role, required } of this.pagesToFollow(site, found)) {
      if (reads.some((r) => r.url === url)) continue;
      if (reads.length >= this.config.IR_MAX_PAGES_PER_SITE) {
        if (!unreadRoles.has(role)) log.info({ limit: this.config.IR_MAX_PAGES_PER_SITE, url, role }, 'IR site: page limit reached, page not read');
        unreadRoles.add(role);
        continue;
      }
      reads.push(await this.read(url, role, required, issuer, pending, log));
    }
    const done = reads.filter((r) => r.status !== 'skipped');
    const foundPages: IrSitePages = { contact: [], management: [], presentations: [], press: [], reports: [] };
    for (const r of done) if (r.role !== 'landing') foundPages[r.role].push(r.url);
    const landingSeen = { contentHash: landing.contentHash, fetchedAt: landing.fetchedAt };
    if (done.every((r) => r.status === 'unchanged')) return { kind: 'unchanged', pages: done.length, found: foundPages, landing: landingSeen };
    // Something changed: pages answered 304 have no body here, so they are read again in full.
    for (const [i, r] of reads.entries()) if (r.status === 'unchanged' && !r.page) reads[i] = await this.read(r.url, r.role, false, issuer, pending, log, true);
    for (const r of reads) if (r.status === 'skipped') unreadRoles.add(r.role);
    const pages = reads.map((r) => r.page).filter((p): p is ReadPage => p !== undefined);
    const records = siteRecordsOf(site, pages, { ...run, extractedAt: new Date().toISOString() }, unreadRoles);
    return { kind: 'changed', pages: pages.length, records, found: foundPages, landing: { contentHash: pages[0]!.contentHash, fetchedAt: pages[0]!.fetchedAt } };
  }

  /** Configured pages (required: they must load), then discovered ones (optional), in FOLLOWED order. */
  private pagesToFollow(site: IrSite, found: Partial<SiteLinks>): Array<{ url: string; role: PageRole; required: boolean }> {
    const hints: Record<Exclude<PageRole, 'landing'>, string[]> = {
      contact: site.pages.contact ? [site.pages.contact] : [],
      management: site.pages.management ? [site.pages.management] : [],
      presentations: site.pages.presentations ? [site.pages.presentations] : [],
      press: site.pages.press ?? [],
      reports: [],
    };
    const landingHost = new URL(site.landing_url).host;
    const out: Array<{ url: string; role: PageRole; required: boolean }> = [];
    for (const role of FOLLOWED) {
      if (hints[role].length > 0) for (const url of hints[role]) out.push({ url, role, required: true });
      else for (const url of found[role] ?? []) if (new URL(url).host === landingHost) out.push({ url, role, required: false });
    }
    return out;
  }

  /**
   * Reads one page. A required page (landing, configured hints) that is missing or disallowed
   * fails the site; a discovered one is skipped with a warning.
   */
  private async read(url: string, role: PageRole, required: boolean, issuer: IssuerIdentity, pending: Map<string, PageState>, log: Logger, force = false): Promise<PageRead> {
    const previous = force ? {} : (this.state.get(url) ?? {});
    const result: PageFetchResult = await this.fetcher.fetch(url, previous);
    switch (result.kind) {
      case 'not_found':
      case 'disallowed': {
        const why = result.kind === 'not_found' ? `answered ${result.status}` : 'is disallowed by robots.txt';
        if (required) throw new SiteFailed(result.kind === 'disallowed' ? 'robots_disallowed' : 'fetch_failed', `${role} page ${url} ${why}`);
        log.warn({ url, role, result: result.kind }, 'IR page skipped');
        return { url, role, status: 'skipped', contentHash: null, fetchedAt: new Date().toISOString() };
      }
      case 'not_modified':
        log.info({ url, role }, 'IR page not modified (304)');
        return { url, role, status: 'unchanged', contentHash: result.validators.contentHash ?? null, fetchedAt: result.fetchedAt };
      case 'ok': {
        const extract = extractIssuerPage(result.bytes, result.finalUrl, issuer);
        pending.set(url, { ...result.validators, next: extract.links });
        log.info({ url, role, bytes: result.bytes.byteLength, unchanged: result.unchanged }, 'IR page read');
        const page: ReadPage = { role, url: result.finalUrl, contentHash: result.contentHash, fetchedAt: result.fetchedAt, extract };
        return { url, role, status: result.unchanged ? 'unchanged' : 'changed', contentHash: result.contentHash, fetchedAt: result.fetchedAt, page };
      }
    }
  }
}

/** The landing page as this crawl saw it (the evidence of `found`). */
interface LandingSeen {
  contentHash: string | null;
  fetchedAt: string;
}

type SiteCrawl =
  | { kind: 'unchanged'; pages: number; found: IrSitePages; landing: LandingSeen }
  | { kind: 'changed'; pages: number; records: SiteRecords; found: IrSitePages; landing: LandingSeen };

interface PageRead {
  url: string;
  role: PageRole;
  status: 'changed' | 'unchanged' | 'skipped';
  contentHash: string | null;
  fetchedAt: string;
  page?: ReadPage;
}
