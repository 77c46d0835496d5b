import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { contentHash, padCik, type FilingData, type RecordOrigin, type TopicDefinition } from '@app/contracts';
import {
  archivesDocumentPath,
  EdgarClient,
  EdgarError,
  EdgarParseError,
  parseFilingDirectory,
  parseForm4,
  parseRecentFilings,
  submissionsPath,
  type TickerMapEntry,
  coverageOf,
  covers,
  fetchTickerMap,
  type CikCoverage,
} from '@app/edgar';
import { PermanentError, PublishGaveUpError } from '@app/messaging';
import type { Logger } from '@app/observability';
import { INGEST_LOGGER, RECORD_PUBLISHER, type RecordPublisher } from './ingest-form4.providers';
import type { Form4FilingRef, IngestForm4Config, IssuerSelector } from './ingest-form4.config';
import { form4SelectionHash, readForm4Checkpoint, removeForm4Checkpoint, writeForm4Checkpoint, type Form4Checkpoint } from './form4.checkpoint';
import { completeSubmissionPath, form4RecordOf, isXmlDocument, ownershipXmlPath, type Form4Listing } from './form4.mapper';

export const FORM4_CONFIG = Symbol('FORM4_CONFIG');
export const FORM4_TOPIC = Symbol('FORM4_TOPIC');

/** Where a filing to read came from: explicit filings are always published, found ones only for covered issuers. */
export type Form4FilingOrigin = 'explicit' | 'submissions' | 'filings_topic';

export interface Form4FilingTask {
  ref: Form4FilingRef;
  origin: Form4FilingOrigin;
  /** What its form4@1 record carries: the filing record's origin when it followed one, else backfill (named or discovered filings are history). */
  recordOrigin: RecordOrigin;
  listing: Form4Listing;
}

export type Form4FilingStatus = 'published' | 'not_found' | 'failed' | 'skipped';

export interface Form4FilingOutcome {
  cik: string;
  accession: string;
  origin: Form4FilingOrigin;
  status: Form4FilingStatus;
  url?: string;
  issuerCik?: string;
  rows?: number;
  recordId?: string;
  error?: string;
}

export interface Form4IngestSummary {
  runId: string;
  counts: Record<Form4FilingStatus, number> & { filings: number; discovery_errors: number };
  filings: Form4FilingOutcome[];
  durationMs: number;
  /** Filings a checkpoint of an earlier, stopped run said were published already (not read again). */
  resumedFrom: number;
}

/** A one-shot run stopped because the broker did not take a record within the retry bound; the checkpoint says where to resume. */
export class Form4IngestStoppedError extends Error {
  constructor(
    readonly summary: Form4IngestSummary,
    /** Filings of the run's selection (explicit and discovered). */
    readonly selected: number,
    readonly checkpointPath: string,
    override readonly cause: PublishGaveUpError,
  ) {
    const left = selected - summary.resumedFrom - summary.counts.filings;
    super(
      `stopped with ${summary.resumedFrom + summary.counts.published} Form 4 filings published (${summary.counts.published} in this run), ` +
        `${left} of ${selected} not read yet: ${cause.message}; checkpoint ${checkpointPath}: run the same command again to resume`,
    );
    this.name = 'Form4IngestStoppedError';
  }
}

/** Covered issuers by CIK (tickers resolved through SEC's ticker map). */

/**
 * The covered issuers could not be resolved (the ticker map could not be fetched). Transient by
 * nature, whatever EDGAR answered: it says nothing about the filing at hand, so follow mode lets
 * the consumer retry the record with backoff instead of dead-lettering it.
 */
export class Form4CoverageError extends Error {
  constructor(cause: unknown) {
    super(`covered issuers unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'Form4CoverageError';
  }
}

const FORM4_FORMS = new Set(['4', '4/A']);

/** ISO time from the submissions JSON / filing@1 acceptance time, null when it is not one. */
function isoOrNull(value: string | null | undefined): string | null {
  if (!value || !/^\d{4}-\d{2}-\d{2}T/.test(value)) return null;
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

/**
 * The Form 4 use case: per filing, fetch the ownership XML (else the complete submission .txt) ->
 * pure parse -> pure map -> publish one form4@1 record keyed by the accession. Filings come from
 * explicit references, from covered issuers' submissions JSON, or (follow mode) from filing@1
 * records. A filing that fails is reported and the run goes on.
 */
@Injectable()
export class Form4IngestService {
  private coverage: Promise<CikCoverage> | undefined;
  private tickerMap: Promise<TickerMapEntry[]> | undefined;

  constructor(
    @Inject(FORM4_CONFIG) private readonly config: IngestForm4Config,
    @Inject(EdgarClient) private readonly edgar: EdgarClient,
    @Inject(RECORD_PUBLISHER) private readonly publisher: RecordPublisher,
    @Inject(FORM4_TOPIC) private readonly topic: TopicDefinition,
    @Inject(INGEST_LOGGER) private readonly logger: Logger,
  ) {}

  /** A filing@1 record -> the Form 4 filing to read, or null when it is not a Form 4 / 4/A. */
  static taskOfFilingRecord(filing: FilingData, recordOrigin: RecordOrigin): Form4FilingTask | null {
    if (!FORM4_FORMS.has(filing.form.trim().toUpperCase())) return null;
    const document = filing.primary_document_url && isXmlDocument(filing.primary_document_url) ? filing.primary_document_url : null;
    return {
      ref: { cik: filing.cik, accession: filing.accession, document },
      origin: 'filings_topic',
      recordOrigin,
      listing: { filedDate: filing.filed_date, acceptedAt: filing.accepted_at },
    };
  }

  /**
   * One run: the explicit filings, then those found in the submissions of FORM4_SUBMISSIONS. Those
   * a checkpoint of a stopped run of the same selection lists are skipped; when the broker does not
   * take a record within the retry bound the run writes the checkpoint and throws
   * Form4IngestStoppedError. A run that gets to the end removes the checkpoint.
   */
  async execute(command: { filings?: readonly Form4FilingRef[]; discover?: IssuerSelector; origin?: RecordOrigin; runId?: string } = {}): Promise<Form4IngestSummary> {
    const started = Date.now();
    const runId = command.runId ?? `run_${randomUUID()}`;
    const log = this.logger.child({ runId, useCase: 'form4' });
    const filings = command.filings ?? this.config.FORM4_FILINGS;
    const selector = command.discover ?? this.config.FORM4_SUBMISSIONS;
    // Named or discovered filings are history unless the caller says they were missed live (`origin`).
    const recordOrigin = command.origin ?? 'backfill';
    const explicit = filings.map((ref): Form4FilingTask => ({ ref, origin: 'explicit', recordOrigin, listing: { filedDate: null, acceptedAt: null } }));
    const discovered = await this.discover(selector, recordOrigin, log);
    const tasks = [...explicit, ...discovered.tasks];
    log.info({ explicit: explicit.length, discovered: discovered.tasks.length, topic: this.topic.name }, 'Form 4 run started');

    const checkpointPath = this.config.FORM4_CHECKPOINT;
    const checkpoint = await this.openCheckpoint(checkpointPath, form4SelectionHash({ filings, discover: selector, topic: this.topic.name, origin: recordOrigin }, this.config), started, log);
    const done = new Set(checkpoint.published);
    const outcomes: Form4FilingOutcome[] = [];
    const counts = { filings: 0, published: 0, not_found: 0, failed: 0, skipped: 0, discovery_errors: discovered.errors };
    const summary: Form4IngestSummary = { runId, counts, filings: outcomes, durationMs: 0, resumedFrom: 0 };
    for (const [i, task] of tasks.entries()) {
      if (done.has(task.ref.accession)) summary.resumedFrom += 1;
      else {
        let outcome: Form4FilingOutcome;
        try {
          outcome = await this.ingestOne(task, runId, log);
        } catch (error) {
          if (!(error instanceof PublishGaveUpError)) throw error;
          summary.durationMs = Date.now() - started;
          await writeForm4Checkpoint(checkpointPath, { ...checkpoint, updated_at: new Date().toISOString() });
          log.error({ ...counts, resumedFrom: summary.resumedFrom, of: tasks.length, checkpoint: checkpointPath, error: error.message }, 'Form 4 run stopped: the broker did not take the records');
          throw new Form4IngestStoppedError(summary, tasks.length, checkpointPath, error);
        }
        outcomes.push(outcome);
        counts.filings += 1;
        counts[outcome.status] += 1;
        if (outcome.status === 'published') {
          done.add(task.ref.accession);
          checkpoint.published.push(task.ref.accession);
        }
      }
      const handled = i + 1;
      if (handled % this.config.FORM4_PROGRESS_EVERY === 0) log.info({ handled, of: tasks.length, published: counts.published, resumedFrom: summary.resumedFrom, failed: counts.failed, not_found: counts.not_found }, 'Form 4 progress');
    }
    await removeForm4Checkpoint(checkpointPath);
    summary.durationMs = Date.now() - started;
    log.info({ ...counts, resumedFrom: summary.resumedFrom, durationMs: summary.durationMs }, 'Form 4 run finished');
    return summary;
  }

  /** The checkpoint of a stopped run of this selection to resume, else a fresh one. */
  private async openCheckpoint(path: string, selectionHash: string, started: number, log: Logger): Promise<Form4Checkpoint> {
    const previous = await readForm4Checkpoint(path);
    const now = new Date(started).toISOString();
    if (previous?.selection_hash === selectionHash) {
      log.info({ checkpoint: path, published: previous.published.length }, 'resuming from the checkpoint of a stopped run');
      return { ...previous, published: [...previous.published], updated_at: now };
    }
    if (previous) log.info({ checkpoint: path }, 'checkpoint is of another selection of filings: starting over');
    return { kind: 'form4-filings', selection_hash: selectionHash, published: [], records_published: 0, started_at: now, updated_at: now };
  }

  /**
   * Follow mode's effect for one filing@1 record. Not a Form 4 of a covered issuer: nothing. A
   * filing that cannot be read (missing, unparsable, too large) throws PermanentError, so the
   * consumer dead-letters the filing record with the reason; EDGAR or Kafka being unavailable, or
   * the covered issuers not resolvable yet (Form4CoverageError), throws as is, so the consumer
   * retries the same record with backoff.
   */
  async handleFilingRecord(filing: FilingData, origin: RecordOrigin, runId: string): Promise<Form4FilingOutcome | null> {
    const task = Form4IngestService.taskOfFilingRecord(filing, origin);
    if (!task || !(await this.covers(task.ref.cik))) return null;
    const log = this.logger.child({ runId, useCase: 'form4-follow' });
    let outcome: Form4FilingOutcome;
    try {
      outcome = await this.readAndPublish(task, runId, log);
    } catch (error) {
      if (error instanceof EdgarParseError || error instanceof RangeError || (error instanceof EdgarError && error.code === 'EDGAR_HTTP_ERROR')) {
        throw new PermanentError(`Form 4 ${task.ref.accession}: ${error.message}`, { cause: error });
      }
      throw error;
    }
    if (outcome.status === 'not_found') throw new PermanentError(`Form 4 ${task.ref.accession}: ${outcome.error ?? 'not found'}`);
    return outcome;
  }

  private async ingestOne(task: Form4FilingTask, runId: string, log: Logger): Promise<Form4FilingOutcome> {
    try {
      return await this.readAndPublish(task, runId, log);
    } catch (error) {
      if (!(error instanceof EdgarError) && !(error instanceof EdgarParseError) && !(error instanceof RangeError) && !(error instanceof Form4CoverageError)) throw error;
      log.error({ accession: task.ref.accession, cik: task.ref.cik, error: error.message }, 'Form 4 filing failed: skipped');
      return { cik: task.ref.cik, accession: task.ref.accession, origin: task.origin, status: 'failed', error: error.message };
    }
  }

  /** Fetch -> parse -> map -> publish one filing. Throws EdgarError, EdgarParseError, RangeError (bounds), Form4CoverageError. */
  private async readAndPublish(task: Form4FilingTask, runId: string, log: Logger): Promise<Form4FilingOutcome> {
    const { ref } = task;
    const base = { cik: ref.cik, accession: ref.accession, origin: task.origin };
    const fetched = await this.fetchOwnershipDocument(ref);
    if (fetched.kind === 'not_found') {
      const error = `not found at ${fetched.urls.join(' nor ')}`;
      log.warn({ ...base, urls: fetched.urls }, 'Form 4 not found');
      return { ...base, status: 'not_found', error };
    }
    const doc = parseForm4(fetched.bytes, { url: fetched.url, accession: ref.accession });
    if (task.origin !== 'explicit' && !(await this.covers(doc.issuer.cik))) {
      log.info({ ...base, issuerCik: doc.issuer.cik }, 'Form 4 of an issuer not covered: skipped');
      return { ...base, status: 'skipped', url: fetched.url, issuerCik: doc.issuer.cik };
    }
    const source = { url: fetched.url, contentHash: contentHash(fetched.bytes), fetchedAt: fetched.fetchedAt, text: fetched.bytes.toString('utf8') };
    const record = form4RecordOf(doc, source, task.listing, { runId, origin: task.recordOrigin, extractedAt: new Date().toISOString() });
    await this.publisher.publish(this.topic, [record]);
    log.info({ ...base, issuerCik: doc.issuer.cik, form: doc.documentType, rows: doc.rows.length, url: fetched.url }, 'Form 4 published');
    return { ...base, status: 'published', url: fetched.url, issuerCik: doc.issuer.cik, rows: doc.rows.length, recordId: record.id };
  }

  /**
   * The ownership XML at its primary document path, else the complete submission `.txt` (the parser
   * reads its SGML wrapper). A live filing (daily index, current events) names only its index page:
   * its directory listing (index.json) names the XML, one small request before the document.
   */
  private async fetchOwnershipDocument(ref: Form4FilingRef): Promise<{ kind: 'ok'; url: string; bytes: Buffer; fetchedAt: string } | { kind: 'not_found'; urls: string[] }> {
    const urls: string[] = [];
    let document = ref.document && isXmlDocument(ref.document) ? ref.document : null;
    if (!document) {
      const listing = await this.edgar.getWww(archivesDocumentPath(ref.cik, ref.accession, 'index.json'));
      if (listing.kind === 'ok') {
        const xml = parseFilingDirectory(listing.bytes).items.find((i) => isXmlDocument(i.name));
        if (xml) document = xml.name;
      } else urls.push(listing.url);
    }
    if (document) {
      const xml = await this.edgar.getWww(ownershipXmlPath(ref.cik, ref.accession, document));
      if (xml.kind === 'ok') return xml;
      urls.push(xml.url);
    }
    const txt = await this.edgar.getWww(completeSubmissionPath(ref.cik, ref.accession));
    if (txt.kind === 'ok') return txt;
    urls.push(txt.url);
    return { kind: 'not_found', urls };
  }

  /** Form 4 / 4/A filings in the submissions JSON of each selected issuer: within FORM4_FROM..FORM4_TO, newest FORM4_LATEST. */
  private async discover(selector: IssuerSelector, recordOrigin: RecordOrigin, log: Logger): Promise<{ tasks: Form4FilingTask[]; errors: number }> {
    if (selector.kind !== 'list') return { tasks: [], errors: 0 };
    const ciks = new Set(selector.ciks);
    let errors = 0;
    if (selector.tickers.size > 0) {
      const found = new Set<string>();
      for (const e of await this.fetchTickerMap()) {
        if (selector.tickers.has(e.ticker.toUpperCase())) {
          ciks.add(e.cik);
          found.add(e.ticker.toUpperCase());
        }
      }
      const unknown = [...selector.tickers].filter((t) => !found.has(t));
      if (unknown.length > 0) {
        errors += unknown.length;
        log.error({ tickers: unknown }, 'tickers not in the SEC ticker map: not discovered');
      }
    }
    const { FORM4_FROM: from, FORM4_TO: to, FORM4_LATEST: latest } = this.config;
    const tasks: Form4FilingTask[] = [];
    for (const cik of ciks) {
      try {
        const r = await this.edgar.getData(submissionsPath(cik));
        if (r.kind === 'not_found') {
          errors += 1;
          log.error({ cik, url: r.url }, 'no submissions JSON: nothing discovered for this issuer');
          continue;
        }
        const form4s = parseRecentFilings(r.bytes)
          .filter((f) => FORM4_FORMS.has((f.form ?? '').trim().toUpperCase()))
          .filter((f) => (!from || (f.filingDate ?? '') >= from) && (!to || (f.filingDate ?? '') <= to))
          .sort((a, b) => (b.filingDate ?? '').localeCompare(a.filingDate ?? '') || b.accessionNumber.localeCompare(a.accessionNumber))
          .slice(0, latest);
        for (const f of form4s) {
          tasks.push({
            ref: { cik: padCik(cik), accession: f.accessionNumber, document: f.primaryDocument },
            origin: 'submissions',
            recordOrigin,
            listing: { filedDate: f.filingDate, acceptedAt: isoOrNull(f.acceptanceDateTime) },
          });
        }
        log.info({ cik, found: form4s.length }, 'Form 4 filings discovered');
      } catch (error) {
        if (!(error instanceof EdgarError) && !(error instanceof EdgarParseError)) throw error;
        errors += 1;
        log.error({ cik, error: error.message }, 'Form 4 discovery failed for this issuer');
      }
    }
    return { tasks, errors };
  }

  /** Throws Form4CoverageError when the covered issuers cannot be resolved; the next call tries again. */
  private async covers(cik: string): Promise<boolean> {
    if (!this.coverage) {
      this.coverage = coverageOf(this.config.FORM4_ISSUERS, () => this.fetchTickerMap()).catch((error: unknown) => {
        // A failed resolution is not cached (as fetchTickerMap): one outage must not fail every later call.
        this.coverage = undefined;
        throw new Form4CoverageError(error);
      });
    }
    const coverage = await this.coverage;
    return covers(coverage, cik);
  }

  /** SEC's ticker map (the exchange one, else the plain one), fetched once per process. */
  private fetchTickerMap(): Promise<TickerMapEntry[]> {
    const tickerMap = (this.tickerMap ??= fetchTickerMap(this.edgar, this.logger));
    // A failed fetch is not cached: the next call tries again.
    void tickerMap.catch(() => (this.tickerMap = undefined));
    return tickerMap;
  }
}
