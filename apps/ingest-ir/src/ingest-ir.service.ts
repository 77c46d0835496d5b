import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { TopicDefinition } from '@app/contracts';
import { extractIssuerPage, IrFetchError, PoliteFetcher, type IssuerIdentity, type PageFetchResult, type SiteLinks } from '@app/issuer-pages';
import { PublishGaveUpError, type RecordPublisher } from '@app/messaging';
import type { Logger } from '@app/observability';
import { CrawlStateStore, type PageState } from './crawl-state.store';
import type { IngestIrConfig, IrSite } from './ingest-ir.config';
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
}

export interface SiteOutcome {
  cik: string;
  status: 'published' | 'unchanged' | 'failed';
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

class SiteFailed extends Error {}

/**
 * The IR use case: per registry site, read the landing page, then its contact, management,
 * presentations, press and report pages (configured hints first, else links found on the
 * landing page, same host only, at most IR_MAX_PAGES_PER_SITE pages) -> extract -> map -> publish.
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
      logger: logger.child({ component: 'ir-fetcher' }),
    });
    this.state = IngestIrService.openState(config.IR_STATE_FILE, logger);
  }

  /** The state only saves requests: an unreadable state file is reported and the crawl starts fresh. */
  private static openState(path: string | undefined, logger: Logger): CrawlStateStore {
    try {
      return new CrawlStateStore(path);
    } catch (error) {
      logger.warn({ path, error: error instanceof Error ? error.message : String(error) }, 'IR state file unreadable: starting without it');
      return new CrawlStateStore(path, { ignoreExisting: true });
    }
  }

  async execute(command: { ciks?: readonly string[]; runId?: string } = {}): Promise<IrIngestSummary> {
    const started = Date.now();
    const runId = command.runId ?? `run_${randomUUID()}`;
    const log = this.logger.child({ runId, useCase: 'ir' });
    const sites = command.ciks ? this.config.sites.filter((s) => command.ciks!.includes(s.cik)) : this.config.sites;
    const outcomes: SiteOutcome[] = [];
    for (const [i, site] of sites.entries()) {
      try {
        outcomes.push(await this.crawlSite(site, runId, log.child({ cik: site.cik, ticker: site.ticker })));
      } catch (error) {
        if (!(error instanceof PublishGaveUpError)) throw error;
        const summary = { runId, sites: outcomes, durationMs: Date.now() - started };
        log.error({ cik: site.cik, done: i, of: sites.length, error: error.message }, 'IR crawl stopped: the broker did not take the records');
        throw new IrIngestStoppedError(summary, site.cik, sites.length - i, error);
      }
      this.state.save();
    }
    const summary = { runId, sites: outcomes, durationMs: Date.now() - started };
    log.info({ sites: outcomes, durationMs: summary.durationMs }, 'IR crawl finished');
    return summary;
  }

  private async crawlSite(site: IrSite, runId: string, log: Logger): Promise<SiteOutcome> {
    log.info({ landing: site.landing_url }, 'IR site: crawling');
    // This site's new validators: committed to the state only after its records are published.
    const pending = new Map<string, PageState>();
    let crawl: SiteCrawl;
    try {
      crawl = await this.readSite(site, runId, pending, log);
    } catch (error) {
      // Nothing of this site was published and its validators are dropped: the next run reads it in full.
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof IrFetchError || error instanceof SiteFailed) log.error({ error: message }, 'IR site failed: skipped');
      else log.error({ err: error }, 'IR site failed unexpectedly: skipped');
      return { cik: site.cik, status: 'failed', pages: 0, error: message };
    }
    if (crawl.kind === 'unchanged') {
      this.commit(pending);
      log.info({ pages: crawl.pages }, 'IR site unchanged since the last crawl: nothing published');
      return { cik: site.cik, status: 'unchanged', pages: crawl.pages };
    }
    const { records } = crawl;
    // Outside the try: a publish failure is not this site's, it stops the run (nothing committed).
    await this.publisher.publish(this.topics.roster, records.rosters);
    await this.publisher.publish(this.topics.documents, records.documents);
    if (records.description) await this.publisher.publish(this.topics.descriptions, [records.description]);
    this.commit(pending);
    const outcome: SiteOutcome = {
      cik: site.cik,
      status: 'published',
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
  private async readSite(site: IrSite, runId: string, pending: Map<string, PageState>, log: Logger): Promise<SiteCrawl> {
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
    if (done.every((r) => r.status === 'unchanged')) return { kind: 'unchanged', pages: done.length };
    // Something changed: pages answered 304 have no body here, so they are read again in full.
    for (const [i, r] of reads.entries()) if (r.status === 'unchanged' && !r.page) reads[i] = await this.read(r.url, r.role, false, issuer, pending, log, true);
    for (const r of reads) if (r.status === 'skipped') unreadRoles.add(r.role);
    const pages = reads.map((r) => r.page).filter((p): p is ReadPage => p !== undefined);
    const records = siteRecordsOf(site, pages, { runId, extractedAt: new Date().toISOString() }, unreadRoles);
    return { kind: 'changed', pages: pages.length, records };
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
        if (required) throw new SiteFailed(`${role} page ${url} ${why}`);
        log.warn({ url, role, result: result.kind }, 'IR page skipped');
        return { url, role, status: 'skipped' };
      }
      case 'not_modified':
        log.info({ url, role }, 'IR page not modified (304)');
        return { url, role, status: 'unchanged' };
      case 'ok': {
        const extract = extractIssuerPage(result.bytes, result.finalUrl, issuer);
        pending.set(url, { ...result.validators, next: extract.links });
        log.info({ url, role, bytes: result.bytes.byteLength, unchanged: result.unchanged }, 'IR page read');
        const page: ReadPage = { role, url: result.finalUrl, contentHash: result.contentHash, fetchedAt: result.fetchedAt, extract };
        return { url, role, status: result.unchanged ? 'unchanged' : 'changed', page };
      }
    }
  }
}

type SiteCrawl = { kind: 'unchanged'; pages: number } | { kind: 'changed'; pages: number; records: SiteRecords };

interface PageRead {
  url: string;
  role: PageRole;
  status: 'changed' | 'unchanged' | 'skipped';
  page?: ReadPage;
}
