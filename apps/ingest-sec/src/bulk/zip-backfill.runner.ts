import { randomUUID } from 'node:crypto';
import type { Entry } from 'yauzl';
import type { z } from 'zod';
import type { EdgarBudget } from '@app/edgar';
import type { Logger } from '@app/observability';
import { progressOf, stoppedBy } from '../run-stopped.error';
import { DonePrefix } from './bulk-entry';
import { readArchiveCheckpoint, sameArchive, writeArchiveCheckpoint, type ZipEntriesCheckpoint } from './bulk.checkpoint';
import type { BulkConfig } from './bulk.config';
import { progressReporter, type ProgressReporter } from './bulk.progress';
import { PublishWindow, type QueuedUnit } from './bulk.publish-window';
import { httpZipOptions, openZipArchive, readEntry, type ZipArchive } from './zip.source';

export interface ZipBackfillCommand<C> {
  /** Path or URL of the archive. */
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
  onCheckpoint?: (checkpoint: C) => void;
  /** Tests: a budget of their own for URL reads; else the process-wide one. */
  budget?: EdgarBudget;
}

/** What every entry-by-entry load reports; a job adds its own counts. */
export interface ZipBackfillSummary {
  run_id: string;
  source: string;
  /** finished; already_finished (the checkpoint says so: nothing read); stopped (by the signal). */
  status: 'finished' | 'already_finished' | 'stopped';
  entries_total: number;
  /** Entries done in archive order, over every run of this archive. */
  entries_done: number;
  /** Done by earlier runs, skipped by this one. */
  entries_skipped: number;
  /** Entries read by this run. */
  entries_read: number;
  /** Records published by this run. */
  records_published: number;
  unreadable_entries: number;
  http_requests: number;
  seconds: number;
  records_per_s: number;
  peak_rss_mb: number;
  checkpoint: string;
}

/** One entry of the archive, read when asked. */
export interface ZipEntryRef {
  index: number;
  name: string;
  bytes(): Promise<Buffer>;
}

/** What a job is given while it reads entries. */
export interface EntrySink<Q> {
  readonly runId: string;
  readonly log: Logger;
  /** An entry is read: its items go out with the next batches, and it is done once they are acknowledged. None is fine. */
  complete(entry: ZipEntryRef, items: readonly Q[]): Promise<void>;
  /** An entry that could not be parsed: logged, counted, done without records. */
  unreadable(entry: ZipEntryRef, error: Error): Promise<void>;
}

/**
 * What one kind of archive (submissions.zip, companyfacts.zip) adds to the shared runner: how an
 * entry becomes records and how they are published, the counts it keeps, and the fields they add
 * to the checkpoint and the summary. A job holds the state of one run.
 */
export interface ZipEntryJob<Q, C extends ZipEntriesCheckpoint, S extends object> {
  readonly kind: C['kind'];
  /** Its checkpoint: the shared fields and its own. */
  readonly checkpointSchema: z.ZodType<C>;
  /** The archive's name on the progress bar. */
  readonly label: string;
  /** A resumed run: the job's own state as the checkpoint left it. */
  restore(checkpoint: C): void;
  /** One entry, in archive order: `sink.complete` (or `unreadable`) it now, or once it can (then `end` must). */
  entry(entry: ZipEntryRef, sink: EntrySink<Q>): Promise<void>;
  /** After the last entry: completes the entries still waiting. */
  end(sink: EntrySink<Q>): Promise<void>;
  publish(batch: readonly Q[]): Promise<void>;
  /** The broker took `batch`, every item of `entries`: count them. */
  acknowledged(entries: readonly QueuedUnit[], batch: readonly Q[]): void;
  /** Its own checkpoint fields. */
  checkpointFields(): Omit<C, keyof ZipEntriesCheckpoint>;
  /** Its own summary fields (this run's counts). */
  summaryFields(): S;
}

export interface ZipBackfillDeps {
  config: BulkConfig;
  logger: Logger;
}

/**
 * A bulk load of a zip of one file per entity (yauzl, random access over a file or HTTP ranges),
 * entry by entry in archive order: the job maps each entry, the runner publishes in batches while
 * the next entries are read and writes the checkpoint after each acknowledged batch, so the same
 * command resumes after the last entry the broker took. Memory is bounded by one publish batch,
 * one entry and whatever the job keeps waiting.
 */
export async function runZipBackfill<Q, C extends ZipEntriesCheckpoint, S extends object>(
  job: ZipEntryJob<Q, C, S>,
  deps: ZipBackfillDeps,
  command: ZipBackfillCommand<C>,
): Promise<ZipBackfillSummary & S> {
  const runId = command.runId ?? `run_${randomUUID()}`;
  const log = deps.logger.child({ runId, use: job.kind });
  const archive = await openZipArchive(command.source, httpZipOptions(deps.config, deps.logger, command.budget));
  const progress = progressReporter({ tty: command.tty ?? false, logger: log, intervalMs: deps.config.BULK_PROGRESS_INTERVAL_S * 1000, label: job.label });
  try {
    let checkpoint = command.restart ? null : await readArchiveCheckpoint(command.checkpointPath, job.checkpointSchema, job.kind);
    if (checkpoint && !sameArchive(checkpoint, command.source, archive.version)) {
      log.warn({ checkpoint: command.checkpointPath, was: { source: checkpoint.source, ...checkpoint.archive }, now: { source: command.source, ...archive.version } }, 'checkpoint is of another archive: starting over');
      checkpoint = null;
    }
    if (checkpoint) job.restore(checkpoint);
    return await new ZipBackfillRun(job, deps.config, log, archive, command, runId, checkpoint, progress).execute();
  } finally {
    progress.stop();
    archive.close();
  }
}

/** The state of one run (one archive, one checkpoint). */
class ZipBackfillRun<Q, C extends ZipEntriesCheckpoint, S extends object> implements EntrySink<Q> {
  private readonly started = Date.now();
  private readonly startedAt: string;
  private readonly total: number;
  private readonly prefix: DonePrefix;
  private readonly resumeFrom: number;
  private readonly window: PublishWindow<Q>;
  private entriesSeen = 0;
  private readonly totals: { records: number; unreadable: number };
  private readonly thisRun = { records: 0, read: 0 };

  constructor(
    private readonly job: ZipEntryJob<Q, C, S>,
    config: BulkConfig,
    readonly log: Logger,
    private readonly archive: ZipArchive,
    private readonly command: ZipBackfillCommand<C>,
    readonly runId: string,
    private readonly checkpoint: C | null,
    private readonly progress: ProgressReporter,
  ) {
    this.total = archive.zip.entryCount;
    this.resumeFrom = checkpoint?.entries_done ?? 0;
    this.prefix = new DonePrefix(this.resumeFrom, checkpoint?.last_done ?? null);
    this.startedAt = checkpoint?.started_at ?? new Date(this.started).toISOString();
    this.totals = { records: checkpoint?.records_published ?? 0, unreadable: checkpoint?.unreadable_entries ?? 0 };
    this.window = new PublishWindow(
      config.BULK_PUBLISH_BATCH,
      (batch) => this.job.publish(batch),
      (entries, batch) => this.acknowledged(entries, batch),
    );
  }

  async execute(): Promise<ZipBackfillSummary & S> {
    try {
      return await this.run();
    } catch (error) {
      // The checkpoint holds the entries the broker acknowledged: the same command resumes after them.
      throw stoppedBy(error, () => {
        const { status: _status, ...done } = this.summary('stopped');
        return {
          progress: `${progressOf(done.entries_done, done.entries_total, 'entries')} (${done.records_published} records published in this run)`,
          done,
          resume: `checkpoint ${this.command.checkpointPath}: run the same command again to resume at entry ${done.entries_done + 1}`,
        };
      });
    }
  }

  private async run(): Promise<ZipBackfillSummary & S> {
    if (this.checkpoint?.finished_at) {
      this.log.info({ checkpoint: this.command.checkpointPath, finished_at: this.checkpoint.finished_at }, 'this archive is already loaded (use --restart to run it again)');
      return this.summary('already_finished');
    }
    this.log.info({ source: this.command.source, entries_total: this.total, resume_from: this.resumeFrom, archive: this.archive.version }, 'bulk load started');
    for await (const entry of this.archive.zip.eachEntry()) {
      const index = this.entriesSeen;
      this.entriesSeen += 1;
      if (index < this.resumeFrom) continue;
      if (this.command.signal?.aborted) {
        // What is acknowledged is checkpointed; the queued records are dropped (a rerun reads their entries again).
        await this.window.settle();
        this.log.warn({ entries_done: this.prefix.count, records_published: this.totals.records }, 'bulk load stopped');
        return this.summary('stopped');
      }
      await this.job.entry(this.ref(index, entry), this);
      this.reportProgress();
    }
    await this.job.end(this);
    await this.window.drain();
    if (this.prefix.count !== this.total) throw new Error(`bulk load ended with ${this.prefix.count} of ${this.total} entries done`);
    await this.saveCheckpoint(new Date().toISOString());
    this.reportProgress();
    const summary = this.summary('finished');
    const logged: ZipBackfillSummary = summary;
    this.log.info(logged, 'bulk load finished');
    return summary;
  }

  private ref(index: number, entry: Entry): ZipEntryRef {
    return {
      index,
      name: entry.fileName,
      bytes: async () => {
        const bytes = await readEntry(this.archive.zip, entry);
        this.thisRun.read += 1;
        return bytes;
      },
    };
  }

  complete(entry: ZipEntryRef, items: readonly Q[]): Promise<void> {
    return this.window.add({ index: entry.index, name: entry.name }, items);
  }

  unreadable(entry: ZipEntryRef, error: Error): Promise<void> {
    this.totals.unreadable += 1;
    this.log.warn({ entry: entry.name, error: error.message }, 'entry unreadable: skipped');
    return this.complete(entry, []);
  }

  /** Once the broker acknowledged a batch, its entries are done and the checkpoint says so. */
  private async acknowledged(entries: QueuedUnit[], batch: readonly Q[]): Promise<void> {
    this.totals.records += batch.length;
    this.thisRun.records += batch.length;
    this.job.acknowledged(entries, batch);
    for (const done of entries) this.prefix.markDone(done.index, done.name);
    await this.saveCheckpoint(null);
  }

  private async saveCheckpoint(finishedAt: string | null): Promise<void> {
    const shared: ZipEntriesCheckpoint = {
      kind: this.job.kind,
      source: this.command.source,
      entries_total: this.total,
      entries_done: this.prefix.count,
      records_published: this.totals.records,
      last_done: this.prefix.lastName,
      started_at: this.startedAt,
      updated_at: new Date().toISOString(),
      finished_at: finishedAt,
      archive: this.archive.version,
      unreadable_entries: this.totals.unreadable,
    };
    // Parsed as it will be read back: a job whose fields do not make its checkpoint fails here, not on the resume.
    const checkpoint = this.job.checkpointSchema.parse({ ...shared, ...this.job.checkpointFields() });
    await writeArchiveCheckpoint(this.command.checkpointPath, checkpoint);
    this.command.onCheckpoint?.(checkpoint);
  }

  private reportProgress(): void {
    this.progress.update({
      entriesDone: this.entriesSeen,
      entriesTotal: this.total,
      entriesAtStart: this.resumeFrom,
      recordsPublished: this.totals.records,
      recordsThisRun: this.thisRun.records,
      elapsedMs: Date.now() - this.started,
    });
  }

  private summary(status: ZipBackfillSummary['status']): ZipBackfillSummary & S {
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
      unreadable_entries: this.totals.unreadable,
      ...this.job.summaryFields(),
      http_requests: this.archive.requests(),
      seconds: Math.round(seconds * 100) / 100,
      records_per_s: seconds > 0 ? Math.round(this.thisRun.records / seconds) : 0,
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
      checkpoint: this.command.checkpointPath,
    };
  }
}
