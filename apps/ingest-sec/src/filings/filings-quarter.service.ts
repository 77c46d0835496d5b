import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { contentHash, type FilingRecordV1, type TopicDefinition } from '@app/contracts';
import { EdgarClient, fullIndexPath, parseDailyIndex } from '@app/edgar';
import type { Logger } from '@app/observability';
import { INGEST_LOGGER, RECORD_PUBLISHER, type RecordPublisher } from '../ingest.providers';
import { filingRecordFromFeed } from './filing.mapper';
import { FILINGS_TOPIC } from './filings-backfill.service';

export interface QuarterCommand {
  year: number;
  quarter: 1 | 2 | 3 | 4;
  /** Form types to publish, as the index prints them (NPORT-P, NPORT-P/A). */
  forms: readonly string[];
  runId?: string;
}

export interface QuarterSummary {
  runId: string;
  url: string;
  index: 'ok' | 'not_published';
  /** Rows of the index, every form. */
  rows: number;
  /** filing@1 records published: one per accession of the forms asked for. */
  published: number;
  durationMs: number;
}

/** Records per publish call: a quarter of NPORT-P is ~40,000 filings. */
const PUBLISH_CHUNK = 1000;

/**
 * A quarter's history of some forms from EDGAR's quarterly full index (one request): each filing of
 * those forms becomes a filing@1 record on edgar.filings.v1, so the followers read it as they read
 * a live one. For forms read whoever files them (N-PORT: the holdings name covered companies), so no
 * coverage filter applies. The records name the filing index page and say source `daily_index`:
 * the full index is the quarter's daily form indexes in one file.
 */
@Injectable()
export class FilingsQuarterService {
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

  async execute(command: QuarterCommand): Promise<QuarterSummary> {
    const started = Date.now();
    const runId = command.runId ?? `run_${randomUUID()}`;
    const log = this.logger.child({ runId, use: 'filings-quarter' });
    const index = await this.edgar.getWww(fullIndexPath(command.year, command.quarter));
    if (index.kind === 'not_found') {
      log.warn({ url: index.url }, 'full index not published (404)');
      return { runId, url: index.url, index: 'not_published', rows: 0, published: 0, durationMs: Date.now() - started };
    }
    const forms = new Set(command.forms.map((f) => f.trim().toUpperCase()));
    const source = { url: index.url, contentHash: contentHash(index.bytes), fetchedAt: index.fetchedAt };
    const ctx = { runId, origin: 'backfill' as const, extractedAt: new Date().toISOString() };
    const { entries } = parseDailyIndex(index.bytes);
    // A filing with several filers is listed once per filer: one record per accession, the first row's.
    const byAccession = new Map<string, FilingRecordV1>();
    for (const e of entries) {
      if (forms.has(e.form.toUpperCase()) && !byAccession.has(e.accession)) byAccession.set(e.accession, filingRecordFromFeed('daily_index', e, source, ctx));
    }
    const records = [...byAccession.values()];
    for (let at = 0; at < records.length; at += PUBLISH_CHUNK) await this.publisher.publish(this.topic, records.slice(at, at + PUBLISH_CHUNK));
    const summary: QuarterSummary = { runId, url: index.url, index: 'ok', rows: entries.length, published: records.length, durationMs: Date.now() - started };
    log.info({ ...summary, forms: [...forms], topic: this.topic.name }, 'quarter of filings published');
    return summary;
  }
}
