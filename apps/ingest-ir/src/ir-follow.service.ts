import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Logger } from '@app/observability';
import type { IngestIrConfig } from './ingest-ir.config';
import { IngestIrService, IR_CONFIG, IR_LOGGER, type IrIngestSummary } from './ingest-ir.service';
import type { IrCompany, TenkIrWebsiteMention } from './ir-site.mapper';

export const IR_FOLLOW_RUN_ID = Symbol('IR_FOLLOW_RUN_ID');

interface KnownSite {
  company: IrCompany;
  /** What the target was chosen from: a company whose sites change is crawled again at once. */
  sites: string;
  /** epoch ms of the last crawl that finished; 0: never. */
  checkedAt: number;
}

const sitesOf = (c: IrCompany) => `${c.investorWebsite ?? ''}|${c.tenkIrWebsite?.url ?? ''}|${c.website ?? ''}`;

/** Whether mention `a` comes from a 10-K at least as new as `b`'s (period, then filing date). */
function newerOrSame(a: TenkIrWebsiteMention, b: TenkIrWebsiteMention): boolean {
  const pa = a.periodEnded ?? '';
  const pb = b.periodEnded ?? '';
  return pa !== pb ? pa > pb : (a.filedDate ?? '') >= (b.filedDate ?? '');
}

/** How often due sites are looked for: the interval itself when short, else every 5 minutes. */
const CHECK_MS_MAX = 5 * 60_000;

/**
 * `ingest-ir --follow`: the companies it has seen (from edgar.companies.v1, which a restart reads
 * again from the beginning, as edgar.tenk-sections.v1 for the IR websites 10-Ks name) and the registry's sites, each crawled when first seen, when SEC's
 * website fields change, and again every IR_RECRAWL_INTERVAL_H hours. Crawls run one at a time
 * (the crawl state and the per-host rate are the service's), whether a batch or the timer asks.
 */
@Injectable()
export class IrSitesFollower implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly known = new Map<string, KnownSite>();
  /** CIK -> the IR website its newest 10-K names (kept for companies not seen yet too). */
  private readonly tenkMentions = new Map<string, TenkIrWebsiteMention>();
  private serial: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private readonly intervalMs: number;

  constructor(
    @Inject(IngestIrService) private readonly service: IngestIrService,
    @Inject(IR_CONFIG) config: IngestIrConfig,
    @Inject(IR_LOGGER) private readonly logger: Logger,
    @Inject(IR_FOLLOW_RUN_ID) private readonly runId: string,
  ) {
    this.intervalMs = config.IR_RECRAWL_INTERVAL_H * 3_600_000;
    // Registry sites are crawled even when no company record names their CIK (the registry adds sites).
    for (const site of config.sites) {
      const company: IrCompany = {
        cik: site.cik,
        ticker: site.ticker,
        name: site.name,
        investorWebsite: null,
        website: null,
        tenkIrWebsite: null,
        record: { url: null, contentHash: null, observedAt: new Date().toISOString() },
      };
      this.known.set(site.cik, { company, sites: sitesOf(company), checkedAt: 0 });
    }
  }

  onApplicationBootstrap(): void {
    const tick = () => {
      this.recrawlDue().catch((error: unknown) => this.logger.error({ error: error instanceof Error ? error.message : String(error) }, 'IR recrawl failed: retried at the next check'));
    };
    this.timer = setInterval(tick, Math.min(this.intervalMs, CHECK_MS_MAX));
    this.timer.unref();
    setImmediate(tick);
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.serial;
  }

  /** A batch of companies: new ones, and those whose website fields changed, are crawled now; the others are only noted. */
  async onCompanies(companies: readonly IrCompany[]): Promise<IrIngestSummary | null> {
    const due = new Map<string, IrCompany>();
    for (const listed of companies) {
      const company: IrCompany = { ...listed, tenkIrWebsite: this.tenkMentions.get(listed.cik) ?? null };
      const seen = this.known.get(company.cik);
      if (!seen || seen.checkedAt === 0 || seen.sites !== sitesOf(company) || due.has(company.cik)) due.set(company.cik, company);
      else seen.company = company;
    }
    return this.crawl([...due.values()]);
  }

  /**
   * IR websites named by 10-Ks (Item 1): the newest 10-K's mention per issuer is kept; a known
   * company whose mention changed is crawled now (it ranks above SEC's website field).
   */
  async onTenkMentions(mentions: ReadonlyArray<{ cik: string; mention: TenkIrWebsiteMention }>): Promise<IrIngestSummary | null> {
    const due = new Map<string, IrCompany>();
    for (const { cik, mention } of mentions) {
      const held = this.tenkMentions.get(cik);
      if (held && !newerOrSame(mention, held)) continue;
      this.tenkMentions.set(cik, mention);
      const seen = this.known.get(cik);
      if (!seen || seen.company.tenkIrWebsite?.url === mention.url) continue;
      due.set(cik, { ...seen.company, tenkIrWebsite: mention });
    }
    return this.crawl([...due.values()]);
  }

  /** Crawls again every known site last crawled IR_RECRAWL_INTERVAL_H or more before `now`. */
  recrawlDue(now = Date.now()): Promise<IrIngestSummary | null> {
    const due = [...this.known.values()].filter((k) => now - k.checkedAt >= this.intervalMs).map((k) => k.company);
    return this.crawl(due);
  }

  /** One crawl at a time; a company is noted as checked only once its crawl finished (a broker outage leaves it due). */
  private crawl(companies: readonly IrCompany[]): Promise<IrIngestSummary | null> {
    if (companies.length === 0) return Promise.resolve(null);
    const run = this.serial.then(async () => {
      const summary = await this.service.execute({ companies, runId: this.runId });
      const checkedAt = Date.now();
      for (const company of companies) this.known.set(company.cik, { company, sites: sitesOf(company), checkedAt });
      return summary;
    });
    this.serial = run.catch(() => undefined);
    return run;
  }
}
