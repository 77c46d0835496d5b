import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { contentHash, type CompanyRecordV1, type TopicDefinition } from '@app/contracts';
import {
  EdgarClient,
  EdgarError,
  EdgarParseError,
  TICKER_MAP_EXCHANGE_PATH,
  TICKER_MAP_PATH,
  parseSubmissions,
  parseTickerMap,
  parseTickerMapExchange,
  submissionsPath,
  type SubmissionsCompany,
  type TickerMapEntry,
} from '@app/edgar';
import { selectionHash as selectionHashOf } from '@app/checkpoints';
import type { Logger } from '@app/observability';
import { PublishGaveUpError } from '@app/messaging';
import { readCompaniesCheckpoint, removeCompaniesCheckpoint, writeCompaniesCheckpoint, type CompaniesCheckpoint } from './companies.checkpoint';
import { companyRecordOf, type FetchedSource } from './company.mapper';
import { selects, type IngestSecConfig } from './ingest-sec.config';
import { progressOf } from './run-stopped.error';

export const INGEST_SEC_CONFIG = Symbol('INGEST_SEC_CONFIG');
export const COMPANIES_TOPIC = Symbol('COMPANIES_TOPIC');
import { INGEST_LOGGER, RECORD_PUBLISHER, type RecordPublisher } from './ingest.providers';

export { INGEST_LOGGER, RECORD_PUBLISHER, type RecordPublisher } from './ingest.providers';

export interface IngestSecSummary {
  runId: string;
  tickerMapUrl: string;
  tickerMapRows: number;
  covered: number;
  published: number;
  withDetail: number;
  submissionsNotFound: number;
  /** Companies skipped because their submissions could not be fetched or parsed. */
  errors: number;
  durationMs: number;
  /** Covered companies a checkpoint of an earlier run said were published already (skipped). */
  resumedFrom: number;
}

/** The run stopped because the broker did not take records within the retry bound; the checkpoint says where to resume. */
export class IngestStoppedError extends Error {
  constructor(
    readonly summary: IngestSecSummary,
    /** Covered companies handled (published, or skipped on an error) by this run and those it resumed. */
    readonly companiesDone: number,
    readonly checkpointPath: string,
    override readonly cause: PublishGaveUpError,
  ) {
    super(
      `stopped ${progressOf(companiesDone, summary.covered, 'companies')} (${summary.published} published in this run): ${cause.message}; ` +
        `checkpoint ${checkpointPath}: run the same command again to resume`,
    );
    this.name = 'IngestStoppedError';
  }
}

type SubmissionsOutcome =
  | { kind: 'ok'; source: FetchedSource; company: SubmissionsCompany }
  | { kind: 'not_found' }
  | { kind: 'skipped' }
  | { kind: 'error'; error: string };

/** Companies handled (fetched, mapped and published) per step. */
const CHUNK = 200;

/**
 * One run: fetch the ticker map -> pure parse -> for covered companies whose detail is wanted,
 * fetch + parse their submissions JSON -> pure map to company@1 -> publish. A 404 on submissions
 * publishes the company without detail; any other failure skips that company (its last good
 * record stays on the compacted topic) and counts as an error.
 */
@Injectable()
export class IngestSecService {
  constructor(
    @Inject(INGEST_SEC_CONFIG) private readonly config: IngestSecConfig,
    @Inject(EdgarClient) private readonly edgar: EdgarClient,
    @Inject(RECORD_PUBLISHER) private readonly publisher: RecordPublisher,
    @Inject(COMPANIES_TOPIC) private readonly topic: TopicDefinition,
    @Inject(INGEST_LOGGER) private readonly logger: Logger,
  ) {}

  async execute(command: { runId?: string } = {}): Promise<IngestSecSummary> {
    const started = Date.now();
    const runId = command.runId ?? `run_${randomUUID()}`;
    const log = this.logger.child({ runId });
    const { source: tickerMap, entries } = await this.fetchTickerMap(log);

    const seen = new Set<string>();
    const covered: TickerMapEntry[] = [];
    for (const entry of entries) {
      if (!selects(this.config.SEC_COVERAGE, entry.cik, entry.ticker)) continue;
      if (seen.has(entry.ticker)) {
        log.warn({ ticker: entry.ticker, cik: entry.cik }, 'duplicate ticker in the ticker map: first row kept');
        continue;
      }
      seen.add(entry.ticker);
      covered.push(entry);
    }
    log.info({ tickerMap: tickerMap.url, rows: entries.length, covered: covered.length }, 'ticker map read');

    const summary: IngestSecSummary = {
      runId,
      tickerMapUrl: tickerMap.url,
      tickerMapRows: entries.length,
      covered: covered.length,
      published: 0,
      withDetail: 0,
      submissionsNotFound: 0,
      errors: 0,
      durationMs: 0,
      resumedFrom: 0,
    };
    const checkpointPath = this.config.SEC_CHECKPOINT;
    const previous = await readCompaniesCheckpoint(checkpointPath);
    // Canonical JSON: SEC_SUBMISSIONS holds Sets of tickers and CIKs, which plain JSON.stringify writes as {}.
    const selectionHash = selectionHashOf({ covered: covered.map((e) => `${e.ticker}:${e.cik}`), submissions: this.config.SEC_SUBMISSIONS });
    if (previous && previous.ticker_map_hash === tickerMap.contentHash && previous.selection_hash === selectionHash && previous.covered_total === covered.length) {
      summary.resumedFrom = previous.covered_done;
      log.info({ checkpoint: checkpointPath, covered_done: previous.covered_done, of: covered.length }, 'resuming from the checkpoint of a stopped run');
    } else if (previous) {
      log.info({ checkpoint: checkpointPath }, 'checkpoint is of another ticker map or another selection of companies: starting over');
    }
    const checkpoint: CompaniesCheckpoint = {
      kind: 'sec-companies',
      ticker_map_hash: tickerMap.contentHash,
      selection_hash: selectionHash,
      covered_total: covered.length,
      covered_done: summary.resumedFrom,
      records_published: previous && summary.resumedFrom > 0 ? previous.records_published : 0,
      started_at: previous && summary.resumedFrom > 0 ? previous.started_at : new Date(started).toISOString(),
      updated_at: new Date(started).toISOString(),
    };
    // Several tickers can share a CIK (BRK-A, BRK-B): one fetch per CIK per run.
    const submissionsByCik = new Map<string, Promise<SubmissionsOutcome>>();
    let lastProgress = 0;

    for (let start = summary.resumedFrom; start < covered.length; start += CHUNK) {
      const chunk = covered.slice(start, start + CHUNK);
      const outcomes = await this.mapLimit(chunk, this.config.SEC_CONCURRENCY, (entry) => {
        let outcome = submissionsByCik.get(entry.cik);
        if (!outcome) {
          outcome = this.fetchSubmissions(entry, log);
          submissionsByCik.set(entry.cik, outcome);
        }
        return outcome;
      });

      const extractedAt = new Date().toISOString();
      const records: CompanyRecordV1[] = [];
      chunk.forEach((entry, i) => {
        const outcome = outcomes[i] ?? { kind: 'skipped' };
        switch (outcome.kind) {
          case 'error':
            summary.errors += 1;
            return;
          case 'not_found':
            summary.submissionsNotFound += 1;
            records.push(companyRecordOf(entry, tickerMap, null, { runId, origin: 'backfill', extractedAt }));
            return;
          case 'skipped':
            records.push(companyRecordOf(entry, tickerMap, null, { runId, origin: 'backfill', extractedAt }));
            return;
          case 'ok':
            summary.withDetail += 1;
            records.push(companyRecordOf(entry, tickerMap, outcome, { runId, origin: 'backfill', extractedAt }));
            return;
        }
      });
      try {
        await this.publisher.publish(this.topic, records);
      } catch (error) {
        if (!(error instanceof PublishGaveUpError)) throw error;
        summary.durationMs = Date.now() - started;
        await writeCompaniesCheckpoint(checkpointPath, { ...checkpoint, updated_at: new Date().toISOString() });
        throw new IngestStoppedError(summary, checkpoint.covered_done, checkpointPath, error);
      }
      summary.published += records.length;
      checkpoint.covered_done = start + chunk.length;
      checkpoint.records_published += records.length;

      const handled = start + chunk.length;
      if (Math.floor(handled / this.config.SEC_PROGRESS_EVERY) > Math.floor(lastProgress / this.config.SEC_PROGRESS_EVERY) || handled === covered.length) {
        log.info({ handled, of: covered.length, published: summary.published, withDetail: summary.withDetail, errors: summary.errors }, 'progress');
      }
      lastProgress = handled;
    }

    await removeCompaniesCheckpoint(checkpointPath);
    summary.durationMs = Date.now() - started;
    const { runId: _runId, ...totals } = summary;
    log.info({ ...totals, topic: this.topic.name }, 'ingest-sec run finished');
    return summary;
  }

  /** The configured ticker map; `exchange` falls back to the plain map when it is 404 or not what SEC publishes. */
  private async fetchTickerMap(log: Logger): Promise<{ source: FetchedSource; entries: TickerMapEntry[] }> {
    if (this.config.SEC_TICKER_MAP === 'exchange') {
      const result = await this.edgar.getWww(TICKER_MAP_EXCHANGE_PATH);
      if (result.kind === 'ok') {
        try {
          return { source: sourceOf(result), entries: parseTickerMapExchange(result.bytes) };
        } catch (error) {
          if (!(error instanceof EdgarParseError)) throw error;
          log.warn({ url: result.url, error: error.message }, 'exchange ticker map invalid: falling back to the plain map');
        }
      } else {
        log.warn({ url: result.url }, 'exchange ticker map not found: falling back to the plain map');
      }
    }
    const result = await this.edgar.getWww(TICKER_MAP_PATH);
    if (result.kind === 'not_found') throw new Error(`ticker map not found at ${result.url}`);
    return { source: sourceOf(result), entries: parseTickerMap(result.bytes) };
  }

  private async fetchSubmissions(entry: TickerMapEntry, log: Logger): Promise<SubmissionsOutcome> {
    if (!selects(this.config.SEC_SUBMISSIONS, entry.cik, entry.ticker)) return { kind: 'skipped' };
    try {
      const result = await this.edgar.getData(submissionsPath(entry.cik));
      if (result.kind === 'not_found') {
        log.info({ cik: entry.cik, ticker: entry.ticker, url: result.url }, 'no submissions JSON (404): published without detail');
        return { kind: 'not_found' };
      }
      return { kind: 'ok', source: sourceOf(result), company: parseSubmissions(result.bytes) };
    } catch (error) {
      if (!(error instanceof EdgarError) && !(error instanceof EdgarParseError)) throw error;
      log.error({ cik: entry.cik, ticker: entry.ticker, code: error instanceof EdgarError ? error.code : 'PARSE', error: error.message }, 'submissions failed: company skipped');
      return { kind: 'error', error: error.message };
    }
  }

  private async mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
    const results = new Array<R>(items.length);
    let next = 0;
    const worker = async () => {
      while (next < items.length) {
        const i = next;
        next += 1;
        results[i] = await fn(items[i] as T);
      }
    };
    await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
    return results;
  }
}

function sourceOf(result: { url: string; bytes: Buffer; fetchedAt: string }): FetchedSource {
  return { url: result.url, contentHash: contentHash(result.bytes), fetchedAt: result.fetchedAt };
}
