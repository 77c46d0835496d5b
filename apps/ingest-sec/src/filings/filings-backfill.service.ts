import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { readJsonCheckpoint, removeJsonCheckpoint, writeJsonCheckpoint } from '@app/checkpoints';
import { contentHash, padCik, type FilingRecordV1, type TopicDefinition } from '@app/contracts';
import {
  EdgarClient,
  EdgarError,
  EdgarParseError,
  parseRecentFilings,
  parseSubmissions,
  parseSubmissionsOverflow,
  submissionsOverflowPath,
  submissionsPath,
  type RecentFiling,
  fetchTickerMap,
} from '@app/edgar';
import { PublishGaveUpError } from '@app/messaging';
import type { Logger } from '@app/observability';
import { z } from 'zod';
import type { FetchedSource } from '../company.mapper';
import { INGEST_LOGGER, RECORD_PUBLISHER, type RecordPublisher } from '../ingest.providers';
import { progressOf, stoppedBy } from '../run-stopped.error';
import { filingRecordFromSubmissions } from './filing.mapper';

export const FILINGS_TOPIC = Symbol('FILINGS_TOPIC');

export interface FilingsBackfillCommand {
  /** Tickers and/or CIKs. */
  companies: readonly string[];
  /** Inclusive YYYY-MM-DD range of filing dates. */
  from: string;
  to: string;
  runId?: string;
  /** Where a run stopped by a broker outage records the companies it finished; a run of the same command skips them. */
  checkpoint?: string;
}

export interface CompanyBackfill {
  company: string;
  cik: string | null;
  /** `done_before`: finished by an earlier run of the same command (its checkpoint); skipped. */
  status: 'ok' | 'unknown_ticker' | 'not_found' | 'error' | 'done_before';
  published: number;
  overflowFetched: number;
  /** Overflow files listed in `filings.files` that answered 404. */
  overflowNotAvailable: number;
  error?: string;
}

export interface FilingsBackfillSummary {
  runId: string;
  from: string;
  to: string;
  companies: CompanyBackfill[];
  published: number;
  durationMs: number;
}

const PUBLISH_BATCH = 500;

/** The companies (CIKs) a stopped backfill finished, for exactly this command (companies, from, to). */
const backfillCheckpointSchema = z.object({
  kind: z.literal('sec-filings-backfill'),
  command: z.string(),
  done: z.array(z.string()),
  records_published: z.number().int().nonnegative(),
  updated_at: z.string(),
});
type BackfillCheckpoint = z.infer<typeof backfillCheckpointSchema>;

const sourceOf = (r: { url: string; bytes: Buffer; fetchedAt: string }): FetchedSource => ({
  url: r.url,
  contentHash: contentHash(r.bytes),
  fetchedAt: r.fetchedAt,
});

/**
 * Backfill: for each company, fetch its submissions JSON -> `filings.recent` plus the overflow
 * files whose date span meets the range -> pure map -> publish filing@1. A company that fails is
 * reported and skipped; the others go on.
 */
@Injectable()
export class FilingsBackfillService {
  private readonly edgar: EdgarClient;

  constructor(
    @Inject(EdgarClient) edgar: EdgarClient,
    @Inject(RECORD_PUBLISHER) private readonly publisher: RecordPublisher,
    @Inject(FILINGS_TOPIC) private readonly topic: TopicDefinition,
    @Inject(INGEST_LOGGER) private readonly logger: Logger,
  ) {
    // History: it yields to the live poll and to the followers in the shared EDGAR budget.
    this.edgar = edgar.withPriority('backfill');
  }

  async execute(command: FilingsBackfillCommand): Promise<FilingsBackfillSummary> {
    const started = Date.now();
    const runId = command.runId ?? `run_${randomUUID()}`;
    const log = this.logger.child({ runId, use: 'filings-backfill' });
    const tickers = command.companies.filter((c) => !/^\d{1,10}$/.test(c)).map((c) => c.toUpperCase());
    const tickerCiks = new Map<string, string>();
    if (tickers.length > 0) {
      for (const e of await fetchTickerMap(this.edgar)) if (!tickerCiks.has(e.ticker.toUpperCase())) tickerCiks.set(e.ticker.toUpperCase(), e.cik);
    }
    const summary: FilingsBackfillSummary = { runId, from: command.from, to: command.to, companies: [], published: 0, durationMs: 0 };
    const done = new Set<string>();
    const commandKey = JSON.stringify([command.companies, command.from, command.to]);
    const previous = command.checkpoint ? await readJsonCheckpoint(command.checkpoint, backfillCheckpointSchema, 'sec-filings-backfill') : null;
    const doneBefore = new Set(previous?.command === commandKey ? previous.done : []);
    if (doneBefore.size > 0) log.info({ checkpoint: command.checkpoint, companies_done: doneBefore.size }, 'resuming from the checkpoint of a stopped run');
    const checkpoint: BackfillCheckpoint = {
      kind: 'sec-filings-backfill',
      command: commandKey,
      done: [...doneBefore],
      records_published: previous?.command === commandKey ? previous.records_published : 0,
      updated_at: new Date().toISOString(),
    };
    for (const [i, company] of command.companies.entries()) {
      const cik = /^\d{1,10}$/.test(company) ? padCik(company) : (tickerCiks.get(company.toUpperCase()) ?? null);
      const result: CompanyBackfill = { company, cik, status: 'ok', published: 0, overflowFetched: 0, overflowNotAvailable: 0 };
      summary.companies.push(result);
      if (!cik) {
        result.status = 'unknown_ticker';
        log.warn({ company }, 'not in the SEC ticker map: skipped');
        continue;
      }
      if (done.has(cik)) continue;
      done.add(cik);
      if (doneBefore.has(cik)) {
        result.status = 'done_before';
        continue;
      }
      try {
        await this.backfillCompany(cik, command, runId, result, log);
      } catch (error) {
        if (error instanceof PublishGaveUpError) {
          result.status = 'error';
          result.error = error.message;
          summary.published += result.published;
          summary.durationMs = Date.now() - started;
          if (command.checkpoint) await writeJsonCheckpoint(command.checkpoint, { ...checkpoint, updated_at: new Date().toISOString() });
          // Counted against every company asked for: summary.companies holds only those reached.
          throw stoppedBy(error, () => ({
            progress: `${progressOf(i, command.companies.length, 'companies')} (${summary.published} filings published in this run)`,
            done: { ...summary },
            resume: command.checkpoint ? `checkpoint ${command.checkpoint}: run the same command again to resume` : 'run the same command again',
          }));
        }
        if (!(error instanceof EdgarError) && !(error instanceof EdgarParseError)) throw error;
        result.status = 'error';
        result.error = error.message;
        log.error({ company, cik, error: error.message }, 'company failed: skipped');
      }
      summary.published += result.published;
      // A company that failed is not done: a resumed run fetches it again.
      if (result.status !== 'error') checkpoint.done.push(cik);
      checkpoint.records_published += result.published;
      log.info({ company, cik, status: result.status, published: result.published, done: i + 1, of: command.companies.length }, 'progress');
    }
    if (command.checkpoint) await removeJsonCheckpoint(command.checkpoint);
    summary.durationMs = Date.now() - started;
    log.info({ published: summary.published, companies: summary.companies.length, durationMs: summary.durationMs, topic: this.topic.name }, 'filings backfill finished');
    return summary;
  }

  private async backfillCompany(cik: string, command: FilingsBackfillCommand, runId: string, result: CompanyBackfill, log: Logger): Promise<void> {
    const response = await this.edgar.getData(submissionsPath(cik));
    if (response.kind === 'not_found') {
      result.status = 'not_found';
      log.warn({ cik, url: response.url }, 'no submissions JSON (404)');
      return;
    }
    const company = parseSubmissions(response.bytes);
    await this.publishFilings(company, parseRecentFilings(response.bytes), sourceOf(response), command, runId, result);
    for (const file of company.filingFiles) {
      // Skip overflow files whose span misses the range (SEC lists filingFrom/filingTo per file).
      if ((file.filingTo && file.filingTo < command.from) || (file.filingFrom && file.filingFrom > command.to)) continue;
      const overflow = await this.edgar.getData(submissionsOverflowPath(file.name));
      if (overflow.kind === 'not_found') {
        result.overflowNotAvailable += 1;
        log.warn({ cik, file: file.name, url: overflow.url }, 'overflow submissions file not available (404)');
        continue;
      }
      result.overflowFetched += 1;
      await this.publishFilings(company, parseSubmissionsOverflow(overflow.bytes), sourceOf(overflow), command, runId, result);
    }
  }

  private async publishFilings(
    company: { cik: string; name: string },
    filings: RecentFiling[],
    source: FetchedSource,
    command: FilingsBackfillCommand,
    runId: string,
    result: CompanyBackfill,
  ): Promise<void> {
    const extractedAt = new Date().toISOString();
    const records: FilingRecordV1[] = [];
    for (const f of filings) {
      if (!f.filingDate || f.filingDate < command.from || f.filingDate > command.to) continue;
      const record = filingRecordFromSubmissions(company, f, source, { runId, origin: 'backfill', extractedAt });
      if (record) records.push(record);
    }
    for (let i = 0; i < records.length; i += PUBLISH_BATCH) {
      await this.publisher.publish(this.topic, records.slice(i, i + PUBLISH_BATCH));
    }
    result.published += records.length;
  }
}
