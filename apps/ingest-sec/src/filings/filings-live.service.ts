import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { contentHash, type FilingRecordV1, type TopicDefinition } from '@app/contracts';
import {
  EdgarClient,
  EdgarError,
  EdgarParseError,
  currentEventsPath,
  dailyIndexPath,
  parseCurrentEvents,
  parseDailyIndex,
  type EdgarFetchResult,
  coverageOf,
  covers,
  fetchTickerMap,
  type CikCoverage,
} from '@app/edgar';
import type { Logger } from '@app/observability';
import type { FetchedSource } from '../company.mapper';
import { INGEST_LOGGER, RECORD_PUBLISHER, type RecordPublisher } from '../ingest.providers';
import { isNportForm } from '../nport/nport.mapper';
import { filingRecordFromFeed } from './filing.mapper';
import { FILINGS_TOPIC } from './filings-backfill.service';
import type { FilingsConfig } from './filings.config';

export const FILINGS_CONFIG = Symbol('FILINGS_CONFIG');

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

  get size(): number {
    return this.items.size;
  }
}

const today = (): string => new Date().toISOString().slice(0, 10);

/**
 * Live mode: each poll reads today's daily form index (404 until EDGAR publishes it at night, which
 * is normal) and the current-events listing of each configured form, keeps covered companies'
 * rows and every N-PORT report (whoever files it: its holdings name covered companies), drops
 * accessions this process already published and publishes the rest. Every request goes through
 * the shared EDGAR budget, first in line (`discovery`).
 */
@Injectable()
export class FilingsLiveService implements OnApplicationShutdown {
  private readonly seen: BoundedSet;
  private coverage: CikCoverage | undefined;
  private stopped = false;
  private wake: (() => void) | undefined;
  private readonly edgar: EdgarClient;

  constructor(
    @Inject(FILINGS_CONFIG) private readonly config: FilingsConfig,
    @Inject(EdgarClient) edgar: EdgarClient,
    @Inject(RECORD_PUBLISHER) private readonly publisher: RecordPublisher,
    @Inject(FILINGS_TOPIC) private readonly topic: TopicDefinition,
    @Inject(INGEST_LOGGER) private readonly logger: Logger,
  ) {
    this.seen = new BoundedSet(config.FILINGS_DEDUPE_SIZE);
    // Finding new filings comes first in the shared EDGAR budget: everything downstream waits on it.
    this.edgar = edgar.withPriority('discovery');
  }

  /** Polls until stopped (or once). */
  async run(options: { once?: boolean; date?: string; intervalS?: number } = {}): Promise<PollSummary[]> {
    const summaries: PollSummary[] = [];
    const intervalMs = (options.intervalS ?? this.config.FILINGS_POLL_INTERVAL_S) * 1000;
    while (!this.stopped) {
      summaries.push(await this.poll({ date: options.date }));
      if (options.once) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, intervalMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    return summaries;
  }

  stop(): void {
    this.stopped = true;
    this.wake?.();
  }

  onApplicationShutdown(): void {
    this.stop();
  }

  async poll(options: { date?: string; runId?: string } = {}): Promise<PollSummary> {
    const runId = options.runId ?? `run_${randomUUID()}`;
    const date = options.date ?? today();
    const log = this.logger.child({ runId, use: 'filings-live' });
    this.coverage ??= await coverageOf(this.config.SEC_COVERAGE, () => fetchTickerMap(this.edgar));
    const summary: PollSummary = { runId, date, dailyIndex: 'ok', currentEvents: {}, seen: 0, published: 0, duplicates: 0 };
    const extractedAt = new Date().toISOString();
    const records: FilingRecordV1[] = [];
    const take = (record: FilingRecordV1): void => {
      summary.seen += 1;
      // A fund's N-PORT report is read for the covered companies it holds, whoever files it.
      if (!covers(this.coverage!, record.data.cik) && !isNportForm(record.data.form)) return;
      if (!this.seen.add(record.key)) {
        summary.duplicates += 1;
        return;
      }
      records.push(record);
    };

    const readIndex = async (day: string): Promise<PollSummary['dailyIndex']> => {
      const index = await this.fetch(() => this.edgar.getWww(dailyIndexPath(day)), log);
      if (index === 'error') return 'error';
      if (index.kind === 'not_found') return 'not_published';
      try {
        const source = sourceOf(index);
        for (const e of parseDailyIndex(index.bytes).entries) take(filingRecordFromFeed('daily_index', e, source, { runId, extractedAt }));
        return 'ok';
      } catch (error) {
        if (!(error instanceof EdgarParseError)) throw error;
        log.error({ url: index.url, error: error.message }, 'daily index unreadable');
        return 'error';
      }
    };
    if (options.date === undefined) {
      summary.previousDailyIndex = await readIndex(new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10));
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
        for (const e of parseCurrentEvents(page.bytes).entries) take(filingRecordFromFeed('current_events', e, source, { runId, extractedAt }));
        summary.currentEvents[form] = 'ok';
      } catch (error) {
        if (!(error instanceof EdgarParseError)) throw error;
        summary.currentEvents[form] = 'error';
        log.error({ url: page.url, error: error.message }, 'current events listing unreadable');
      }
    }

    if (records.length > 0) await this.publisher.publish(this.topic, records);
    summary.published = records.length;
    log.info({ ...summary, remembered: this.seen.size, topic: this.topic.name }, 'filings poll finished');
    return summary;
  }

  /** One fetch; EDGAR failures are logged and the poll goes on (the next poll retries). */
  private async fetch(get: () => Promise<EdgarFetchResult>, log: Logger): Promise<EdgarFetchResult | 'error'> {
    try {
      return await get();
    } catch (error) {
      if (!(error instanceof EdgarError)) throw error;
      log.error({ code: error.code, url: error.url, error: error.message }, 'EDGAR request failed');
      return 'error';
    }
  }
}

function sourceOf(r: { url: string; bytes: Buffer; fetchedAt: string }): FetchedSource {
  return { url: r.url, contentHash: contentHash(r.bytes), fetchedAt: r.fetchedAt };
}
