import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { contentHash, type FilingData, type RecordEnvelope, type RecordOrigin, type TopicDefinition } from '@app/contracts';
import { EdgarClient, EdgarParseError, extractFactsFrom, extractSegmentsFrom, parseIxbrl } from '@app/edgar';
import type { Logger } from '@app/observability';
import { INGEST_LOGGER, RECORD_PUBLISHER, type RecordPublisher } from '../ingest.providers';
import { filingRunStop, stoppedBy } from '../run-stopped.error';
import { resolvePrimaryDocument } from '../primary-document.resolver';
import { inlineFactsRecordsOf } from './inline-facts.mapper';
import { segmentRecordsOf, type SegmentFiling } from './segment.mapper';

export const SEGMENTS_TOPIC = Symbol('SEGMENTS_TOPIC');
export const XBRL_FACTS_TOPIC = Symbol('XBRL_FACTS_TOPIC');

/**
 * One filing to read: the filing and its primary inline-XBRL document or its index page (path on
 * www.sec.gov, or an sec.gov URL), and the day it was filed (null for a one-off `--filing` run:
 * its facts records, which carry the filing day, are then not published).
 */
/** A filing to read; its records keep the origin of the filing record that named it; none for a named filing, read on demand: backfill. */
export type SegmentsFilingCommand = SegmentFiling & { document: string; filedDate: string | null; origin?: RecordOrigin };

export interface SegmentsSummary {
  runId: string;
  filings: number;
  /** segment@1 records published. */
  published: number;
  /** xbrl-facts@1 records published (one per concept of each document). */
  factRecords: number;
  notFound: number;
  /** Documents that were fetched but could not be read as inline XBRL. */
  unreadable: number;
  durationMs: number;
}

/** Forms whose primary document carries the segment note. */
const SEGMENT_FORMS = /^10-[QK](\/A)?$/;

/**
 * Segments and facts use case: for each 10-Q / 10-K, fetch the primary inline-XBRL document once
 * -> parse it once -> pure extractions -> pure maps to segment@1 (tier verified) on
 * edgar.segments.v1 and to xbrl-facts@1 (every numeric fact, one record per concept) on
 * edgar.xbrl-facts.v1, so a new filing's facts arrive with its segments.
 */
@Injectable()
export class SegmentsService {
  constructor(
    @Inject(EdgarClient) private readonly edgar: EdgarClient,
    @Inject(RECORD_PUBLISHER) private readonly publisher: RecordPublisher,
    @Inject(SEGMENTS_TOPIC) private readonly topic: TopicDefinition,
    @Inject(XBRL_FACTS_TOPIC) private readonly factsTopic: TopicDefinition,
    @Inject(INGEST_LOGGER) private readonly logger: Logger,
  ) {}

  /** Whether a filing record is one this use case reads. */
  static wants(filing: Pick<FilingData, 'form' | 'primary_document_url'>): boolean {
    const url = filing.primary_document_url;
    // Daily-index and current-events rows name the filing index page: execute resolves the document.
    return SEGMENT_FORMS.test(filing.form) && !!url && /\.html?$/i.test(url);
  }

  /** The command for an edgar.filings.v1 record, or null when it is not a 10-Q / 10-K with a primary document. */
  static commandOf(envelope: RecordEnvelope<FilingData>): SegmentsFilingCommand | null {
    const f = envelope.data;
    if (!SegmentsService.wants(f)) return null;
    return { cik: f.cik, accession: f.accession, form: f.form, document: f.primary_document_url!, filedDate: f.filed_date, origin: envelope.origin };
  }

  async execute(command: { filings: readonly SegmentsFilingCommand[]; runId?: string }): Promise<SegmentsSummary> {
    const started = Date.now();
    const runId = command.runId ?? `run_${randomUUID()}`;
    const log = this.logger.child({ runId, useCase: 'segments' });
    const summary: SegmentsSummary = { runId, filings: command.filings.length, published: 0, factRecords: 0, notFound: 0, unreadable: 0, durationMs: 0 };
    for (const [i, filing] of command.filings.entries()) {
      const primary = await resolvePrimaryDocument(this.edgar, filing);
      if (primary.kind === 'unresolved') {
        summary.notFound += 1;
        log.warn({ accession: filing.accession, url: primary.url, reason: primary.reason }, 'primary document not resolved: skipped');
        continue;
      }
      const result = await this.edgar.getWww(primary.path);
      if (result.kind === 'not_found') {
        summary.notFound += 1;
        log.warn({ accession: filing.accession, url: result.url }, 'primary document not found (404): skipped');
        continue;
      }
      let extraction;
      let factsExtraction;
      try {
        const doc = parseIxbrl(result.bytes);
        extraction = extractSegmentsFrom(doc);
        factsExtraction = extractFactsFrom(doc);
      } catch (error) {
        if (error instanceof EdgarParseError) {
          summary.unreadable += 1;
          log.error({ accession: filing.accession, url: result.url, error: error.message }, 'document unreadable: skipped');
          continue;
        }
        throw error;
      }
      const source = { url: result.url, contentHash: contentHash(result.bytes), fetchedAt: result.fetchedAt };
      const run = { runId, origin: filing.origin ?? 'backfill', extractedAt: new Date().toISOString() };
      const records = segmentRecordsOf(extraction, filing, source, run);
      const filedDate = filing.filedDate;
      const factRecords = filedDate ? inlineFactsRecordsOf(factsExtraction, { ...filing, filedDate }, source, run) : [];
      try {
        await this.publisher.publish(this.topic, records);
        summary.published += records.length;
        if (factRecords.length > 0) await this.publisher.publish(this.factsTopic, factRecords);
        summary.factRecords += factRecords.length;
      } catch (error) {
        throw stoppedBy(error, () => filingRunStop(i, command.filings.length, summary, started, filing.accession));
      }
      if (!filedDate) log.warn({ accession: filing.accession, url: result.url }, 'filing day unknown (--filing run): facts records not published');
      // Segments that do not add up to the filer's total are published as read (each record carries its breakdown's reconciliation), and said.
      const unreconciled = extraction.reconciliations
        .filter((r) => r.matches === false)
        .map((r) => ({ concept: r.concept, axis: r.axis, start: r.startDate, end: r.endDate, unit: r.unit, sum: r.membersSum, total: r.total, totalFrom: r.totalFrom, difference: r.difference }));
      if (unreconciled.length > 0) log.warn({ accession: filing.accession, url: result.url, unreconciled }, "segment members do not add up to the filer's total");
      log.info({ accession: filing.accession, url: result.url, facts: records.length, skipped: extraction.skipped }, 'segments published');
      log.info({ accession: filing.accession, url: result.url, concepts: factRecords.length, facts: factsExtraction.facts.length, skipped: factsExtraction.skipped }, 'facts published');
    }
    summary.durationMs = Date.now() - started;
    log.info({ ...summary, topic: this.topic.name, factsTopic: this.factsTopic.name }, 'segments run finished');
    return summary;
  }
}
