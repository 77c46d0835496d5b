import { randomUUID } from 'node:crypto';
import { Controller, Inject } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { issuerDocumentDataSchema, TOPICS, type IssuerDocumentData } from '@app/contracts';
import { PermanentError, type ConsumerCounters, type RecordBatch } from '@app/messaging';
import { DeckRejectedError, IngestDecksService } from './ingest-decks.service';

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

const noCounts = (): DeckCounts => ({ published: 0, unchanged: 0, not_pdf: 0, rejected: 0 });

/**
 * The Kafka edge: batches of ir-document@1 records; PDF links go to IngestDecksService one by one,
 * in offset order. Its DeckRejectedError becomes PermanentError, so the runner isolates the record
 * to the dead-letter topic with the reason and commits; other failures (Kafka down) are retried.
 */
@Controller()
export class IrDocumentsConsumer {
  readonly runId = `run_${randomUUID()}`;
  private readonly totals = noCounts();

  constructor(@Inject(IngestDecksService) private readonly service: IngestDecksService) {}

  get counts(): DeckCounts {
    return { ...this.totals };
  }

  @EventPattern([TOPICS.issuerDocuments.name])
  async onDocuments(@Payload() batch: RecordBatch): Promise<void> {
    // Counted when the batch succeeded: a failed batch is applied again (or split), not counted twice.
    const counts = noCounts();
    for (const { envelope } of batch.records) {
      // The runner validated the envelope against the topic's schemas; parsing again gives the type.
      const document = issuerDocumentDataSchema.parse(envelope.data);
      if (!isPdfLink(document)) {
        counts.not_pdf += 1;
        continue;
      }
      try {
        const outcome = await this.service.execute({
          link: { url: document.url, cik: document.cik, ticker: document.ticker, title: document.title, kind: document.kind },
          origin: envelope.origin,
          runId: this.runId,
        });
        counts[outcome.status] += 1;
      } catch (error) {
        if (!(error instanceof DeckRejectedError)) throw error;
        // Alone in its batch, the record goes to the dead-letter topic; in a larger one the batch is split first.
        if (batch.records.length === 1) this.totals.rejected += 1;
        throw new PermanentError(`${error.code}: ${error.message}`, { cause: error });
      }
    }
    for (const key of Object.keys(counts) as Array<keyof DeckCounts>) this.totals[key] += counts[key];
  }
}
