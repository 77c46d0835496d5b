import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import { issuerDocumentDataSchema, type IssuerDocumentData, type RecordEnvelope, type TopicDefinition } from '@app/contracts';
import { ConsumerRunner, PermanentError, ensureTopics, type ConsumerCounters, type KafkaSettings } from '@app/messaging';
import type { Logger } from '@app/observability';
import type { IngestDecksConfig } from './ingest-decks.config';
import { DECKS_CONFIG, DECKS_LOGGER, DeckRejectedError, IngestDecksService } from './ingest-decks.service';
import { KAFKA_SETTINGS } from './record.publisher';

export const IR_DOCUMENTS_TOPIC = Symbol('IR_DOCUMENTS_TOPIC');

/** A link ingest-decks downloads: ingest-ir marked it as a PDF, or its path ends in .pdf. */
export function isPdfLink(document: Pick<IssuerDocumentData, 'url' | 'is_pdf'>): boolean {
  return document.is_pdf || /\.pdf$/i.test(new URL(document.url).pathname);
}

export interface DeckCounts {
  published: number;
  unchanged: number;
  /** Links that are not PDFs (HTML releases, webcasts): committed without effect. */
  not_pdf: number;
  /** PDFs that can never make records: dead-lettered with the reason. */
  rejected: number;
}

export interface DrainSummary extends DeckCounts, ConsumerCounters {
  runId: string;
}

/**
 * The Kafka edge: consumes ir-document@1 records (group `groupId`, from the beginning of the
 * compacted topic for a new group), hands PDF links to IngestDecksService and maps its
 * DeckRejectedError to PermanentError, so ConsumerRunner dead-letters the record with the reason
 * and commits. Other failures (Kafka down) are retried by the runner without committing.
 */
@Injectable()
export class IrDocumentsConsumer implements BeforeApplicationShutdown {
  readonly runId = `run_${randomUUID()}`;
  private runner: ConsumerRunner | undefined;
  private readonly counts: DeckCounts = { published: 0, unchanged: 0, not_pdf: 0, rejected: 0 };

  constructor(
    @Inject(DECKS_CONFIG) private readonly config: IngestDecksConfig,
    @Inject(KAFKA_SETTINGS) private readonly settings: KafkaSettings,
    @Inject(IR_DOCUMENTS_TOPIC) private readonly topic: TopicDefinition,
    @Inject(IngestDecksService) private readonly service: IngestDecksService,
    @Inject(DECKS_LOGGER) private readonly logger: Logger,
  ) {}

  /** DECKS_GROUP_ID, under KAFKA_TOPIC_NAMESPACE like the topics: namespaces sharing a broker share no group either. */
  get groupId(): string {
    const namespace = this.config.KAFKA_TOPIC_NAMESPACE;
    return namespace ? `${namespace}.${this.config.DECKS_GROUP_ID}` : this.config.DECKS_GROUP_ID;
  }

  get summary(): DrainSummary {
    return { runId: this.runId, ...this.counts, ...(this.runner?.counters ?? { processed: 0, dead_lettered: 0, retries: 0 }) };
  }

  /** Starts consuming in the background. */
  async start(): Promise<void> {
    // The broker does not auto-create topics, and subscribing to a missing one fails.
    await ensureTopics(this.settings, [this.topic]);
    this.runner ??= new ConsumerRunner({
      settings: this.settings,
      groupId: this.groupId,
      topics: [this.topic],
      fromBeginning: true,
      logger: this.logger,
      handle: (envelope) => this.handle(envelope),
    });
    await this.runner.start();
  }

  /**
   * `--once`: consumes until the group has committed every partition up to its end (lag 0, read
   * every `pollMs`), then stops. Records written meanwhile are drained too if they land before the
   * lag reaches 0. Throws if the consumer crashes.
   */
  async drain(pollMs = 500): Promise<DrainSummary> {
    await this.start();
    const runner = this.runner!;
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, pollMs));
      if (!runner.healthy) throw new Error(`consumer ${this.groupId} is not running (crashed?)`);
      const lag = await runner.lag();
      if (lag.every((p) => p.lag === 0)) break;
    }
    await this.stop();
    return this.summary;
  }

  async stop(): Promise<void> {
    await this.runner?.stop();
  }

  /** Before the publisher disconnects (onApplicationShutdown): the record in flight finishes first. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  private async handle(envelope: RecordEnvelope): Promise<void> {
    // The runner validated the envelope against the topic's schemas; parsing again gives the type.
    const document = issuerDocumentDataSchema.parse(envelope.data);
    if (!isPdfLink(document)) {
      this.counts.not_pdf += 1;
      return;
    }
    try {
      const outcome = await this.service.execute({
        link: { url: document.url, cik: document.cik, ticker: document.ticker, title: document.title, kind: document.kind },
        runId: this.runId,
      });
      this.counts[outcome.status] += 1;
    } catch (error) {
      if (!(error instanceof DeckRejectedError)) throw error;
      this.counts.rejected += 1;
      throw new PermanentError(`${error.code}: ${error.message}`, { cause: error });
    }
  }
}
