import { Inject, Injectable } from '@nestjs/common';
import { contentHash, type CompanyRecordV1, type FilingRecordV1, type TopicDefinition } from '@app/contracts';
import { EdgarParseError } from '@app/edgar';
import type { Logger } from '@app/observability';
import type { FetchedSource } from '../company.mapper';
import { INGEST_LOGGER, RECORD_PUBLISHER, type RecordPublisher } from '../ingest.providers';
import { classifyEntry, CompanyNames } from './bulk-entry';
import { bulkCheckpointSchema, type BulkCheckpoint } from './bulk.checkpoint';
import type { BulkConfig } from './bulk.config';
import { entityFileUrl, mainEntityRecords, overflowEntityRecords, type EntityRecords } from './bulk.mapper';
import type { QueuedUnit } from './bulk.publish-window';
import { runZipBackfill, type EntrySink, type ZipBackfillCommand, type ZipBackfillSummary, type ZipEntryJob, type ZipEntryRef } from './zip-backfill.runner';

export const BULK_CONFIG = Symbol('BULK_CONFIG');
export const BULK_TOPICS = Symbol('BULK_TOPICS');

export interface BulkTopics {
  filings: TopicDefinition;
  companies: TopicDefinition;
}

export type BulkBackfillCommand = ZipBackfillCommand<BulkCheckpoint>;

export interface BulkBackfillSummary extends ZipBackfillSummary {
  /** Records published by this run: filings + companies. */
  records_published: number;
  filings_published: number;
  companies_published: number;
  /** Rows without a form or a filing date: no filing@1. */
  rows_without_form_or_date: number;
  orphan_overflow: number;
}

type QueuedRecord = { topic: 'filings'; record: FilingRecordV1 } | { topic: 'companies'; record: CompanyRecordV1 };
type SubmissionsSummaryFields = Pick<BulkBackfillSummary, 'filings_published' | 'companies_published' | 'rows_without_form_or_date' | 'orphan_overflow'>;

/**
 * submissions.zip entry by entry -> the submissions parser -> filing@1 (every entity, overflow files
 * included) and company@1 (entities with tickers). An overflow file (`CIK…-submissions-001.json`,
 * which sorts before its main file) waits for its main file's company name; the names still needed
 * go into the checkpoint, so a resumed run can name the overflow files of a main file it skips.
 */
class SubmissionsZipJob implements ZipEntryJob<QueuedRecord, BulkCheckpoint, SubmissionsSummaryFields> {
  readonly kind = 'bulk-submissions' as const;
  readonly checkpointSchema = bulkCheckpointSchema;
  readonly label = 'submissions.zip';
  private readonly names = new CompanyNames();
  /** Overflow entries waiting for their main file, by CIK. */
  private readonly deferred = new Map<string, ZipEntryRef[]>();
  /** The CIK whose name each queued overflow entry used, by entry index. */
  private readonly overflowOf = new Map<number, string>();
  private readonly totals = { filings: 0, companies: 0, orphan: 0 };
  private readonly thisRun = { filings: 0, companies: 0, rowsSkipped: 0 };

  constructor(
    private readonly config: BulkConfig,
    private readonly publisher: RecordPublisher,
    private readonly topics: BulkTopics,
  ) {}

  restore(checkpoint: BulkCheckpoint): void {
    this.names.restore(checkpoint.pending_names);
    this.totals.filings = checkpoint.filings_published;
    this.totals.companies = checkpoint.companies_published;
    this.totals.orphan = checkpoint.orphan_overflow;
  }

  async entry(entry: ZipEntryRef, sink: EntrySink<QueuedRecord>): Promise<void> {
    const kind = classifyEntry(entry.name);
    switch (kind.kind) {
      case 'other':
        return sink.complete(entry, []);
      case 'main':
        return this.readMain(entry, kind.cik, sink);
      case 'overflow': {
        const name = this.names.nameOf(kind.cik);
        if (name !== undefined) return this.readOverflow(entry, { cik: kind.cik, name }, sink);
        // Its main file comes later (in name order `CIK…-submissions-001.json` sorts before `CIK….json`): read it then.
        this.deferred.set(kind.cik, [...(this.deferred.get(kind.cik) ?? []), entry]);
        return;
      }
    }
  }

  async end(sink: EntrySink<QueuedRecord>): Promise<void> {
    for (const [cik, waiting] of this.deferred) {
      for (const entry of waiting) {
        this.totals.orphan += 1;
        sink.log.warn({ entry: entry.name, cik }, 'overflow file without a main file in the archive: its filings cannot be named, skipped');
        await sink.complete(entry, []);
      }
    }
    this.deferred.clear();
  }

  private async readMain(entry: ZipEntryRef, cik: string, sink: EntrySink<QueuedRecord>): Promise<void> {
    const { text, source } = await this.read(entry);
    let records;
    try {
      records = mainEntityRecords(text, source, { runId: sink.runId, origin: 'backfill', extractedAt: new Date().toISOString() });
    } catch (error) {
      if (!(error instanceof EdgarParseError)) throw error;
      return sink.unreadable(entry, error);
    }
    this.names.remember({ ...records.company, cik });
    await this.complete(entry, records, sink);
    const waiting = this.deferred.get(cik);
    if (!waiting) return;
    this.deferred.delete(cik);
    for (const w of waiting) await this.readOverflow(w, { cik, name: records.company.name }, sink);
  }

  private async readOverflow(entry: ZipEntryRef, company: { cik: string; name: string }, sink: EntrySink<QueuedRecord>): Promise<void> {
    const { text, source } = await this.read(entry);
    let records;
    try {
      records = overflowEntityRecords(text, company, source, { runId: sink.runId, origin: 'backfill', extractedAt: new Date().toISOString() });
    } catch (error) {
      if (!(error instanceof EdgarParseError)) throw error;
      return sink.unreadable(entry, error);
    }
    this.overflowOf.set(entry.index, company.cik);
    await this.complete(entry, records, sink);
  }

  private async read(entry: ZipEntryRef): Promise<{ text: string; source: FetchedSource }> {
    const bytes = await entry.bytes();
    return { text: bytes.toString('utf8'), source: { url: entityFileUrl(this.config.EDGAR_DATA_BASE_URL, entry.name), contentHash: contentHash(bytes), fetchedAt: new Date().toISOString() } };
  }

  private complete(entry: ZipEntryRef, records: EntityRecords, sink: EntrySink<QueuedRecord>): Promise<void> {
    this.thisRun.rowsSkipped += records.skipped;
    return sink.complete(entry, [...records.companies.map((record) => ({ topic: 'companies' as const, record })), ...records.filings.map((record) => ({ topic: 'filings' as const, record }))]);
  }

  /** A batch to the broker: companies first, then filings. */
  async publish(batch: readonly QueuedRecord[]): Promise<void> {
    const companies = batch.flatMap((q) => (q.topic === 'companies' ? [q.record] : []));
    const filings = batch.flatMap((q) => (q.topic === 'filings' ? [q.record] : []));
    if (companies.length > 0) await this.publisher.publish(this.topics.companies, companies);
    if (filings.length > 0) await this.publisher.publish(this.topics.filings, filings);
  }

  acknowledged(entries: readonly QueuedUnit[], batch: readonly QueuedRecord[]): void {
    const companies = batch.filter((q) => q.topic === 'companies').length;
    this.totals.companies += companies;
    this.thisRun.companies += companies;
    this.totals.filings += batch.length - companies;
    this.thisRun.filings += batch.length - companies;
    for (const done of entries) {
      const cik = this.overflowOf.get(done.index);
      if (cik === undefined) continue;
      this.overflowOf.delete(done.index);
      this.names.overflowDone(cik, done.name);
    }
  }

  checkpointFields() {
    return {
      filings_published: this.totals.filings,
      companies_published: this.totals.companies,
      pending_names: this.names.snapshot(),
      orphan_overflow: this.totals.orphan,
    };
  }

  summaryFields(): SubmissionsSummaryFields {
    return {
      filings_published: this.thisRun.filings,
      companies_published: this.thisRun.companies,
      rows_without_form_or_date: this.thisRun.rowsSkipped,
      orphan_overflow: this.totals.orphan,
    };
  }
}

/**
 * Bulk backfill from SEC's nightly submissions.zip through the shared zip runner: resumable, memory
 * bounded by one publish batch, one entry and the overflow files waiting for their main file.
 */
@Injectable()
export class BulkBackfillService {
  constructor(
    @Inject(BULK_CONFIG) private readonly config: BulkConfig,
    @Inject(RECORD_PUBLISHER) private readonly publisher: RecordPublisher,
    @Inject(BULK_TOPICS) private readonly topics: BulkTopics,
    @Inject(INGEST_LOGGER) private readonly logger: Logger,
  ) {}

  execute(command: BulkBackfillCommand): Promise<BulkBackfillSummary> {
    return runZipBackfill(new SubmissionsZipJob(this.config, this.publisher, this.topics), { config: this.config, logger: this.logger }, command);
  }
}
