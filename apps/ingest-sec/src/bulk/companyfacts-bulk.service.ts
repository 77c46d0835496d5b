import { Inject, Injectable } from '@nestjs/common';
import { contentHash, type TopicDefinition, type XbrlFactsRecordV1 } from '@app/contracts';
import { EdgarParseError, parseCompanyFacts } from '@app/edgar';
import type { Logger } from '@app/observability';
import { companyFactsEntryUrl, companyFactsRecords, type OversizedConcept } from '../facts/companyfacts.mapper';
import { INGEST_LOGGER, RECORD_PUBLISHER, type RecordPublisher } from '../ingest.providers';
import { BULK_CONFIG } from './bulk-backfill.service';
import { companyFactsBulkCheckpointSchema, type CompanyFactsBulkCheckpoint } from './bulk.checkpoint';
import type { BulkConfig } from './bulk.config';
import type { QueuedUnit } from './bulk.publish-window';
import { runZipBackfill, type EntrySink, type ZipBackfillCommand, type ZipBackfillSummary, type ZipEntryJob, type ZipEntryRef } from './zip-backfill.runner';

export const COMPANY_FACTS_TOPIC = Symbol('COMPANY_FACTS_TOPIC');

export type CompanyFactsBulkCommand = ZipBackfillCommand<CompanyFactsBulkCheckpoint>;

export interface CompanyFactsBulkSummary extends ZipBackfillSummary {
  /** Companies whose records this run published. */
  companies_published: number;
  /** Company files with no fact at all (`"facts": {}`: the entity never filed XBRL). */
  companies_without_facts: number;
  facts_published: number;
  /** Reports SEC lists without an accession or a form (not publishable), this run. */
  facts_skipped: number;
  /** Concepts refused as too large for one record, this run (the first 100, with their company). */
  concepts_too_large: Array<OversizedConcept & { cik: string }>;
  /** Concepts refused over every run of this archive. */
  concepts_too_large_total: number;
}

type CompanyFactsSummaryFields = Omit<CompanyFactsBulkSummary, keyof ZipBackfillSummary>;

/** `CIK##########.json`: one company's facts; anything else in the archive is not ours. */
const ENTRY_RE = /^(?:.*\/)?CIK(\d{10})\.json$/;
const OVERSIZED_LISTED = 100;

/**
 * companyfacts.zip entry by entry -> parseCompanyFacts -> one xbrl-facts@1 record per concept, the
 * same records `ingest-sec facts` makes of the same file (the source URL is the file's data.sec.gov
 * address, the hash of the entry's bytes), so a company loaded both ways has the same ids.
 */
class CompanyFactsZipJob implements ZipEntryJob<XbrlFactsRecordV1, CompanyFactsBulkCheckpoint, CompanyFactsSummaryFields> {
  readonly kind = 'bulk-companyfacts' as const;
  readonly checkpointSchema = companyFactsBulkCheckpointSchema;
  readonly label = 'companyfacts.zip';
  private readonly totals = { companies: 0, facts: 0, tooLarge: 0 };
  private readonly thisRun = { companies: 0, withoutFacts: 0, facts: 0, skipped: 0 };
  private readonly tooLarge: CompanyFactsSummaryFields['concepts_too_large'] = [];
  /** Queued entries that hold records, by index: a company is published once its entry is acknowledged. */
  private readonly withRecords = new Set<number>();

  constructor(
    private readonly config: BulkConfig,
    private readonly publisher: RecordPublisher,
    private readonly topic: TopicDefinition,
  ) {}

  restore(checkpoint: CompanyFactsBulkCheckpoint): void {
    this.totals.companies = checkpoint.companies_published;
    this.totals.facts = checkpoint.facts_published;
    this.totals.tooLarge = checkpoint.concepts_too_large;
  }

  async entry(entry: ZipEntryRef, sink: EntrySink<XbrlFactsRecordV1>): Promise<void> {
    const cik = ENTRY_RE.exec(entry.name)?.[1];
    if (!cik) return sink.complete(entry, []);
    const bytes = await entry.bytes();
    const source = { url: companyFactsEntryUrl(this.config.EDGAR_DATA_BASE_URL, entry.name), contentHash: contentHash(bytes), fetchedAt: new Date().toISOString() };
    let mapped;
    try {
      const facts = parseCompanyFacts(bytes);
      if (facts.cik !== cik) throw new EdgarParseError('companyfacts', `${entry.name} holds the facts of CIK ${facts.cik}`);
      mapped = companyFactsRecords(facts, source, { runId: sink.runId, origin: 'backfill', extractedAt: new Date().toISOString() });
    } catch (error) {
      if (!(error instanceof EdgarParseError)) throw error;
      return sink.unreadable(entry, error);
    }
    this.thisRun.skipped += mapped.skippedFacts;
    if (mapped.records.length === 0 && mapped.oversized.length === 0) this.thisRun.withoutFacts += 1;
    if (mapped.oversized.length > 0) {
      // Counted when read, not when acknowledged: a resumed run that reads the entry again counts it again.
      this.totals.tooLarge += mapped.oversized.length;
      for (const o of mapped.oversized) if (this.tooLarge.length < OVERSIZED_LISTED) this.tooLarge.push({ cik, ...o });
      sink.log.error({ entry: entry.name, oversized: mapped.oversized }, "concepts over the record bound (Kafka's 1 MB message limit) not published");
    }
    if (mapped.records.length > 0) this.withRecords.add(entry.index);
    await sink.complete(entry, mapped.records);
  }

  end(): Promise<void> {
    return Promise.resolve();
  }

  publish(batch: readonly XbrlFactsRecordV1[]): Promise<void> {
    return this.publisher.publish(this.topic, batch);
  }

  acknowledged(entries: readonly QueuedUnit[], batch: readonly XbrlFactsRecordV1[]): void {
    const companies = entries.filter((e) => this.withRecords.delete(e.index)).length;
    const facts = batch.reduce((n, r) => n + r.data.facts.length, 0);
    this.totals.companies += companies;
    this.thisRun.companies += companies;
    this.totals.facts += facts;
    this.thisRun.facts += facts;
  }

  checkpointFields() {
    return { companies_published: this.totals.companies, facts_published: this.totals.facts, concepts_too_large: this.totals.tooLarge };
  }

  summaryFields(): CompanyFactsSummaryFields {
    return {
      companies_published: this.thisRun.companies,
      companies_without_facts: this.thisRun.withoutFacts,
      facts_published: this.thisRun.facts,
      facts_skipped: this.thisRun.skipped,
      concepts_too_large: [...this.tooLarge],
      concepts_too_large_total: this.totals.tooLarge,
    };
  }
}

/** Every company's facts from SEC's nightly companyfacts.zip, through the shared zip runner: resumable. */
@Injectable()
export class CompanyFactsBulkService {
  constructor(
    @Inject(BULK_CONFIG) private readonly config: BulkConfig,
    @Inject(RECORD_PUBLISHER) private readonly publisher: RecordPublisher,
    @Inject(COMPANY_FACTS_TOPIC) private readonly topic: TopicDefinition,
    @Inject(INGEST_LOGGER) private readonly logger: Logger,
  ) {}

  execute(command: CompanyFactsBulkCommand): Promise<CompanyFactsBulkSummary> {
    return runZipBackfill(new CompanyFactsZipJob(this.config, this.publisher, this.topic), { config: this.config, logger: this.logger }, command);
  }
}
