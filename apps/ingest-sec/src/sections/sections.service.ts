import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { contentHash, padCik, type FilingData, type RecordEnvelope, type RecordOrigin, type TopicDefinition } from '@app/contracts';
import { EdgarClient, extractTenkSections } from '@app/edgar';
import type { Logger } from '@app/observability';
import { INGEST_LOGGER, RECORD_PUBLISHER, type RecordPublisher } from '../ingest.providers';
import { filingRunStop, stoppedBy } from '../run-stopped.error';
import { resolvePrimaryDocument } from '../primary-document.resolver';
import { tenkSectionRecordsOf, type TenkFiling } from './tenk-section.mapper';

export const SECTIONS_TOPIC = Symbol('SECTIONS_TOPIC');

/** One 10-K to read: the filing and its primary document or its index page (path on www.sec.gov, or an sec.gov URL). */
/** A 10-K to read; its records keep the origin of the filing record that named it; none for a named filing, read on demand: backfill. */
export type SectionsFilingCommand = TenkFiling & { document: string; origin?: RecordOrigin };

export interface SectionsSummary {
  runId: string;
  filings: number;
  published: number;
  notFound: number;
  /** Filings whose Item 1 gave a description. */
  described: number;
  durationMs: number;
}

/** Annual reports whose primary document holds Items 1, 1A and 7; amendments (mostly Part III only) are not read. */
const TENK_FORMS = /^10-K(?:405|T|SB|SB40)?$/;

/**
 * 10-K sections use case: for each 10-K, fetch the primary document -> pure extraction of Items 1,
 * 1A and 7 and the description -> pure map to tenk-section@1 -> publish on edgar.tenk-sections.v1.
 * The projector keeps the newest 10-K's sections and description per issuer.
 */
@Injectable()
export class SectionsService {
  constructor(
    @Inject(EdgarClient) private readonly edgar: EdgarClient,
    @Inject(RECORD_PUBLISHER) private readonly publisher: RecordPublisher,
    @Inject(SECTIONS_TOPIC) private readonly topic: TopicDefinition,
    @Inject(INGEST_LOGGER) private readonly logger: Logger,
  ) {}

  /** Whether a filing record is a 10-K naming its primary document or (daily-index rows) its index page, which execute resolves. */
  static wants(filing: Pick<FilingData, 'form' | 'primary_document_url'>): boolean {
    const url = filing.primary_document_url;
    return TENK_FORMS.test(filing.form) && !!url && /\.html?$/i.test(url);
  }

  /**
   * The commands for a batch of filing@1 records: the newest 10-K of each issuer in the batch (a
   * backfill lists years of 10-Ks; only the newest becomes the description, so older ones in the
   * same batch are not fetched). Older 10-Ks of later batches are read and the projector keeps the newer.
   */
  static commandsOf(envelopes: ReadonlyArray<RecordEnvelope<FilingData>>): SectionsFilingCommand[] {
    const newest = new Map<string, RecordEnvelope<FilingData>>();
    for (const envelope of envelopes) {
      const f = envelope.data;
      if (!SectionsService.wants(f)) continue;
      const seen = newest.get(f.cik)?.data;
      if (!seen || f.filed_date > seen.filed_date || (f.filed_date === seen.filed_date && f.accession > seen.accession)) newest.set(f.cik, envelope);
    }
    return [...newest.values()].map(({ data: f, origin }) => ({
      cik: f.cik,
      accession: f.accession,
      form: f.form,
      filedDate: f.filed_date,
      reportPeriod: f.report_period,
      document: f.primary_document_url!,
      origin,
    }));
  }

  async execute(command: { filings: readonly SectionsFilingCommand[]; runId?: string }): Promise<SectionsSummary> {
    const started = Date.now();
    const runId = command.runId ?? `run_${randomUUID()}`;
    const log = this.logger.child({ runId, useCase: 'tenk-sections' });
    const summary: SectionsSummary = { runId, filings: command.filings.length, published: 0, notFound: 0, described: 0, durationMs: 0 };
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
      const extraction = extractTenkSections(result.bytes);
      const records = tenkSectionRecordsOf(
        extraction,
        { ...filing, cik: padCik(filing.cik) },
        { url: result.url, contentHash: contentHash(result.bytes), fetchedAt: result.fetchedAt },
        { runId, origin: filing.origin ?? 'backfill', extractedAt: new Date().toISOString() },
      );
      try {
        await this.publisher.publish(this.topic, records);
      } catch (error) {
        throw stoppedBy(error, () => filingRunStop(i, command.filings.length, summary, started, filing.accession));
      }
      summary.published += records.length;
      if (extraction.description) summary.described += 1;
      log.info(
        { accession: filing.accession, url: result.url, sections: Object.fromEntries(extraction.sections.map((s) => [s.item, s.status])), described: !!extraction.description },
        '10-K sections published',
      );
    }
    summary.durationMs = Date.now() - started;
    log.info({ ...summary, topic: this.topic.name }, '10-K sections run finished');
    return summary;
  }
}
