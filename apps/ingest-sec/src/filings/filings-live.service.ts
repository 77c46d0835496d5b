import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { contentHash, type FilingRecordV1, type TopicDefinition } from '@app/contracts';
import {
  EdgarClient,
  EdgarError,
  EdgarParseError,
  archivesDocumentPath,
  currentEventsPath,
  dailyIndexPath,
  latestFilingsFeedPath,
  parseCurrentEvents,
  parseDailyIndex,
  parseFilingIndexPage,
  parseLatestFilingsFeed,
  type CurrentEventsEntry,
  type DailyIndexEntry,
  type EdgarValidators,
  type LatestFilingEntry,
  type LatestFilingsFeed,
  coverageOf,
  covers,
  fetchTickerMap,
  type CikCoverage,
} from '@app/edgar';
import { filingFreshnessHistogram, observeFreshness, type FilingFreshnessHistogram, type Logger } from '@app/observability';
import type { FetchedSource } from '../company.mapper';
import { INGEST_LOGGER, RECORD_PUBLISHER, type RecordPublisher } from '../ingest.providers';
import { isNportForm } from '../nport/nport.mapper';
import { filingRecordFromFeed, filingRecordFromLatestFeed } from './filing.mapper';
import { FILINGS_TOPIC } from './filings-backfill.service';
import type { FilingsConfig } from './filings.config';
import { feedIntervalAfter } from './feed-interval';

export const FILINGS_CONFIG = Symbol('FILINGS_CONFIG');

/** One poll of the daily indexes and current-events listings (the backstop of the feed). */
export interface PollSummary {
  runId: string;
  date: string;
  dailyIndex: 'ok' | 'not_published' | 'error';
  /** Without an explicit date, the previous day's index is read too (it lands late at night, after many polls of 'today'). */
  previousDailyIndex?: 'ok' | 'not_published' | 'error';
  currentEvents: Record<string, 'ok' | 'not_found' | 'error'>;
  /** Rows read from both sources (covered or not). */
  seen: number;
  published: number;
  /** Covered rows already published by this process. */
  duplicates: number;
  /** Index pages read for the acceptance time of today's rows (neither source prints it), and how many gave none. */
  acceptanceLookups: number;
  acceptanceMissing: number;
}

/** One poll of the latest-filings Atom feed. */
export interface FeedPollSummary {
  runId: string;
  /** not_modified: EDGAR answered 304 to the validators of the previous answer. */
  feed: 'ok' | 'not_modified' | 'not_found' | 'error';
  /** Feed pages read (100 entries each): more than one when a whole page was new. */
  pages: number;
  /** Filings (accessions) on the pages read. */
  filings: number;
  /** Filings this process had not seen on the feed before, covered or not. */
  new: number;
  published: number;
  /** The wait chosen before the next feed poll. */
  nextPollMs: number;
}

/**
 * Remembers accessions already published, forgetting the oldest past `max`: a restart forgets
 * them all, which is fine, because the projector's upsert is idempotent on the accession.
 */
export class BoundedSet {
  private readonly items = new Set<string>();
  constructor(private readonly max: number) {}

  /** True when `key` was not there (and is now). */
  add(key: string): boolean {
    if (this.items.has(key)) return false;
    this.items.add(key);
    if (this.items.size > this.max) this.items.delete(this.items.values().next().value as string);
    return true;
  }

  has(key: string): boolean {
    return this.items.has(key);
  }

  get size(): number {
    return this.items.size;
  }
}

const today = (): string => new Date().toISOString().slice(0, 10);
const DAY_MS = 86_400_000;
/** Listing rows published at a time: what the index loop found is not held back by its acceptance lookups. */
const PUBLISH_CHUNK = 50;

function chunked<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

/** Which filer's entry a multi-filer filing is recorded under, when several are covered: the issuer's (subject's) before a reporting owner's. */
const ROLE_ORDER = ['Issuer', 'Filer', 'Subject', 'Filed by', 'Reporting'];
const roleRank = (role: string | null) => {
  const i = ROLE_ORDER.indexOf(role ?? '');
  return i < 0 ? ROLE_ORDER.length : i;
};

/**
 * Live mode. Discovery has two loops, every request first in line in the shared EDGAR budget
 * (`discovery`):
 * - the latest-filings Atom feed (all forms, with acceptance times), asked with the previous
 *   answer's validators, at an adaptive pace (docs/freshness.md): every FILINGS_FEED_MIN_INTERVAL_MS
 *   while new filings keep coming, slowing down to FILINGS_FEED_MAX_INTERVAL_MS when quiet and to
 *   FILINGS_FEED_QUIET_INTERVAL_MS while EDGAR accepts no filings (nights, weekends);
 * - every FILINGS_POLL_INTERVAL_S, the day's form index and the current-events listing of each
 *   configured form: the backstop for whatever the feed's 100 entries let pass. Their rows carry
 *   no acceptance time: a row of today new here has it read from its index page (at most
 *   FILINGS_ACCEPTANCE_LOOKUPS a poll; the rest, and earlier days' rows, go without).
 * Both keep covered companies' filings and every N-PORT report (whoever files it: its holdings name
 * covered companies), drop accessions this process already published and publish the rest.
 */
@Injectable()
export class FilingsLiveService implements OnApplicationShutdown {
  private readonly published: BoundedSet;
  /** Accessions met on the feed, covered or not: what is new on the next answer. */
  private readonly feedSeen: BoundedSet;
  private feedValidators: EdgarValidators = {};
  /** The feed was read once: a later answer whose first page is all new may not hold every new filing. */
  private feedRead = false;
  private feedIntervalMs: number;
  /** Read once, by whichever loop asks first (the other waits on the same promise). */
  private coverage: Promise<CikCoverage> | undefined;
  private stopped = false;
  private readonly wakers = new Set<() => void>();
  private readonly edgar: EdgarClient;
  /** `filing_freshness_seconds` of the poller's stages (first_seen, published); the app registers it on its ops port. */
  readonly freshness: FilingFreshnessHistogram = filingFreshnessHistogram();

  constructor(
    @Inject(FILINGS_CONFIG) private readonly config: FilingsConfig,
    @Inject(EdgarClient) edgar: EdgarClient,
    @Inject(RECORD_PUBLISHER) private readonly publisher: RecordPublisher,
    @Inject(FILINGS_TOPIC) private readonly topic: TopicDefinition,
    @Inject(INGEST_LOGGER) private readonly logger: Logger,
  ) {
    this.published = new BoundedSet(config.FILINGS_DEDUPE_SIZE);
    this.feedSeen = new BoundedSet(config.FILINGS_DEDUPE_SIZE);
    this.feedIntervalMs = config.FILINGS_FEED_MIN_INTERVAL_MS;
    // Finding new filings comes first in the shared EDGAR budget: everything downstream waits on it.
    this.edgar = edgar.withPriority('discovery');
  }

  /**
   * Polls until stopped: the feed loop and the index loop side by side. `once`: one feed poll, then
   * one index poll. `date`: the day whose form index is read (a past day's replay: no feed).
   */
  async run(options: { once?: boolean; date?: string; intervalS?: number } = {}): Promise<Array<PollSummary | FeedPollSummary>> {
    const readsFeed = options.date === undefined || options.date === today();
    if (options.once) {
      const summaries: Array<PollSummary | FeedPollSummary> = [];
      if (readsFeed) summaries.push(await this.pollFeed());
      summaries.push(await this.poll({ date: options.date }));
      return summaries;
    }
    const intervalMs = (options.intervalS ?? this.config.FILINGS_POLL_INTERVAL_S) * 1000;
    // Each loop logs its polls; one that fails stops the other, and the process exits with its error.
    const loop = async (pollOnce: () => Promise<number>) => {
      try {
        while (!this.stopped) await this.sleep(await pollOnce());
      } finally {
        this.stop();
      }
    };
    await Promise.all([
      readsFeed ? loop(async () => (await this.pollFeed()).nextPollMs) : Promise.resolve(),
      loop(async () => {
        await this.poll({ date: options.date });
        return intervalMs;
      }),
    ]);
    return [];
  }

  stop(): void {
    this.stopped = true;
    for (const wake of this.wakers) wake();
  }

  onApplicationShutdown(): void {
    this.stop();
  }

  /** Reads the latest-filings feed (conditionally), and older pages while a whole page is new. */
  async pollFeed(options: { runId?: string } = {}): Promise<FeedPollSummary> {
    const runId = options.runId ?? `run_${randomUUID()}`;
    const log = this.logger.child({ runId, use: 'filings-live-feed' });
    const coverage = await (this.coverage ??= coverageOf(this.config.SEC_COVERAGE, () => fetchTickerMap(this.edgar)));
    const summary: FeedPollSummary = { runId, feed: 'ok', pages: 0, filings: 0, new: 0, published: 0, nextPollMs: 0 };
    const extractedAt = new Date().toISOString();
    const firstPoll = !this.feedRead;
    const newEntries = new Map<string, Array<{ entry: LatestFilingEntry; source: FetchedSource }>>();
    const filings = new Set<string>();

    for (let page = 0; page < this.config.FILINGS_FEED_MAX_PAGES; page += 1) {
      const path = latestFilingsFeedPath(page * 100, 100);
      const answer = await this.fetch(() => (page === 0 ? this.edgar.getWwwIfChanged(path, this.feedValidators) : this.edgar.getWww(path)), log);
      if (answer === 'error' || answer.kind !== 'ok') {
        if (page === 0) summary.feed = answer === 'error' ? 'error' : answer.kind;
        break;
      }
      let feed: LatestFilingsFeed;
      try {
        feed = parseLatestFilingsFeed(answer.bytes);
      } catch (error) {
        if (!(error instanceof EdgarParseError)) throw error;
        log.error({ url: answer.url, error: error.message }, 'latest filings feed unreadable');
        if (page === 0) summary.feed = 'error';
        break;
      }
      for (const problem of feed.skipped) log.warn({ url: answer.url, problem }, 'latest filings feed entry skipped');
      // Validators only once the answer was read: a feed we could not read is asked for whole again.
      if (page === 0) this.feedValidators = { ...(answer.etag ? { etag: answer.etag } : {}), ...(answer.lastModified ? { lastModified: answer.lastModified } : {}) };
      this.feedRead = true;
      summary.pages += 1;
      const source = sourceOf(answer);
      let known = 0;
      for (const entry of feed.entries) {
        filings.add(entry.accession);
        if (this.feedSeen.has(entry.accession) && !newEntries.has(entry.accession)) {
          known += 1;
          continue;
        }
        newEntries.set(entry.accession, [...(newEntries.get(entry.accession) ?? []), { entry, source }]);
      }
      // A page with a filing seen before reaches back to the previous answer; the first poll reads one page.
      const last = known > 0 || firstPoll || feed.entries.length < 100 || page + 1 === this.config.FILINGS_FEED_MAX_PAGES;
      if (!last) continue;
      // A full page may end inside a filing's entries (an owner's without the issuer's, on the next
      // page): its oldest filing waits for a poll that shows it whole, or for the index loop.
      const oldest = feed.entries.at(-1);
      if (feed.entries.length === 100 && oldest && !this.feedSeen.has(oldest.accession)) newEntries.delete(oldest.accession);
      break;
    }

    const records: FilingRecordV1[] = [];
    for (const [accession, sightings] of newEntries) {
      this.feedSeen.add(accession);
      const chosen = coveredEntry(sightings.map((s) => s.entry), coverage);
      if (!chosen || !this.published.add(accession)) continue;
      // Cited from the page that holds the chosen entry.
      const source = sightings.find((s) => s.entry === chosen)!.source;
      records.push(filingRecordFromLatestFeed(chosen, source, { runId, origin: 'live', extractedAt }));
    }
    summary.filings = filings.size;
    summary.new = newEntries.size;
    await this.publishObserved(records);
    summary.published = records.length;
    this.feedIntervalMs = feedIntervalAfter(this.feedIntervalMs, summary.new > 0, Date.now(), this.config);
    summary.nextPollMs = this.feedIntervalMs;
    if (summary.published > 0 || summary.feed === 'error') log.info({ ...summary, topic: this.topic.name }, 'feed poll finished');
    else log.debug({ ...summary }, 'feed poll finished');
    return summary;
  }

  /** One poll of the day's form index (and the previous day's) and the current-events listings. */
  async poll(options: { date?: string; runId?: string } = {}): Promise<PollSummary> {
    const runId = options.runId ?? `run_${randomUUID()}`;
    const date = options.date ?? today();
    const log = this.logger.child({ runId, use: 'filings-live' });
    const coverage = await (this.coverage ??= coverageOf(this.config.SEC_COVERAGE, () => fetchTickerMap(this.edgar)));
    const summary: PollSummary = {
      runId, date, dailyIndex: 'ok', currentEvents: {}, seen: 0, published: 0, duplicates: 0, acceptanceLookups: 0, acceptanceMissing: 0,
    };
    const extractedAt = new Date().toISOString();
    const rows = new Map<string, { kind: 'daily_index' | 'current_events'; entry: DailyIndexEntry | CurrentEventsEntry; source: FetchedSource }>();
    const take = (kind: 'daily_index' | 'current_events', entry: DailyIndexEntry | CurrentEventsEntry, source: FetchedSource): void => {
      summary.seen += 1;
      // A fund's N-PORT report is read for the covered companies it holds, whoever files it.
      if (!covers(coverage, entry.cik) && !isNportForm(entry.form)) return;
      if (this.published.has(entry.accession) || rows.has(entry.accession)) {
        summary.duplicates += 1;
        return;
      }
      rows.set(entry.accession, { kind, entry, source });
    };

    const readIndex = async (day: string): Promise<PollSummary['dailyIndex']> => {
      const index = await this.fetch(() => this.edgar.getWww(dailyIndexPath(day)), log);
      if (index === 'error') return 'error';
      if (index.kind === 'not_found') return 'not_published';
      try {
        const source = sourceOf(index);
        for (const e of parseDailyIndex(index.bytes).entries) take('daily_index', e, source);
        return 'ok';
      } catch (error) {
        if (!(error instanceof EdgarParseError)) throw error;
        log.error({ url: index.url, error: error.message }, 'daily index unreadable');
        return 'error';
      }
    };
    if (options.date === undefined) {
      summary.previousDailyIndex = await readIndex(new Date(Date.parse(`${date}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10));
    }
    summary.dailyIndex = await readIndex(date);

    for (const form of this.config.FILINGS_CURRENT_FORMS) {
      const page = await this.fetch(() => this.edgar.getWww(currentEventsPath(form)), log);
      if (page === 'error' || page.kind === 'not_found') {
        summary.currentEvents[form] = page === 'error' ? 'error' : 'not_found';
        continue;
      }
      try {
        const source = sourceOf(page);
        for (const e of parseCurrentEvents(page.bytes).entries) take('current_events', e, source);
        summary.currentEvents[form] = 'ok';
      } catch (error) {
        if (!(error instanceof EdgarParseError)) throw error;
        summary.currentEvents[form] = 'error';
        log.error({ url: page.url, error: error.message }, 'current events listing unreadable');
      }
    }

    // Today's rows are news: their acceptance time is worth a request (a bounded number a poll).
    // An earlier day's (yesterday's index after a restart, a replayed date) are history.
    let lookups = this.config.FILINGS_ACCEPTANCE_LOOKUPS;
    const chunks = chunked([...rows.values()], PUBLISH_CHUNK);
    for (const chunk of chunks) {
      const records: FilingRecordV1[] = [];
      for (const { kind, entry, source } of chunk) {
        let acceptedAt: string | null = null;
        if (entry.dateFiled === today() && lookups > 0 && !this.stopped && !this.published.has(entry.accession)) {
          lookups -= 1;
          summary.acceptanceLookups += 1;
          acceptedAt = await this.acceptedAtOf(entry.cik, entry.accession, log);
          if (acceptedAt === null) summary.acceptanceMissing += 1;
        }
        // Claimed only now: the feed may have published it while the lookups ran.
        if (!this.published.add(entry.accession)) {
          summary.duplicates += 1;
          continue;
        }
        records.push(filingRecordFromFeed(kind, entry, source, { runId, origin: 'live', extractedAt }, acceptedAt));
      }
      await this.publishObserved(records);
      summary.published += records.length;
    }
    log.info({ ...summary, remembered: this.published.size, topic: this.topic.name }, 'filings poll finished');
    return summary;
  }

  /** Publishes, and observes how long after acceptance each filing was first seen (its source fetched) and published. */
  private async publishObserved(records: readonly FilingRecordV1[]): Promise<void> {
    if (records.length === 0) return;
    await this.publisher.publish(this.topic, records);
    const publishedAt = new Date();
    for (const r of records) {
      if (r.data.accepted_at === null) continue;
      const acceptedAt = new Date(r.data.accepted_at);
      observeFreshness(this.freshness, 'first_seen', acceptedAt, new Date(r.observed_at));
      observeFreshness(this.freshness, 'published', acceptedAt, publishedAt);
    }
  }

  /** The acceptance time the filing's index page prints; null when the page cannot be read. */
  private async acceptedAtOf(cik: string, accession: string, log: Logger): Promise<string | null> {
    const page = await this.fetch(() => this.edgar.getWww(archivesDocumentPath(cik, accession, `${accession}-index.htm`), { priority: 'documents' }), log);
    if (page === 'error' || page.kind === 'not_found') return null;
    try {
      return parseFilingIndexPage(page.bytes).acceptedAt;
    } catch (error) {
      if (!(error instanceof EdgarParseError)) throw error;
      log.warn({ url: page.url, error: error.message }, 'filing index page unreadable');
      return null;
    }
  }

  /** One fetch; EDGAR failures are logged and the poll goes on (the next poll retries). */
  private async fetch<T extends { kind: string }>(get: () => Promise<T>, log: Logger): Promise<T | 'error'> {
    try {
      return await get();
    } catch (error) {
      if (!(error instanceof EdgarError)) throw error;
      log.error({ code: error.code, url: error.url, error: error.message }, 'EDGAR request failed');
      return 'error';
    }
  }

  /** Waits `ms`, or less when stopped. */
  private sleep(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.wakers.add(wake);
    });
  }
}

/** The entry a filing is recorded under: a covered filer's, issuer first; any for an N-PORT report; none when no filer is covered. */
function coveredEntry(entries: readonly LatestFilingEntry[], coverage: CikCoverage): LatestFilingEntry | null {
  const ordered = [...entries].sort((a, b) => roleRank(a.role) - roleRank(b.role));
  const covered = ordered.find((e) => covers(coverage, e.cik));
  if (covered) return covered;
  return isNportForm(ordered[0]!.form) ? ordered[0]! : null;
}

function sourceOf(r: { url: string; bytes: Buffer; fetchedAt: string }): FetchedSource {
  return { url: r.url, contentHash: contentHash(r.bytes), fetchedAt: r.fetchedAt };
}

