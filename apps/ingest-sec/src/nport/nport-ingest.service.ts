import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { contentHash, FUND_HOLDINGS_PER_RECORD, padCik, type FilingData, type FundHolding, type FundHoldingsRecordV1, type RecordOrigin, type TopicDefinition } from '@app/contracts';
import {
  EdgarClient,
  EdgarError,
  EdgarParseError,
  HoldingMatcher,
  NPORT_CHUNK_BYTES,
  NportStreamParser,
  feedNport,
  nportPrimaryDocPath,
  parseRecentFilings,
  parseSubmissions,
  submissionsPath,
  type MatchableCompany,
  type NportHolding,
  type TickerMapEntry,
  fetchTickerMap,
} from '@app/edgar';
import { PermanentError } from '@app/messaging';
import type { Logger } from '@app/observability';
import type { FetchedSource } from '../company.mapper';
import { INGEST_LOGGER, RECORD_PUBLISHER, type RecordPublisher } from '../ingest.providers';
import { progressOf, stoppedBy } from '../run-stopped.error';
import { isUnreadable } from '../unreadable-filing';
import type { NportConfig, NportFilingRef } from './nport.config';
import { fundHeaderOf, fundHoldingOf, fundHoldingsRecordOf, isNportForm } from './nport.mapper';

export const NPORT_CONFIG = Symbol('NPORT_CONFIG');
export const FUND_HOLDINGS_TOPIC = Symbol('FUND_HOLDINGS_TOPIC');

export interface NportFilingOutcome {
  cik: string;
  accession: string;
  status: 'published' | 'not_found' | 'error';
  fundKey?: string;
  holdings?: number;
  matched?: number;
  records?: number;
  error?: string;
}

export interface NportIngestSummary {
  runId: string;
  filings: NportFilingOutcome[];
  durationMs: number;
}

/** What holdings are matched against: the ticker map (with LEIs) as a matcher, and each CIK's first ticker. */
interface MatchContext {
  matcher: HoldingMatcher;
  tickerByCik: Map<string, string>;
}

/** A named run's filing that failed (EDGAR refused or unavailable, unparsable, out of bounds): recorded, and the run goes on. */
type FailedFiling = EdgarError | EdgarParseError | RangeError;

/** The ticker map changes daily at most: one process reloads it when it is older than this. */
const MATCH_CONTEXT_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * The N-PORT use case: per filing fetch primary_doc.xml -> stream-parse -> match against the
 * ticker map (loaded once per process, reloaded daily) -> map -> publish fund-holdings@1 records
 * of at most FUND_HOLDINGS_PER_RECORD holdings. Named filings (`execute`) and followed filing
 * records (`handleFilingRecord`) share `ingestFiling`. The document is held once (the fetched
 * bytes) and read twice in 64 KB slices: a first pass counts holdings (every record states the
 * filing's total, so the projector can tell a complete filing), the second maps and publishes as
 * each chunk fills.
 */
@Injectable()
export class NportIngestService {
  private matching: { loadedAt: number; context: Promise<MatchContext> } | undefined;

  constructor(
    @Inject(NPORT_CONFIG) private readonly config: NportConfig,
    @Inject(EdgarClient) private readonly edgar: EdgarClient,
    @Inject(RECORD_PUBLISHER) private readonly publisher: RecordPublisher,
    @Inject(FUND_HOLDINGS_TOPIC) private readonly topic: TopicDefinition,
    @Inject(INGEST_LOGGER) private readonly logger: Logger,
  ) {}

  /** Whether a filing@1 record is an N-PORT report (any filer: fund registrants are rarely covered companies). */
  static wants(filing: Pick<FilingData, 'form'>): boolean {
    return isNportForm(filing.form);
  }

  /** Named filings (NPORT_FILINGS, --filing, NPORT_DISCOVER): a filing that fails is reported and skipped. Named or discovered filings are history (origin backfill) unless the caller says they were missed live (`origin`). */
  async execute(command: { filings?: readonly NportFilingRef[]; discover?: readonly string[]; origin?: RecordOrigin; runId?: string } = {}): Promise<NportIngestSummary> {
    const started = Date.now();
    const runId = command.runId ?? `run_${randomUUID()}`;
    const log = this.logger.child({ runId, useCase: 'nport' });
    const filings = [...(command.filings ?? this.config.NPORT_FILINGS), ...(await this.discover(command.discover ?? this.config.NPORT_DISCOVER, log))];
    // Before the first filing: without the ticker map the run cannot match anything, so it fails.
    await this.matchContext(log);
    const outcomes: NportFilingOutcome[] = [];
    for (const [i, filing] of filings.entries()) {
      try {
        outcomes.push(await this.ingestFiling(filing, runId, command.origin ?? 'backfill', log));
      } catch (error) {
        if (isFailedFiling(error)) {
          log.error({ cik: filing.cik, accession: filing.accession, error: error.message }, 'N-PORT filing failed: skipped');
          outcomes.push({ cik: filing.cik, accession: filing.accession, status: 'error', error: error.message });
          continue;
        }
        throw stoppedBy(error, () => {
          const count = (status: NportFilingOutcome['status']) => outcomes.filter((o) => o.status === status).length;
          return {
            progress: `${progressOf(i, filings.length, 'filings')} (${count('published')} published)`,
            done: { runId, published: count('published'), not_found: count('not_found'), errors: count('error'), stopped_at: `${filing.cik}:${filing.accession}`, remaining: filings.length - i, durationMs: Date.now() - started },
            resume: 'run the same command again (every filing is read again: same record ids)',
          };
        });
      }
    }
    const summary = { runId, filings: outcomes, durationMs: Date.now() - started };
    log.info({ filings: outcomes, durationMs: summary.durationMs, topic: this.topic.name }, 'N-PORT run finished');
    return summary;
  }

  /**
   * Follow mode's effect for one filing@1 record. Not an NPORT-P or NPORT-P/A: nothing. A filing
   * that cannot be read (missing, unparsable, refused by EDGAR) throws PermanentError, so the
   * consumer dead-letters the filing record with the reason; EDGAR or Kafka being unavailable
   * (the ticker map included) throws as is, so the consumer retries the same record with backoff.
   */
  async handleFilingRecord(filing: FilingData, origin: RecordOrigin, runId: string): Promise<NportFilingOutcome | null> {
    if (!NportIngestService.wants(filing)) return null;
    const log = this.logger.child({ runId, useCase: 'nport-follow' });
    const ref = { cik: padCik(filing.cik), accession: filing.accession };
    // Loaded outside the try: a ticker map outage is retried, not a dead letter.
    await this.matchContext(log);
    let outcome: NportFilingOutcome;
    try {
      outcome = await this.ingestFiling(ref, runId, origin, log);
    } catch (error) {
      if (isUnreadable(error)) throw new PermanentError(`N-PORT ${ref.accession}: ${error.message}`, { cause: error });
      throw error;
    }
    if (outcome.status === 'not_found') throw new PermanentError(`N-PORT ${ref.accession}: primary_doc.xml not found`);
    return outcome;
  }

  /**
   * One filing: fetch -> parse -> match -> map -> publish. Returns published or not_found; throws
   * EdgarError, EdgarParseError or RangeError when the filing cannot be read, and the publisher's
   * error when Kafka gave up.
   */
  private async ingestFiling(filing: NportFilingRef, runId: string, origin: RecordOrigin, log: Logger): Promise<NportFilingOutcome> {
    const base = { cik: filing.cik, accession: filing.accession };
    const { matcher, tickerByCik } = await this.matchContext(log);
    const result = await this.edgar.getWww(nportPrimaryDocPath(filing.cik, filing.accession));
    if (result.kind === 'not_found') {
      log.warn({ ...base, url: result.url }, 'N-PORT primary_doc.xml not found');
      return { ...base, status: 'not_found' };
    }
    const source: FetchedSource = { url: result.url, contentHash: contentHash(result.bytes), fetchedAt: result.fetchedAt };
    // Pass 1: the header and the number of holdings, nothing kept.
    const { fund, holdingCount } = feedNport(result.bytes, { onHolding: () => undefined });
    const header = fundHeaderOf(fund, fund.registrantCik ? (tickerByCik.get(fund.registrantCik) ?? null) : null);
    const count = Math.max(1, Math.ceil(holdingCount / FUND_HOLDINGS_PER_RECORD));
    let chunkIndex = 0;
    let matched = 0;
    let batch: FundHolding[] = [];
    const flush = async () => {
      const extractedAt = new Date().toISOString();
      const record = fundHoldingsRecordOf({ accession: filing.accession, fund: header, index: chunkIndex, count, holdingsTotal: holdingCount, holdings: batch }, source, { runId, origin, extractedAt });
      await this.publisher.publish(this.topic, [record satisfies FundHoldingsRecordV1]);
      chunkIndex += 1;
      batch = [];
    };
    // Pass 2: map and publish chunk by chunk (awaiting the publish between slices bounds memory).
    const parser = new NportStreamParser({
      onHolding: (h: NportHolding) => {
        const match = matcher.match(h);
        if (match) matched += 1;
        batch.push(fundHoldingOf(h, match, match ? matcher.listingOf(match, h) : null));
      },
    });
    const bytes = result.bytes;
    for (let at = 0; at < bytes.byteLength; at += NPORT_CHUNK_BYTES) {
      parser.write(bytes.subarray(at, Math.min(at + NPORT_CHUNK_BYTES, bytes.byteLength)));
      while (batch.length >= FUND_HOLDINGS_PER_RECORD) {
        const rest = batch.splice(FUND_HOLDINGS_PER_RECORD);
        await flush();
        batch = rest;
      }
    }
    parser.end();
    if (batch.length > 0 || chunkIndex === 0) await flush();
    log.info({ ...base, fund: header.key, holdings: holdingCount, matched, records: chunkIndex }, 'N-PORT filing published');
    return { ...base, status: 'published', fundKey: header.key, holdings: holdingCount, matched, records: chunkIndex };
  }

  /** The ticker map and LEIs as a matcher, once per process and again when a day old; a failed load is not kept. */
  private matchContext(log: Logger): Promise<MatchContext> {
    const now = Date.now();
    if (this.matching && now - this.matching.loadedAt < MATCH_CONTEXT_MAX_AGE_MS) return this.matching.context;
    const loading = { loadedAt: now, context: this.loadMatchContext(log) };
    this.matching = loading;
    loading.context.catch(() => {
      if (this.matching === loading) this.matching = undefined;
    });
    return loading.context;
  }

  private async loadMatchContext(log: Logger): Promise<MatchContext> {
    const entries = await fetchTickerMap(this.edgar, log);
    const matcher = new HoldingMatcher(await this.withLeis(entries, log));
    const tickerByCik = new Map<string, string>();
    for (const e of entries) if (!tickerByCik.has(e.cik)) tickerByCik.set(e.cik, e.ticker);
    log.info({ companies: entries.length }, 'N-PORT matching: ticker map loaded');
    return { matcher, tickerByCik };
  }

  /** The latest NPORT-P (or /A) filings of each registrant, from its submissions JSON's recent filings. */
  private async discover(ciks: readonly string[], log: Logger): Promise<NportFilingRef[]> {
    const out: NportFilingRef[] = [];
    for (const cik of ciks) {
      try {
        const r = await this.edgar.getData(submissionsPath(cik));
        if (r.kind === 'not_found') {
          log.warn({ cik, url: r.url }, 'no submissions JSON: nothing discovered');
          continue;
        }
        const nports = parseRecentFilings(r.bytes)
          .filter((f) => f.form === 'NPORT-P' || f.form === 'NPORT-P/A')
          .sort((a, b) => (b.reportDate ?? '').localeCompare(a.reportDate ?? '') || (b.filingDate ?? '').localeCompare(a.filingDate ?? ''));
        // A trust files one NPORT-P per series per month: keep every filing of the latest report dates.
        const dates = [...new Set(nports.map((f) => f.reportDate ?? ''))].slice(0, this.config.NPORT_DISCOVER_LATEST);
        for (const f of nports) if (dates.includes(f.reportDate ?? '')) out.push({ cik, accession: f.accessionNumber });
        log.info({ cik, found: nports.length, taken: out.length }, 'N-PORT filings discovered');
      } catch (error) {
        if (!(error instanceof EdgarError) && !(error instanceof EdgarParseError)) throw error;
        log.error({ cik, error: error.message }, 'N-PORT discovery failed for this registrant');
      }
    }
    return out;
  }

  /** Ticker-map rows, with the LEI from the submissions JSON of the companies NPORT_LEI_COMPANIES names. */
  private async withLeis(entries: TickerMapEntry[], log: Logger): Promise<MatchableCompany[]> {
    const wanted = new Set(this.config.NPORT_LEI_COMPANIES);
    const leis = new Map<string, string | null>();
    for (const e of entries) {
      if (leis.has(e.cik) || !(wanted.has(e.ticker.toUpperCase()) || wanted.has(e.cik) || wanted.has(String(Number(e.cik))))) continue;
      leis.set(e.cik, null);
      try {
        const r = await this.edgar.getData(submissionsPath(e.cik));
        if (r.kind === 'ok') leis.set(e.cik, parseSubmissions(r.bytes).lei);
      } catch (error) {
        if (!(error instanceof EdgarError) && !(error instanceof EdgarParseError)) throw error;
        log.warn({ cik: e.cik, error: error.message }, 'submissions for LEI failed: matching without it');
      }
    }
    return entries.map((e) => ({ cik: e.cik, ticker: e.ticker, name: e.name, lei: leis.get(e.cik) ?? null }));
  }
}

function isFailedFiling(error: unknown): error is FailedFiling {
  return error instanceof EdgarError || error instanceof EdgarParseError || error instanceof RangeError;
}
