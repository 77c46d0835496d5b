import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { contentHash, type TopicDefinition } from '@app/contracts';
import { EdgarClient, EdgarError, EdgarParseError, fetchTickerMap, parseCompanyFacts } from '@app/edgar';
import type { Logger } from '@app/observability';
import { INGEST_LOGGER, RECORD_PUBLISHER, type RecordPublisher } from '../ingest.providers';
import { progressOf, stoppedBy } from '../run-stopped.error';
import { companyFactsPath, companyFactsRecords, type OversizedConcept } from './companyfacts.mapper';
import type { AskedCompany, FactsCommand } from './facts.config';

export const FACTS_TOPIC = Symbol('FACTS_TOPIC');

export interface CompanyFactsResult {
  /** As the command named it: `AAPL:US`, `320193`. */
  asked: string;
  cik: string | null;
  /**
   * ok; partial (concepts refused as too large, named in `oversized`); not_found (SEC has no company
   * facts: 404); unknown_symbol (not in SEC's ticker map); duplicate (a company asked for earlier in
   * the list); unreadable (not a company-facts file); error (EDGAR failed).
   */
  status: 'ok' | 'partial' | 'not_found' | 'unknown_symbol' | 'duplicate' | 'unreadable' | 'error';
  entity_name: string | null;
  source_url: string | null;
  records_published: number;
  facts_published: number;
  /** Reports SEC lists without an accession or a form (not publishable). */
  facts_skipped: number;
  oversized: OversizedConcept[];
  error?: string;
}

export interface FactsSummary {
  run_id: string;
  topic: string;
  companies_asked: number;
  companies_published: number;
  companies_not_found: number;
  companies_failed: number;
  records_published: number;
  facts_published: number;
  companies: CompanyFactsResult[];
  seconds: number;
}

/** Whether a run's companies all ended as they should: a 404 at SEC is reported, not a failure. */
export function factsRunSucceeded(summary: FactsSummary): boolean {
  return summary.companies.every((c) => c.status === 'ok' || c.status === 'not_found' || c.status === 'duplicate');
}

/**
 * `facts`: for each company asked for, its data.sec.gov company facts (one request, as history in
 * the shared EDGAR budget) -> parse -> one xbrl-facts@1 record per concept -> publish. A company
 * that fails is reported and the others go on; a broker outage stops the run (exit 75: the same
 * command publishes again, same ids).
 */
@Injectable()
export class CompanyFactsService {
  private readonly edgar: EdgarClient;

  constructor(
    @Inject(EdgarClient) edgar: EdgarClient,
    @Inject(RECORD_PUBLISHER) private readonly publisher: RecordPublisher,
    @Inject(FACTS_TOPIC) private readonly topic: TopicDefinition,
    @Inject(INGEST_LOGGER) private readonly logger: Logger,
  ) {
    // History: it yields to the live poll and the followers of new filings.
    this.edgar = edgar.withPriority('backfill');
  }

  async execute(command: FactsCommand & { runId?: string }): Promise<FactsSummary> {
    const started = Date.now();
    const runId = command.runId ?? `run_${randomUUID()}`;
    const log = this.logger.child({ runId, use: 'companyfacts' });
    const ciks = await this.resolve(command.companies);
    const results: CompanyFactsResult[] = [];
    const summary = (): FactsSummary => ({
      run_id: runId,
      topic: this.topic.name,
      companies_asked: command.companies.length,
      companies_published: results.filter((r) => r.status === 'ok' || r.status === 'partial').length,
      companies_not_found: results.filter((r) => r.status === 'not_found').length,
      companies_failed: results.filter((r) => !['ok', 'not_found', 'duplicate'].includes(r.status)).length,
      records_published: results.reduce((n, r) => n + r.records_published, 0),
      facts_published: results.reduce((n, r) => n + r.facts_published, 0),
      companies: results,
      seconds: Math.round((Date.now() - started) / 10) / 100,
    });
    const seen = new Set<string>();
    for (const [i, company] of command.companies.entries()) {
      const cik = ciks[i] ?? null;
      const result: CompanyFactsResult = { asked: company.asked, cik, status: 'ok', entity_name: null, source_url: null, records_published: 0, facts_published: 0, facts_skipped: 0, oversized: [] };
      results.push(result);
      if (!cik) {
        result.status = 'unknown_symbol';
        log.warn({ asked: company.asked }, 'not in the SEC ticker map: skipped');
        continue;
      }
      if (seen.has(cik)) {
        result.status = 'duplicate';
        continue;
      }
      seen.add(cik);
      try {
        await this.company(cik, runId, result, log);
      } catch (error) {
        if (!(error instanceof EdgarError)) {
          throw stoppedBy(error, () => {
            const done = summary();
            return { progress: `${progressOf(i, command.companies.length, 'companies')} (${done.records_published} records published)`, done: { ...done }, resume: 'run the same command again (the companies are read again: same record ids)' };
          });
        }
        result.status = 'error';
        result.error = error.message;
        log.error({ asked: company.asked, cik, error: error.message }, 'company facts not read: skipped');
      }
      log.info({ asked: company.asked, cik, status: result.status, records: result.records_published, facts: result.facts_published, done: i + 1, of: command.companies.length }, 'progress');
    }
    const done = summary();
    log.info({ ...done, companies: undefined }, 'company facts run finished');
    return done;
  }

  /** The CIK of each company asked for (null: a ticker SEC's map does not list); the map is read only when tickers are asked for. */
  private async resolve(companies: readonly AskedCompany[]): Promise<(string | null)[]> {
    const byTicker = new Map<string, string>();
    if (companies.some((c) => c.ticker !== undefined)) {
      for (const e of await fetchTickerMap(this.edgar)) if (!byTicker.has(e.ticker.toUpperCase())) byTicker.set(e.ticker.toUpperCase(), e.cik);
    }
    return companies.map((c) => (c.cik !== undefined ? c.cik : (byTicker.get(c.ticker) ?? null)));
  }

  private async company(cik: string, runId: string, result: CompanyFactsResult, log: Logger): Promise<void> {
    const response = await this.edgar.getData(companyFactsPath(cik));
    result.source_url = response.url;
    if (response.kind === 'not_found') {
      result.status = 'not_found';
      log.warn({ cik, url: response.url }, 'SEC has no company facts for this company (404)');
      return;
    }
    let mapped;
    try {
      const facts = parseCompanyFacts(response.bytes);
      result.entity_name = facts.entityName;
      if (facts.cik !== cik) throw new EdgarParseError('companyfacts', `file of CIK ${facts.cik} served for CIK ${cik}`);
      const source = { url: response.url, contentHash: contentHash(response.bytes), fetchedAt: response.fetchedAt };
      mapped = companyFactsRecords(facts, source, { runId, origin: 'backfill', extractedAt: new Date().toISOString() });
    } catch (error) {
      if (!(error instanceof EdgarParseError)) throw error;
      result.status = 'unreadable';
      result.error = error.message;
      log.error({ cik, url: response.url, error: error.message }, 'company facts unreadable: skipped');
      return;
    }
    result.facts_skipped = mapped.skippedFacts;
    result.oversized = mapped.oversized;
    if (mapped.oversized.length > 0) {
      result.status = 'partial';
      log.error({ cik, oversized: mapped.oversized }, 'concepts over the record bound (Kafka\'s 1 MB message limit) not published');
    }
    await this.publisher.publish(this.topic, mapped.records);
    result.records_published = mapped.records.length;
    result.facts_published = mapped.records.reduce((n, r) => n + r.data.facts.length, 0);
  }
}
