import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Entry, ZipFile } from 'yauzl';
import { contentHash, type CompanyRecordV1, type FilingRecordV1, type TopicDefinition } from '@app/contracts';
import { EdgarParseError, type EdgarBudget } from '@app/edgar';
import type { Logger } from '@app/observability';
import type { FetchedSource, MapContext } from '../company.mapper';
import { INGEST_LOGGER, RECORD_PUBLISHER, type RecordPublisher } from '../ingest.providers';
import { stoppedBy } from '../run-stopped.error';
import { classifyEntry, CompanyNames, DonePrefix } from './bulk-entry';
import { readCheckpoint, sameArchive, writeCheckpoint, type BulkCheckpoint } from './bulk.checkpoint';
import type { BulkConfig } from './bulk.config';
import { entityFileUrl, mainEntityRecords, overflowEntityRecords, type EntityRecords } from './bulk.mapper';
import { progressReporter, type BulkProgress, type ProgressReporter } from './bulk.progress';
import { PublishWindow, type QueuedUnit } from './bulk.publish-window';
import { httpZipOptions, openZipArchive, readEntry, type ZipArchive } from './zip.source';

export const BULK_CONFIG = Symbol('BULK_CONFIG');
export const BULK_TOPICS = Symbol('BULK_TOPICS');

export interface BulkTopics {
  filings: TopicDefinition;
  companies: TopicDefinition;
}

export interface BulkBackfillCommand {
  /** Path or URL of submissions.zip. */
  source: string;
  checkpointPath: string;
  /** Ignore the checkpoint: start from the first entry. */
  restart?: boolean;
  runId?: string;
  /** Stops the run between entries; what is acknowledged stays checkpointed. */
  signal?: AbortSignal;
  /** A progress bar (terminal) or log lines. */
  tty?: boolean;
  /** After each checkpoint write (each acknowledged publish). */
  onCheckpoint?: (checkpoint: BulkCheckpoint) => void;
  /** Tests: a budget of their own for URL reads; else the process-wide one. */
  budget?: EdgarBudget;
}

export interface BulkBackfillSummary {
  run_id: string;
  source: string;
  /** finished; already_finished (the checkpoint says so: nothing read); stopped (by the signal). */
  status: 'finished' | 'already_finished' | 'stopped';
  entries_total: number;
  /** Entries done in archive order, over every run of this archive. */
  entries_done: number;
  /** Done by earlier runs, skipped by this one. */
  entries_skipped: number;
  /** Entity files read by this run. */
  entries_read: number;
  /** Records published by this run (filings + companies). */
  records_published: number;
  filings_published: number;
  companies_published: number;
  /** Rows without a form or a filing date: no filing@1. */
  rows_without_form_or_date: number;
  orphan_overflow: number;
  unreadable_entries: number;
  http_requests: number;
  seconds: number;
  records_per_s: number;
  peak_rss_mb: number;
  checkpoint: string;
}

interface QueuedEntry extends QueuedUnit {
  /** The CIK whose name this overflow file used. */
  overflowOf?: string;
}

type QueuedRecord = { topic: 'filings'; record: FilingRecordV1 } | { topic: 'companies'; record: CompanyRecordV1 };

const NO_RECORDS: EntityRecords = { filings: [], companies: [], skipped: 0 };

/**
 * Bulk backfill from SEC's nightly submissions.zip: entry by entry (yauzl, random access over a
 * file or HTTP ranges) -> the submissions parser -> filing@1 (every entity, overflow files
 * included) and company@1 (entities with tickers) -> the shared publisher. A checkpoint after each
 * acknowledged publish makes it resumable; memory is bounded by one publish batch, one entry and
 * the overflow files waiting for their main file.
 */
@Injectable()
export class BulkBackfillService {
  constructor(
    @Inject(BULK_CONFIG) private readonly config: BulkConfig,
    @Inject(RECORD_PUBLISHER) private readonly publisher: RecordPublisher,
    @Inject(BULK_TOPICS) private readonly topics: BulkTopics,
    @Inject(INGEST_LOGGER) private readonly logger: Logger,
  ) {}

  async execute(command: BulkBackfillCommand): Promise<BulkBackfillSummary> {
    const runId = command.runId ?? `run_${randomUUID()}`;
    const log = this.logger.child({ runId, use: 'bulk-backfill' });
    const archive = await openZipArchive(command.source, httpZipOptions(this.config, this.logger, command.budget));
    const progress = progressReporter({ tty: command.tty ?? false, logger: log, intervalMs: this.config.BULK_PROGRESS_INTERVAL_S * 1000 });
    try {
      let checkpoint = command.restart ? null : await readCheckpoint(command.checkpointPath);
      if (checkpoint && !sameArchive(checkpoint, command.source, archive.version)) {
        log.warn({ checkpoint: command.checkpointPath, was: { source: checkpoint.source, ...checkpoint.archive }, now: { source: command.source, ...archive.version } }, 'checkpoint is of another archive: starting over');
        checkpoint = null;
      }
      const run = new BulkRun(this.config, this.publisher, this.topics, log, archive, command, runId, checkpoint, progress);
      return await run.execute();
    } finally {
      progress.stop();
      archive.close();
    }
  }
}

/** The state of one run (one archive, one checkpoint). */
class BulkRun {
  private readonly started = Date.now();
  private readonly startedAt: string;
  private readonly zip: ZipFile;
  private readonly total: number;
  private readonly names = new CompanyNames();
  private readonly prefix: DonePrefix;
  private readonly resumeFrom: number;
  private readonly deferred = new Map<string, { index: number; entry: Entry }[]>();
  private readonly window: PublishWindow<QueuedRecord, QueuedEntry>;
  private entriesSeen = 0;
  private readonly totals: { records: number; filings: number; companies: number; orphan: number; unreadable: number };
  private readonly thisRun = { records: 0, filings: 0, companies: 0, read: 0, rowsSkipped: 0 };

  constructor(
    private readonly config: BulkConfig,
    private readonly publisher: RecordPublisher,
    private readonly topics: BulkTopics,
    private readonly log: Logger,
    private readonly archive: ZipArchive,
    private readonly command: BulkBackfillCommand,
    private readonly runId: string,
    private readonly checkpoint: BulkCheckpoint | null,
    private readonly progress: ProgressReporter,
  ) {
    this.zip = archive.zip;
    this.total = archive.zip.entryCount;
    this.resumeFrom = checkpoint?.entries_done ?? 0;
    this.prefix = new DonePrefix(this.resumeFrom, checkpoint?.done_names_hash_or_last_entry ?? null);
    this.startedAt = checkpoint?.started_at ?? new Date(this.started).toISOString();
    if (checkpoint) this.names.restore(checkpoint.pending_names);
    this.totals = {
      records: checkpoint?.records_published ?? 0,
      filings: checkpoint?.filings_published ?? 0,
      companies: checkpoint?.companies_published ?? 0,
      orphan: checkpoint?.orphan_overflow ?? 0,
      unreadable: checkpoint?.unreadable_entries ?? 0,
    };
    this.window = new PublishWindow(
      config.BULK_PUBLISH_BATCH,
      (batch) => this.publish(batch),
      (entries, batch) => this.acknowledged(entries, batch),
    );
  }

  async execute(): Promise<BulkBackfillSummary> {
    try {
      return await this.run();
    } catch (error) {
      // The checkpoint holds the entries the broker acknowledged: the same command resumes after them.
      throw stoppedBy(error, () => {
        const { status: _status, ...done } = this.summary('stopped');
        return {
          progress: `after ${done.entries_done} of ${done.entries_total} entries (${done.records_published} records published in this run)`,
          done,
          resume: `checkpoint ${this.command.checkpointPath}: run the same command again to resume at entry ${done.entries_done + 1}`,
        };
      });
    }
  }

  private async run(): Promise<BulkBackfillSummary> {
    if (this.checkpoint?.finished_at) {
      this.log.info({ checkpoint: this.command.checkpointPath, finished_at: this.checkpoint.finished_at }, 'this archive is already backfilled (use --restart to run it again)');
      return this.summary('already_finished');
    }
    this.log.info({ source: this.command.source, entries_total: this.total, resume_from: this.resumeFrom, archive: this.archive.version }, 'bulk backfill started');
    let stopped = false;
    for await (const entry of this.zip.eachEntry()) {
      const index = this.entriesSeen;
      this.entriesSeen += 1;
      if (index < this.resumeFrom) continue;
      if (this.command.signal?.aborted) {
        stopped = true;
        break;
      }
      await this.handle(index, entry);
      this.reportProgress();
    }
    if (stopped) {
      // What is acknowledged is checkpointed; the queued records are dropped (a rerun reads their entries again).
      await this.window.settle();
      this.log.warn({ entries_done: this.prefix.count, records_published: this.totals.records }, 'bulk backfill stopped');
      return this.summary('stopped');
    }
    for (const [cik, waiting] of this.deferred) {
      for (const { index, entry } of waiting) {
        this.totals.orphan += 1;
        this.log.warn({ entry: entry.fileName, cik }, 'overflow file without a main file in the archive: its filings cannot be named, skipped');
        await this.complete(index, entry.fileName, NO_RECORDS);
      }
    }
    this.deferred.clear();
    await this.window.drain();
    if (this.prefix.count !== this.total) throw new Error(`bulk backfill ended with ${this.prefix.count} of ${this.total} entries done`);
    await this.saveCheckpoint(new Date().toISOString());
    this.reportProgress();
    const summary = this.summary('finished');
    this.log.info(summary, 'bulk backfill finished');
    return summary;
  }

  private async handle(index: number, entry: Entry): Promise<void> {
    const kind = classifyEntry(entry.fileName);
    switch (kind.kind) {
      case 'other':
        return this.complete(index, entry.fileName, NO_RECORDS);
      case 'main':
        return this.readMain(index, entry, kind.cik);
      case 'overflow': {
        const name = this.names.nameOf(kind.cik);
        if (name !== undefined) return this.readOverflow(index, entry, { cik: kind.cik, name });
        // Its main file comes later (in name order `CIK…-submissions-001.json` sorts before `CIK….json`): read it then.
        const waiting = this.deferred.get(kind.cik) ?? [];
        waiting.push({ index, entry });
        this.deferred.set(kind.cik, waiting);
        return;
      }
    }
  }

  private async readMain(index: number, entry: Entry, cik: string): Promise<void> {
    const { text, source } = await this.read(entry);
    let records;
    try {
      records = mainEntityRecords(text, source, this.context());
    } catch (error) {
      if (!(error instanceof EdgarParseError)) throw error;
      return this.unreadable(index, entry, error);
    }
    this.names.remember({ ...records.company, cik });
    await this.complete(index, entry.fileName, records);
    const waiting = this.deferred.get(cik);
    if (!waiting) return;
    this.deferred.delete(cik);
    for (const w of waiting) await this.readOverflow(w.index, w.entry, { cik, name: records.company.name });
  }

  private async readOverflow(index: number, entry: Entry, company: { cik: string; name: string }): Promise<void> {
    const { text, source } = await this.read(entry);
    let records;
    try {
      records = overflowEntityRecords(text, company, source, this.context());
    } catch (error) {
      if (!(error instanceof EdgarParseError)) throw error;
      return this.unreadable(index, entry, error);
    }
    await this.complete(index, entry.fileName, records, company.cik);
  }

  private async unreadable(index: number, entry: Entry, error: Error): Promise<void> {
    this.totals.unreadable += 1;
    this.log.warn({ entry: entry.fileName, error: error.message }, 'entity file unreadable: skipped');
    await this.complete(index, entry.fileName, NO_RECORDS);
  }

  private async read(entry: Entry): Promise<{ text: string; source: FetchedSource }> {
    const bytes = await readEntry(this.zip, entry);
    this.thisRun.read += 1;
    const source = { url: entityFileUrl(this.config.EDGAR_DATA_BASE_URL, entry.fileName), contentHash: contentHash(bytes), fetchedAt: new Date().toISOString() };
    return { text: bytes.toString('utf8'), source };
  }

  private context(): MapContext {
    return { runId: this.runId, extractedAt: new Date().toISOString() };
  }

  /** Queues an entry's records; publishes when a batch is full. */
  private async complete(index: number, name: string, records: EntityRecords, overflowOf?: string): Promise<void> {
    this.thisRun.rowsSkipped += records.skipped;
    const queued: QueuedRecord[] = [...records.companies.map((record) => ({ topic: 'companies' as const, record })), ...records.filings.map((record) => ({ topic: 'filings' as const, record }))];
    await this.window.add({ index, name, ...(overflowOf ? { overflowOf } : {}) }, queued);
  }

  /** A batch to the broker: companies first, then filings. */
  private async publish(batch: readonly QueuedRecord[]): Promise<void> {
    const companies = batch.flatMap((q) => (q.topic === 'companies' ? [q.record] : []));
    const filings = batch.flatMap((q) => (q.topic === 'filings' ? [q.record] : []));
    if (companies.length > 0) await this.publisher.publish(this.topics.companies, companies);
    if (filings.length > 0) await this.publisher.publish(this.topics.filings, filings);
  }

  /** Once the broker acknowledged a batch, its entries are done and the checkpoint says so. */
  private async acknowledged(entries: readonly QueuedEntry[], batch: readonly QueuedRecord[]): Promise<void> {
    const companies = batch.filter((q) => q.topic === 'companies').length;
    const filings = batch.length - companies;
    this.totals.records += batch.length;
    this.totals.filings += filings;
    this.totals.companies += companies;
    this.thisRun.records += batch.length;
    this.thisRun.filings += filings;
    this.thisRun.companies += companies;
    for (const done of entries) {
      this.prefix.markDone(done.index, done.name);
      if (done.overflowOf) this.names.overflowDone(done.overflowOf, done.name);
    }
    await this.saveCheckpoint(null);
  }

  private async saveCheckpoint(finishedAt: string | null): Promise<void> {
    const checkpoint: BulkCheckpoint = {
      kind: 'bulk-submissions',
      source: this.command.source,
      entries_total: this.total,
      entries_done: this.prefix.count,
      records_published: this.totals.records,
      done_names_hash_or_last_entry: this.prefix.lastName,
      started_at: this.startedAt,
      updated_at: new Date().toISOString(),
      finished_at: finishedAt,
      archive: this.archive.version,
      filings_published: this.totals.filings,
      companies_published: this.totals.companies,
      pending_names: this.names.snapshot(),
      orphan_overflow: this.totals.orphan,
      unreadable_entries: this.totals.unreadable,
    };
    await writeCheckpoint(this.command.checkpointPath, checkpoint);
    this.command.onCheckpoint?.(checkpoint);
  }

  private reportProgress(): void {
    const p: BulkProgress = {
      entriesDone: this.entriesSeen,
      entriesTotal: this.total,
      entriesAtStart: this.resumeFrom,
      recordsPublished: this.totals.records,
      recordsThisRun: this.thisRun.records,
      elapsedMs: Date.now() - this.started,
    };
    this.progress.update(p);
  }

  private summary(status: BulkBackfillSummary['status']): BulkBackfillSummary {
    const seconds = (Date.now() - this.started) / 1000;
    return {
      run_id: this.runId,
      source: this.command.source,
      status,
      entries_total: this.total,
      entries_done: status === 'already_finished' ? this.total : this.prefix.count,
      entries_skipped: this.resumeFrom,
      entries_read: this.thisRun.read,
      records_published: this.thisRun.records,
      filings_published: this.thisRun.filings,
      companies_published: this.thisRun.companies,
      rows_without_form_or_date: this.thisRun.rowsSkipped,
      orphan_overflow: this.totals.orphan,
      unreadable_entries: this.totals.unreadable,
      http_requests: this.archive.requests(),
      seconds: Math.round(seconds * 100) / 100,
      records_per_s: seconds > 0 ? Math.round(this.thisRun.records / seconds) : 0,
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
      checkpoint: this.command.checkpointPath,
    };
  }
}

