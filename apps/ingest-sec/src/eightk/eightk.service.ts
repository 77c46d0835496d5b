import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { padCik, type DocumentFiling, type DocumentTextRecordV1, type FilingData, type RecordEnvelope, type RecordOrigin, type TopicDefinition } from '@app/contracts';
import { DecksError } from '@app/decks';
import {
  archivesDocumentPath,
  classifyExhibit,
  EdgarClient,
  EdgarParseError,
  exhibitPages,
  exhibitTitle,
  isEightKForm,
  parseCompleteSubmission,
} from '@app/edgar';
import { PermanentError } from '@app/messaging';
import type { Logger } from '@app/observability';
import { INGEST_LOGGER, RECORD_PUBLISHER, type RecordPublisher } from '../ingest.providers';
import { filingRunStop, stoppedBy } from '../run-stopped.error';
import { isUnreadable } from '../unreadable-filing';
import { SEC_WWW } from '../filings/filing.mapper';
import { fetchCompleteSubmission } from '../complete-submission.fetcher';
import { exhibitDocumentRecordsOf } from './exhibit-document.mapper';
import { eightKFilingRecordOf, eightKItemsOf } from './eightk-filing.mapper';

export const EIGHTK_DOCUMENTS_TOPIC = Symbol('EIGHTK_DOCUMENTS_TOPIC');
export const EIGHTK_FILINGS_TOPIC = Symbol('EIGHTK_FILINGS_TOPIC');
export const EIGHTK_MAX_BYTES = Symbol('EIGHTK_MAX_BYTES');

/** One 8-K to read: its filer and accession, and its filing@1 data when it came from edgar.filings.v1. */
export interface EightKFilingCommand {
  cik: string;
  accession: string;
  known: FilingData | null;
}

export interface EightKOutcome {
  accession: string;
  status: 'published' | 'not_found';
  items: string[] | null;
  /** Exhibits served as documents, by the API's doc_type (the records' doc_group); and those skipped as not documents (agreements, XBRL, graphics). */
  documents: Record<string, number>;
  skipped: number;
  /** Exhibits that are documents but could not be made records (a page over the record size): logged, the rest published. */
  unreadable: number;
  filingRecord: boolean;
}

export interface EightKSummary {
  runId: string;
  filings: number;
  published: number;
  notFound: number;
  documents: number;
  durationMs: number;
}

/** A foreign private issuer's current report: no items, but its press releases are exhibits too. */
const SIX_K_FORM = /^6-K/i;

/**
 * 8-K use case: for each 8-K (and 6-K), fetch its complete submission (one request: the header and
 * every document) -> pure parse -> its items (header and main document) and its exhibits as
 * documents with pages -> publish the documents on ir.document-texts.v1 and, when the filing record
 * did not know the items, the filing with them on edgar.filings.v1 (source submission_text).
 */
@Injectable()
export class EightKService {
  /** The same budget, for filings of the past (a backfill on the filings topic) in follow mode. */
  private readonly historyEdgar: EdgarClient;

  constructor(
    @Inject(EdgarClient) private readonly edgar: EdgarClient,
    @Inject(RECORD_PUBLISHER) private readonly publisher: RecordPublisher,
    @Inject(EIGHTK_DOCUMENTS_TOPIC) private readonly documentsTopic: TopicDefinition,
    @Inject(EIGHTK_FILINGS_TOPIC) private readonly filingsTopic: TopicDefinition,
    @Inject(INGEST_LOGGER) private readonly logger: Logger,
    @Inject(EIGHTK_MAX_BYTES) private readonly maxBytes: number,
  ) {
    this.historyEdgar = edgar.withPriority('backfill');
  }

  /**
   * A record to read: any 8-K or 6-K form, except the records this worker published itself (source
   * submission_text), which would only read the same submission again.
   */
  static wants(filing: Pick<FilingData, 'form' | 'source'>): boolean {
    return (isEightKForm(filing.form) || SIX_K_FORM.test(filing.form)) && filing.source !== 'submission_text';
  }

  /** `--filing`: named 8-Ks, one after the other; a broker outage stops the run (exit 75). Named filings are read on demand, not discovered: what they publish is history (origin backfill), unless the caller says they were missed live (`origin`). */
  async execute(command: { filings: readonly EightKFilingCommand[]; origin?: RecordOrigin; runId?: string }): Promise<EightKSummary> {
    const started = Date.now();
    const runId = command.runId ?? `run_${randomUUID()}`;
    const summary: EightKSummary = { runId, filings: command.filings.length, published: 0, notFound: 0, documents: 0, durationMs: 0 };
    for (const [i, filing] of command.filings.entries()) {
      let outcome: EightKOutcome;
      try {
        outcome = await this.ingest(filing, runId, command.origin ?? 'backfill', this.edgar);
      } catch (error) {
        throw stoppedBy(error, () => filingRunStop(i, command.filings.length, summary, started, filing.accession));
      }
      if (outcome.status === 'not_found') summary.notFound += 1;
      else summary.published += 1;
      summary.documents += Object.values(outcome.documents).reduce((a, b) => a + b, 0);
    }
    summary.durationMs = Date.now() - started;
    this.logger.info({ ...summary, topics: [this.documentsTopic.name, this.filingsTopic.name] }, '8-K run finished');
    return summary;
  }

  /**
   * Follow mode's effect for one filing@1 record. Not an 8-K to read: nothing. A submission that
   * cannot be read (missing, unparsable, refused, too large) throws PermanentError, so the consumer dead-letters the filing record with the reason; EDGAR or Kafka
   * being unavailable throws as is, and the consumer retries.
   */
  async handleFilingRecord(record: RecordEnvelope<FilingData>, runId: string): Promise<EightKOutcome | null> {
    const filing = record.data;
    if (!EightKService.wants(filing)) return null;
    let outcome: EightKOutcome;
    try {
      // New filings at the module's priority (documents); a backfill's after them. What it publishes keeps the filing's origin.
      const edgar = record.origin === 'backfill' ? this.historyEdgar : this.edgar;
      outcome = await this.ingest({ cik: filing.cik, accession: filing.accession, known: filing }, runId, record.origin, edgar);
    } catch (error) {
      if (isUnreadable(error)) throw new PermanentError(`8-K ${filing.accession}: ${error.message}`, { cause: error });
      throw error;
    }
    if (outcome.status === 'not_found') throw new PermanentError(`8-K ${filing.accession}: complete submission not found`);
    return outcome;
  }

  private async ingest(command: EightKFilingCommand, runId: string, origin: RecordOrigin, edgar: EdgarClient): Promise<EightKOutcome> {
    const cik = padCik(command.cik);
    const log = this.logger.child({ runId, useCase: 'eightk', accession: command.accession });
    const result = await fetchCompleteSubmission(edgar, cik, command.accession, this.maxBytes, { acceptedAt: command.known?.accepted_at });
    if (result.kind === 'not_found') {
      log.warn({ url: result.url }, '8-K complete submission not found (404)');
      return { accession: command.accession, status: 'not_found', items: null, documents: {}, skipped: 0, unreadable: 0, filingRecord: false };
    }
    const submission = parseCompleteSubmission(Buffer.from(result.bytes).toString('utf8'));
    const submissionUrl = result.url;
    const fetchedAt = result.fetchedAt;
    const extractedAt = new Date().toISOString();

    const form = command.known?.form ?? submission.form;
    const filedDate = command.known?.filed_date ?? submission.filed_date;
    if (!form || !filedDate) throw new EdgarParseError('complete submission', `${submissionUrl}: no form type or filing date in the header`);
    // A 6-K has no items; an 8-K's are what its document and header state.
    const items = SIX_K_FORM.test(form) ? { numbers: [], legacy: [], unmatched: [] } : eightKItemsOf(submission, filedDate);
    const filing: Omit<DocumentFiling, 'exhibit_type' | 'sequence' | 'description' | 'file_name'> = {
      accession: command.accession,
      form,
      filed_date: filedDate,
      accepted_at: submission.accepted_at ?? command.known?.accepted_at ?? null,
      // The filing's items as its row holds them: the record's when it knew them (the submissions JSON's).
      items: command.known?.items ?? items.numbers,
    };
    const documents: Record<string, number> = {};
    let skipped = 0;
    let unreadable = 0;
    const records: DocumentTextRecordV1[] = [];
    for (const [index, doc] of submission.documents.entries()) {
      if (doc.binary || (doc.format !== 'html' && doc.format !== 'text')) {
        skipped += 1;
        continue;
      }
      const { pages, imagesOnly } = exhibitPages(doc.body, doc.format);
      const classification = classifyExhibit({ type: doc.type, description: doc.description, filename: doc.filename, text: pages.slice(0, 1).join('\n') });
      if (classification === null) {
        skipped += 1;
        continue;
      }
      const sequence = doc.sequence ?? index + 1;
      const url = doc.filename ? `${SEC_WWW}${archivesDocumentPath(cik, command.accession, doc.filename)}` : `${submissionUrl}#sequence=${sequence}`;
      let exhibitRecords: DocumentTextRecordV1[];
      try {
        exhibitRecords = exhibitDocumentRecordsOf(
          {
            cik,
            filing: { ...filing, exhibit_type: doc.type, sequence, description: doc.description, file_name: doc.filename },
            url,
            submissionUrl,
            format: doc.format,
            body: doc.body,
            classification,
            pages,
            imagesOnly,
            title: exhibitTitle(pages),
            fetchedAt,
          },
          { runId, origin, extractedAt },
        );
      } catch (error) {
        // One exhibit that cannot be a record (a page over the record size) does not cost the others or the items.
        if (!(error instanceof DecksError)) throw error;
        unreadable += 1;
        log.warn({ url, exhibit: doc.type, reason: error.message }, '8-K exhibit not published');
        continue;
      }
      records.push(...exhibitRecords);
      const docType = exhibitRecords[0]!.data.doc_group;
      documents[docType] = (documents[docType] ?? 0) + 1;
    }
    // One publish per part: parts of one key share a partition, and several ~1 MB parts in one batch would exceed the request limit.
    for (const record of records) await this.publisher.publish(this.documentsTopic, [record]);
    // The filing with its items, when the record that named it did not know them (or a named run had no record).
    const needsFiling = command.known === null || command.known.items === null;
    if (needsFiling) {
      const record = eightKFilingRecordOf(command.known, { cik, accession: command.accession, form, filedDate }, submission, items, { url: submissionUrl, bytes: result.bytes, fetchedAt }, { runId, origin, extractedAt });
      await this.publisher.publish(this.filingsTopic, [record]);
    }
    log.info({ url: submissionUrl, items: items.numbers, documents, skipped, unreadable, filingRecord: needsFiling, unmatchedHeaderItems: items.unmatched }, '8-K read');
    return { accession: command.accession, status: 'published', items: items.numbers, documents, skipped, unreadable, filingRecord: needsFiling };
  }
}

