import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { contentHash, type RecordOrigin, type TopicDefinition } from '@app/contracts';
import { DecksError, extractPdf } from '@app/decks';
import { PublishGaveUpError } from '@app/messaging';
import type { Logger } from '@app/observability';
import { documentTextRecordsOf, type DeckLink } from './document-text.mapper';
import type { IngestDecksConfig } from './ingest-decks.config';
import { PdfFetchError, PdfFetcher, type FetchedPdf } from './pdf.fetcher';
import { RECORD_PUBLISHER, type RecordPublisher } from './record.publisher';

export const DECKS_CONFIG = Symbol('DECKS_CONFIG');
export const DECKS_LOGGER = Symbol('DECKS_LOGGER');
export const DOCUMENT_TEXTS_TOPIC = Symbol('DOCUMENT_TEXTS_TOPIC');

/** Why a PDF will never make records: the consumer dead-letters its ir-document with this reason. */
export type DeckRejection =
  | 'not_found'
  | 'http_error'
  | 'content_type'
  | 'not_pdf'
  | 'too_large'
  | 'non_public_address'
  | 'fetch_failed'
  | 'pdf_unreadable'
  | 'no_pages'
  | 'page_too_large'
  | 'record_too_large';

export class DeckRejectedError extends Error {
  constructor(
    readonly code: DeckRejection,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'DeckRejectedError';
  }
}

/**
 * The broker did not take a part within the retry bound. No checkpoint: a PDF is one download and
 * a few publishes, and its record ids are deterministic, so the same command simply does it again
 * (the consumer, which sees this as any non-rejection, retries the record).
 */
export class DeckPublishStoppedError extends Error {
  constructor(
    readonly url: string,
    readonly contentHash: string,
    /** Parts the broker took before it stopped taking them. */
    readonly partsPublished: number,
    readonly parts: number,
    override readonly cause: PublishGaveUpError,
  ) {
    super(`stopped with ${partsPublished} of ${parts} parts of ${url} published: ${cause.message}; run the same command again`);
    this.name = 'DeckPublishStoppedError';
  }
}

/**
 * The broker's MESSAGE_TOO_LARGE (or RECORD_LIST_TOO_LARGE) answer, found by its protocol error
 * type on the error or its causes (kafkajs wraps it), without importing kafkajs here.
 */
export function isMessageTooLarge(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth += 1) {
    const type = (e as { type?: unknown }).type;
    if (type === 'MESSAGE_TOO_LARGE' || type === 'RECORD_LIST_TOO_LARGE') return true;
  }
  return false;
}

export type DeckOutcome =
  | { status: 'published'; url: string; contentHash: string; pages: number; records: number; docType: string }
  | { status: 'unchanged'; url: string; contentHash: string };

/**
 * The ingest-decks use case for one PDF link: download (declared User-Agent, time and size
 * limits, PDF content type) -> hash -> skip when this URL with these bytes was already published
 * by this process -> extract (pure, @app/decks) -> map -> publish each part. A PDF that can never
 * make records throws DeckRejectedError (the consumer dead-letters it); a download failing with a
 * transient error is tried DECKS_FETCH_ATTEMPTS times, then rejected as fetch_failed, so one dead
 * site does not hold up its partition (a replay from the DLQ tries it again). Anything else
 * (Kafka down) propagates, for the consumer to retry.
 */
@Injectable()
export class IngestDecksService {
  /** URL -> content hash last published by this process. Ids are deterministic anyway: this only saves the work. */
  private readonly published = new Map<string, string>();
  private readonly fetcher: PdfFetcher;

  constructor(
    @Inject(DECKS_CONFIG) private readonly config: IngestDecksConfig,
    @Inject(RECORD_PUBLISHER) private readonly publisher: RecordPublisher,
    @Inject(DOCUMENT_TEXTS_TOPIC) private readonly topic: TopicDefinition,
    @Inject(DECKS_LOGGER) private readonly logger: Logger,
  ) {
    this.fetcher = new PdfFetcher({
      userAgent: config.DECKS_USER_AGENT,
      timeoutMs: config.DECKS_FETCH_TIMEOUT_MS,
      maxBytes: config.DECKS_MAX_BYTES,
      allowPrivate: config.DECKS_ALLOW_PRIVATE_HOSTS,
    });
  }

  async execute(command: { link: DeckLink; origin: RecordOrigin; runId?: string }): Promise<DeckOutcome> {
    const { link } = command;
    const runId = command.runId ?? `run_${randomUUID()}`;
    const log = this.logger.child({ runId, url: link.url, cik: link.cik });

    const fetched = await this.download(link.url, log);
    const hash = contentHash(fetched.bytes);
    if (this.published.get(link.url) === hash) {
      log.debug({ contentHash: hash }, 'unchanged since last published: skipped');
      return { status: 'unchanged', url: link.url, contentHash: hash };
    }

    let records;
    try {
      const pdf = await extractPdf(fetched.bytes);
      if (pdf.pageCount === 0) throw new DeckRejectedError('no_pages', `${link.url}: the PDF has no pages`);
      records = documentTextRecordsOf(link, { bytes: fetched.bytes.byteLength, contentHash: hash, fetchedAt: fetched.fetchedAt }, pdf, { runId, origin: command.origin, extractedAt: new Date() });
    } catch (error) {
      if (error instanceof DecksError) throw new DeckRejectedError(error.code, `${link.url}: ${error.message}`, { cause: error });
      throw error;
    }
    // One publish per part: parts of one key share a partition, and one batch of several ~1 MB
    // parts would exceed the broker's request limit.
    for (const [i, record] of records.entries()) {
      try {
        await this.publisher.publish(this.topic, [record]);
      } catch (error) {
        // The broker refuses the record whatever we do; retrying it would block the partition forever.
        if (isMessageTooLarge(error)) {
          throw new DeckRejectedError('record_too_large', `${link.url}: part ${record.data.part.index} of ${record.data.part.count} is over the broker's message size limit`, { cause: error });
        }
        if (error instanceof PublishGaveUpError) throw new DeckPublishStoppedError(link.url, hash, i, records.length, error);
        throw error;
      }
    }
    this.published.set(link.url, hash);
    const first = records[0]!.data;
    log.info({ contentHash: hash, pages: first.page_count, parts: records.length, docType: first.doc_type, language: first.language }, 'document text published');
    return { status: 'published', url: link.url, contentHash: hash, pages: first.page_count, records: records.length, docType: first.doc_type };
  }

  private async download(url: string, log: Logger): Promise<FetchedPdf> {
    const attempts = this.config.DECKS_FETCH_ATTEMPTS;
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.fetcher.fetch(url);
      } catch (error) {
        if (!(error instanceof PdfFetchError)) throw error;
        if (error.kind !== 'transient') throw new DeckRejectedError(error.kind, error.message, { cause: error });
        if (attempt >= attempts) throw new DeckRejectedError('fetch_failed', `${error.message} (${attempts} attempts)`, { cause: error });
        const delayMs = 500 * 2 ** (attempt - 1);
        log.warn({ attempt, delayMs, reason: error.message }, 'download failed: retrying');
        await new Promise((resolve) => setTimeout(resolve, delayMs));
      }
    }
  }
}
