import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { padCik, THIRTEENF_FORMS, type FilingData, type RecordEnvelope, type RecordOrigin, type TopicDefinition } from '@app/contracts';
import { EdgarClient, parseThirteenFSubmission } from '@app/edgar';
import { PermanentError } from '@app/messaging';
import type { Logger } from '@app/observability';
import { fetchCompleteSubmission } from '../complete-submission.fetcher';
import { INGEST_LOGGER, RECORD_PUBLISHER, type RecordPublisher } from '../ingest.providers';
import { filingRunStop, stoppedBy } from '../run-stopped.error';
import { isUnreadable } from '../unreadable-filing';
import { thirteenFHoldingsRecords } from './thirteenf.mapper';

export const THIRTEENF_HOLDINGS_TOPIC = Symbol('THIRTEENF_HOLDINGS_TOPIC');
export const THIRTEENF_MAX_BYTES = Symbol('THIRTEENF_MAX_BYTES');

/** One 13F filing to read: its filer and accession, and its filing@1 data when it came from edgar.filings.v1. */
export interface ThirteenFFilingCommand {
  cik: string;
  accession: string;
  known: FilingData | null;
}

export interface ThirteenFOutcome {
  accession: string;
  status: 'published' | 'not_found';
  quarter: string | null;
  holdings: number;
  records: number;
}

export interface ThirteenFSummary {
  runId: string;
  filings: number;
  published: number;
  notFound: number;
  holdings: number;
  durationMs: number;
}

/**
 * 13F use case: for each 13F-HR, 13F-HR/A, 13F-NT or 13F-NT/A, fetch its complete submission (one
 * request: header, primary document and information table) -> pure parse -> the value unit decided
 * from the filing date and the filing's own numbers -> 13f-holdings@1 records on
 * edgar.13f-holdings.v1, one chunk of at most THIRTEENF_HOLDINGS_PER_RECORD holdings each.
 */
@Injectable()
export class ThirteenFService {
  /** The same budget, for filings of the past (a backfill on the filings topic) in follow mode. */
  private readonly historyEdgar: EdgarClient;

  constructor(
    @Inject(EdgarClient) private readonly edgar: EdgarClient,
    @Inject(RECORD_PUBLISHER) private readonly publisher: RecordPublisher,
    @Inject(THIRTEENF_HOLDINGS_TOPIC) private readonly topic: TopicDefinition,
    @Inject(INGEST_LOGGER) private readonly logger: Logger,
    @Inject(THIRTEENF_MAX_BYTES) private readonly maxBytes: number,
  ) {
    this.historyEdgar = edgar.withPriority('backfill');
  }

  /** Whether a filing@1 record is a 13F report or notice (THIRTEENF_FORMS). */
  static wants(filing: Pick<FilingData, 'form'>): boolean {
    const form = filing.form.trim().toUpperCase();
    return THIRTEENF_FORMS.some((f) => f === form);
  }

  /** `--filing`: named 13F filings, one after the other; a broker outage stops the run (exit 75). Named filings are read on demand, not discovered: what they publish is history (origin backfill), unless the caller says they were missed live (`origin`). */
  async execute(command: { filings: readonly ThirteenFFilingCommand[]; origin?: RecordOrigin; runId?: string }): Promise<ThirteenFSummary> {
    const started = Date.now();
    const runId = command.runId ?? `run_${randomUUID()}`;
    const summary: ThirteenFSummary = { runId, filings: command.filings.length, published: 0, notFound: 0, holdings: 0, durationMs: 0 };
    for (const [i, filing] of command.filings.entries()) {
      let outcome: ThirteenFOutcome;
      try {
        outcome = await this.ingest(filing, runId, command.origin ?? 'backfill', this.edgar);
      } catch (error) {
        throw stoppedBy(error, () => filingRunStop(i, command.filings.length, summary, started, filing.accession));
      }
      if (outcome.status === 'not_found') summary.notFound += 1;
      else summary.published += 1;
      summary.holdings += outcome.holdings;
    }
    summary.durationMs = Date.now() - started;
    this.logger.info({ ...summary, topic: this.topic.name }, '13F run finished');
    return summary;
  }

  /**
   * Follow mode's effect for one filing@1 record. Not a 13F: nothing. A submission that cannot be
   * read (missing, unparsable, refused, too large, no manager or period) throws PermanentError, so
   * the consumer dead-letters the filing record with the reason; EDGAR or Kafka being unavailable
   * throws as is, and the consumer retries.
   */
  async handleFilingRecord(record: RecordEnvelope<FilingData>, runId: string): Promise<ThirteenFOutcome | null> {
    const filing = record.data;
    if (!ThirteenFService.wants(filing)) return null;
    let outcome: ThirteenFOutcome;
    try {
      // New filings at the module's priority (documents); a backfill's after them. What it publishes keeps the filing's origin.
      const edgar = record.origin === 'backfill' ? this.historyEdgar : this.edgar;
      outcome = await this.ingest({ cik: filing.cik, accession: filing.accession, known: filing }, runId, record.origin, edgar);
    } catch (error) {
      if (isUnreadable(error)) throw new PermanentError(`13F ${filing.accession}: ${error.message}`, { cause: error });
      throw error;
    }
    if (outcome.status === 'not_found') throw new PermanentError(`13F ${filing.accession}: complete submission not found`);
    return outcome;
  }

  private async ingest(command: ThirteenFFilingCommand, runId: string, origin: RecordOrigin, edgar: EdgarClient): Promise<ThirteenFOutcome> {
    const log = this.logger.child({ runId, useCase: '13f', accession: command.accession });
    const fetched = await fetchCompleteSubmission(edgar, padCik(command.cik), command.accession, this.maxBytes, { acceptedAt: command.known?.accepted_at });
    if (fetched.kind === 'not_found') {
      log.warn({ url: fetched.url }, '13F complete submission not found (404)');
      return { accession: command.accession, status: 'not_found', quarter: null, holdings: 0, records: 0 };
    }
    const known = command.known;
    const parsed = parseThirteenFSubmission(Buffer.from(fetched.bytes).toString('utf8'), known ? { filedDate: known.filed_date } : {});
    const records = thirteenFHoldingsRecords(parsed, {
      accession: command.accession,
      url: fetched.url,
      contentHash: fetched.contentHash,
      fetchedAt: fetched.fetchedAt,
      runId,
      origin,
      extractedAt: new Date().toISOString(),
      form: known?.form ?? null,
      filedDate: known?.filed_date ?? null,
      acceptedAt: parsed.acceptedAt ?? known?.accepted_at ?? null,
    });
    // Chunks share the key, so one partition, in order; the producer splits sends by bytes.
    await this.publisher.publish(this.topic, records);
    const { data } = records[0]!;
    log.info({ url: fetched.url, manager: data.manager.cik, quarter: data.quarter, form: data.form, holdings: data.chunk.holdings_total, records: records.length, valueUnit: data.value_unit }, '13F read');
    return { accession: command.accession, status: 'published', quarter: data.quarter, holdings: data.chunk.holdings_total, records: records.length };
  }
}
