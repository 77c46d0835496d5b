import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Entry } from 'yauzl';
import type { ThirteenFHoldingsRecordV1, TopicDefinition } from '@app/contracts';
import {
  datasetAccessionOf,
  EdgarParseError,
  infoTableLineReader,
  parseThirteenFDatasetHeaders,
  thirteenFDatasetTableOf,
  type EdgarBudget,
  type ThirteenFDatasetFiling,
  type ThirteenFDatasetHeaderTexts,
  type ThirteenFDatasetTable,
  type ThirteenFHolding,
} from '@app/edgar';
import type { Logger } from '@app/observability';
import { INGEST_LOGGER, RECORD_PUBLISHER, type RecordPublisher } from '../ingest.providers';
import { progressOf, stoppedBy } from '../run-stopped.error';
import { DonePrefix } from './bulk-entry';
import { sameArchive } from './bulk.checkpoint';
import { progressReporter, type ProgressReporter } from './bulk.progress';
import { PublishWindow, type QueuedUnit } from './bulk.publish-window';
import { readThirteenFDatasetCheckpoint, writeThirteenFDatasetCheckpoint, type ThirteenFDatasetCheckpoint } from './thirteenf-dataset.checkpoint';
import type { ThirteenFDatasetConfig } from './thirteenf-dataset.config';
import { datasetFilingRecords, type DatasetContext } from './thirteenf-dataset.mapper';
import { entryLines, httpZipOptions, openZipArchive, readEntry, type ZipArchive } from './zip.source';

export const THIRTEENF_DATASET_CONFIG = Symbol('THIRTEENF_DATASET_CONFIG');
export const THIRTEENF_DATASET_TOPIC = Symbol('THIRTEENF_DATASET_TOPIC');

export interface ThirteenFDatasetCommand {
  /** Path or URL of the data-set zip. */
  source: string;
  /** The URL the records cite (the zip on sec.gov). */
  sourceUrl: string;
  checkpointPath: string;
  restart?: boolean;
  runId?: string;
  /** Stops the run between filings; what is acknowledged stays checkpointed. */
  signal?: AbortSignal;
  tty?: boolean;
  onCheckpoint?: (checkpoint: ThirteenFDatasetCheckpoint) => void;
  /** Tests: a budget of their own for URL reads; else the process-wide one. */
  budget?: EdgarBudget;
}

export interface ThirteenFDatasetSummary {
  run_id: string;
  source: string;
  status: 'finished' | 'already_finished' | 'stopped';
  /** Filings SUBMISSION lists. */
  filings_total: number;
  /** Filings done in load order, over every run of this data set. */
  filings_done: number;
  filings_skipped: number;
  /** Filings mapped by this run (notices included). */
  filings_read: number;
  records_published: number;
  holdings_published: number;
  infotable_rows: number;
  /** Whether every filing's INFOTABLE rows were one contiguous run (SEC's files are: memory then holds one filing). */
  infotable_grouped: boolean;
  /** Most INFOTABLE rows held at once (one filing's when grouped). */
  peak_rows_held: number;
  unreadable_filings: number;
  rows_without_submission: number;
  http_requests: number;
  seconds: number;
  records_per_s: number;
  holdings_per_s: number;
  peak_rss_mb: number;
  checkpoint: string;
}

/**
 * A copy of `s` that holds no reference to the string it was cut from: V8 keeps a slice's parent
 * alive, so an accession sliced from a line would keep the line's whole ~64 KB read chunk in memory
 * for as long as the map holds the key (thousands of filings: hundreds of MB).
 */
const ownString = (s: string): string => Buffer.from(s, 'utf8').toString('utf8');

interface RowStats {
  count: number;
  first: number;
  last: number;
}

/**
 * Bulk history from one of SEC's Form 13F data sets: the header tables (a few MB) are read whole
 * into one header per filing; INFOTABLE (~3M rows, ~1 GB a quarter) is streamed twice: a first
 * pass counts each accession's rows, the second hands each filing to the mapper the moment its
 * last row is read. SEC's INFOTABLE holds each filing's rows together, so memory holds one filing
 * at a time; a file that interleaves filings is still loaded right, holding the filings in
 * progress. Records go out through the follower's mapper on edgar.13f-holdings.v1, checkpointed
 * after each acknowledged batch like the submissions backfill.
 */
@Injectable()
export class ThirteenFDatasetService {
  constructor(
    @Inject(THIRTEENF_DATASET_CONFIG) private readonly config: ThirteenFDatasetConfig,
    @Inject(RECORD_PUBLISHER) private readonly publisher: RecordPublisher,
    @Inject(THIRTEENF_DATASET_TOPIC) private readonly topic: TopicDefinition,
    @Inject(INGEST_LOGGER) private readonly logger: Logger,
  ) {}

  async execute(command: ThirteenFDatasetCommand): Promise<ThirteenFDatasetSummary> {
    const runId = command.runId ?? `run_${randomUUID()}`;
    const log = this.logger.child({ runId, use: '13f-bulk' });
    const archive = await openZipArchive(command.source, httpZipOptions(this.config, this.logger, command.budget));
    const progress = progressReporter({ tty: command.tty ?? false, logger: log, intervalMs: this.config.BULK_PROGRESS_INTERVAL_S * 1000, label: '13F data set', unit: 'filings' });
    try {
      let checkpoint = command.restart ? null : await readThirteenFDatasetCheckpoint(command.checkpointPath);
      if (checkpoint && !sameArchive(checkpoint, command.source, archive.version)) {
        log.warn({ checkpoint: command.checkpointPath, was: { source: checkpoint.source, ...checkpoint.archive }, now: { source: command.source, ...archive.version } }, 'checkpoint is of another data set: starting over');
        checkpoint = null;
      }
      return await new ThirteenFDatasetRun(this.config, this.publisher, this.topic, log, archive, command, runId, checkpoint, progress).execute();
    } finally {
      progress.stop();
      archive.close();
    }
  }
}

class ThirteenFDatasetRun {
  private readonly started = Date.now();
  private readonly startedAt: string;
  private readonly resumeFrom: number;
  private readonly prefix: DonePrefix;
  private readonly window: PublishWindow<ThirteenFHoldingsRecordV1>;
  private readonly ctx: DatasetContext;
  private total = 0;
  private grouped = true;
  private peakHeld = 0;
  private infotableRows = 0;
  private readonly totals: { records: number; holdings: number; unreadable: number; orphanRows: number };
  private readonly thisRun = { records: 0, holdings: 0, filings: 0 };

  constructor(
    private readonly config: ThirteenFDatasetConfig,
    private readonly publisher: RecordPublisher,
    private readonly topic: TopicDefinition,
    private readonly log: Logger,
    private readonly archive: ZipArchive,
    private readonly command: ThirteenFDatasetCommand,
    private readonly runId: string,
    private readonly checkpoint: ThirteenFDatasetCheckpoint | null,
    private readonly progress: ProgressReporter,
  ) {
    this.resumeFrom = checkpoint?.entries_done ?? 0;
    this.prefix = new DonePrefix(this.resumeFrom, checkpoint?.last_done ?? null);
    this.startedAt = checkpoint?.started_at ?? new Date(this.started).toISOString();
    this.totals = {
      records: checkpoint?.records_published ?? 0,
      holdings: checkpoint?.holdings_published ?? 0,
      unreadable: checkpoint?.unreadable_filings ?? 0,
      orphanRows: checkpoint?.rows_without_submission ?? 0,
    };
    const now = new Date().toISOString();
    this.ctx = { sourceUrl: command.sourceUrl, runId, origin: 'backfill', fetchedAt: now, extractedAt: now };
    this.window = new PublishWindow(
      this.config.THIRTEENF_BULK_PUBLISH_BATCH,
      (records) => this.publisher.publish(this.topic, records),
      (units, records) => this.acknowledged(units, records),
    );
  }

  async execute(): Promise<ThirteenFDatasetSummary> {
    try {
      return await this.run();
    } catch (error) {
      throw stoppedBy(error, () => {
        const { status: _status, ...done } = this.summary('stopped');
        return {
          progress: `${progressOf(done.filings_done, done.filings_total, 'filings')} (${done.records_published} records published in this run)`,
          done,
          resume: `checkpoint ${this.command.checkpointPath}: run the same command again to resume at filing ${done.filings_done + 1}`,
        };
      });
    }
  }

  private async run(): Promise<ThirteenFDatasetSummary> {
    const entries = await this.tables();
    const infoTable = entries.get('infoTable');
    if (!entries.has('submission') || !infoTable) throw new Error(`${this.command.source}: not a Form 13F data set (no SUBMISSION.tsv or INFOTABLE.tsv)`);
    const headerTexts: ThirteenFDatasetHeaderTexts = {};
    for (const [table, entry] of entries) if (table !== 'infoTable') headerTexts[table] = (await readEntry(this.archive.zip, entry)).toString('utf8');
    const filings = parseThirteenFDatasetHeaders(headerTexts);
    this.total = filings.size;
    if (this.checkpoint?.finished_at) {
      this.log.info({ checkpoint: this.command.checkpointPath, finished_at: this.checkpoint.finished_at }, 'this data set is already loaded (use --restart to run it again)');
      return this.summary('already_finished');
    }

    // Pass 1: rows per accession, and whether each accession's rows are one run of lines.
    const stats = new Map<string, RowStats>();
    let lineNo = 0;
    for await (const line of entryLines(this.archive.zip, infoTable)) {
      lineNo += 1;
      if (lineNo === 1 || !line) continue;
      const accession = datasetAccessionOf(line);
      const s = stats.get(accession);
      if (s) {
        if (s.last !== lineNo - 1) this.grouped = false;
        s.count += 1;
        s.last = lineNo;
      } else stats.set(ownString(accession), { count: 1, first: lineNo, last: lineNo });
    }
    // Load order: filings with rows as INFOTABLE first has them, then the rest (notices) as SUBMISSION lists them.
    const order = [...stats.keys()].filter((a) => filings.has(a));
    const withRows = order.length;
    for (const a of filings.keys()) if (!stats.has(a)) order.push(a);
    const position = new Map(order.map((a, i) => [a, i]));
    // Counted once per data set (a resumed run has them from the checkpoint).
    if (!this.checkpoint) for (const [a, s] of stats) if (!filings.has(a)) this.totals.orphanRows += s.count;
    this.log.info({ source: this.command.source, filings_total: this.total, infotable_accessions: stats.size, grouped: this.grouped, resume_from: this.resumeFrom, archive: this.archive.version }, '13F data set load started');

    // Pass 2: each filing is mapped once its last row is read.
    const held = new Map<string, string[]>();
    let heldRows = 0;
    let read: ((line: string, index: number) => ThirteenFHolding) | null = null;
    lineNo = 0;
    for await (const line of entryLines(this.archive.zip, infoTable)) {
      lineNo += 1;
      if (lineNo === 1) {
        read = infoTableLineReader(line);
        continue;
      }
      if (!line) continue;
      this.infotableRows += 1;
      const accession = datasetAccessionOf(line);
      const at = position.get(accession);
      if (at === undefined || at < this.resumeFrom) continue;
      if (this.command.signal?.aborted) return this.stop();
      const rows = held.get(accession) ?? [];
      rows.push(line);
      held.set(accession, rows);
      heldRows += 1;
      this.peakHeld = Math.max(this.peakHeld, heldRows);
      if (rows.length < stats.get(accession)!.count) continue;
      held.delete(accession);
      heldRows -= rows.length;
      await this.complete(at, filings.get(accession)!, rows, read);
      this.reportProgress();
    }
    for (let at = Math.max(this.resumeFrom, withRows); at < order.length; at += 1) {
      if (this.command.signal?.aborted) return this.stop();
      const accession = order[at]!;
      await this.complete(at, filings.get(accession)!, [], read);
      this.reportProgress();
    }
    await this.window.drain();
    if (this.prefix.count !== order.length) throw new Error(`13F data set load ended with ${this.prefix.count} of ${order.length} filings done`);
    await this.saveCheckpoint(new Date().toISOString());
    this.reportProgress();
    const summary = this.summary('finished');
    this.log.info(summary, '13F data set load finished');
    return summary;
  }

  /** The data set's tables by name (the readme and metadata are not read). */
  private async tables(): Promise<Map<ThirteenFDatasetTable, Entry>> {
    const out = new Map<ThirteenFDatasetTable, Entry>();
    for await (const entry of this.archive.zip.eachEntry()) {
      const table = thirteenFDatasetTableOf(entry.fileName);
      if (table) out.set(table, entry);
    }
    return out;
  }

  private async stop(): Promise<ThirteenFDatasetSummary> {
    // What is acknowledged is checkpointed; what is queued is dropped (a rerun reads those filings again).
    await this.window.settle();
    this.log.warn({ filings_done: this.prefix.count, records_published: this.totals.records }, '13F data set load stopped');
    return this.summary('stopped');
  }

  private async complete(index: number, filing: ThirteenFDatasetFiling, rows: string[], read: ((line: string, index: number) => ThirteenFHolding) | null): Promise<void> {
    this.thisRun.filings += 1;
    let records: ThirteenFHoldingsRecordV1[] = [];
    try {
      records = datasetFilingRecords(filing, read ? rows.map(read) : [], this.ctx);
    } catch (error) {
      // A row that is not a holding, or a filing without what every record needs: that filing only is skipped.
      if (!(error instanceof EdgarParseError) && !(error instanceof RangeError)) throw error;
      this.totals.unreadable += 1;
      this.log.warn({ accession: filing.accession, error: error.message }, '13F filing unreadable in the data set: skipped');
    }
    await this.window.add({ index, name: filing.accession }, records);
  }

  private async acknowledged(units: QueuedUnit[], records: readonly ThirteenFHoldingsRecordV1[]): Promise<void> {
    const holdings = records.reduce((n, r) => n + r.data.holdings.length, 0);
    this.totals.records += records.length;
    this.thisRun.records += records.length;
    this.totals.holdings += holdings;
    this.thisRun.holdings += holdings;
    for (const u of units) this.prefix.markDone(u.index, u.name);
    await this.saveCheckpoint(null);
  }

  private async saveCheckpoint(finishedAt: string | null): Promise<void> {
    const checkpoint: ThirteenFDatasetCheckpoint = {
      kind: 'bulk-13f-dataset',
      source: this.command.source,
      entries_total: this.total,
      entries_done: this.prefix.count,
      records_published: this.totals.records,
      last_done: this.prefix.lastName,
      started_at: this.startedAt,
      updated_at: new Date().toISOString(),
      finished_at: finishedAt,
      archive: this.archive.version,
      holdings_published: this.totals.holdings,
      unreadable_filings: this.totals.unreadable,
      rows_without_submission: this.totals.orphanRows,
    };
    await writeThirteenFDatasetCheckpoint(this.command.checkpointPath, checkpoint);
    this.command.onCheckpoint?.(checkpoint);
  }

  private reportProgress(): void {
    this.progress.update({
      entriesDone: this.resumeFrom + this.thisRun.filings,
      entriesTotal: this.total,
      entriesAtStart: this.resumeFrom,
      recordsPublished: this.totals.records,
      recordsThisRun: this.thisRun.records,
      elapsedMs: Date.now() - this.started,
    });
  }

  private summary(status: ThirteenFDatasetSummary['status']): ThirteenFDatasetSummary {
    const seconds = (Date.now() - this.started) / 1000;
    return {
      run_id: this.runId,
      source: this.command.source,
      status,
      filings_total: this.total,
      filings_done: status === 'already_finished' ? this.total : this.prefix.count,
      filings_skipped: this.resumeFrom,
      filings_read: this.thisRun.filings,
      records_published: this.thisRun.records,
      holdings_published: this.thisRun.holdings,
      infotable_rows: this.infotableRows,
      infotable_grouped: this.grouped,
      peak_rows_held: this.peakHeld,
      unreadable_filings: this.totals.unreadable,
      rows_without_submission: this.totals.orphanRows,
      http_requests: this.archive.requests(),
      seconds: Math.round(seconds * 100) / 100,
      records_per_s: seconds > 0 ? Math.round(this.thisRun.records / seconds) : 0,
      holdings_per_s: seconds > 0 ? Math.round(this.thisRun.holdings / seconds) : 0,
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
      checkpoint: this.command.checkpointPath,
    };
  }
}
