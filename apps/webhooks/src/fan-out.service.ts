import type { DataSource } from 'typeorm';
import { webhookEventOf, type RecordEnvelope } from '@app/contracts';
import { PermanentError, type MessageMeta } from '@app/messaging';
import { DocumentsRepository, FilingsRepository, InsiderTransactionsRepository } from '@app/persistence';
import { toDocumentDetail, toFiling, toForm4Filing } from '@app/resources';
import { WebhooksRepository } from './webhooks.repository';

type WebhookEventType = 'filing.created' | 'form4.filed' | 'ir_document.created';

/** Short polls of the read model before a missing resource becomes a transient failure. */
const QUICK_POLLS = 10;
const QUICK_POLL_MS = 25;

/** The projector has not written the resource yet: transient, the runner backs off and retries. */
export class NotProjectedYetError extends Error {
  constructor(what: string) {
    super(`${what} is not in the read model yet (the projector has not written it)`);
    this.name = 'NotProjectedYetError';
  }
}

export interface FanOutCounts {
  /** Records whose schema makes no event. */
  ignored: number;
  /** Events seen before (replays, re-ingestion): nothing written. */
  replayed: number;
  events: number;
  deliveries: number;
  /** Records that waited for the projector (one per retry). */
  waits: number;
}

/**
 * Turns a record into its event: reads the resource the API serves from the read model (the
 * projector writes it from the same record), then inserts the event and its deliveries in one
 * statement. Idempotent: the event id depends only on the type and the entity.
 */
export class FanOutService {
  readonly counts: FanOutCounts = { ignored: 0, replayed: 0, events: 0, deliveries: 0, waits: 0 };
  private readonly filings: FilingsRepository;
  private readonly insiders: InsiderTransactionsRepository;
  private readonly documents: DocumentsRepository;
  /** First time each waiting record was seen, to give up after projectionWaitMs. */
  private readonly waitingSince = new Map<string, number>();

  constructor(
    ds: DataSource,
    private readonly repo: WebhooksRepository,
    private readonly projectionWaitMs: number,
    private readonly onDeliveries: () => void = () => undefined,
  ) {
    this.filings = new FilingsRepository(ds);
    this.insiders = new InsiderTransactionsRepository(ds);
    this.documents = new DocumentsRepository(ds);
  }

  async handle(envelope: RecordEnvelope, meta: MessageMeta): Promise<void> {
    const event = webhookEventOf(envelope.schema, envelope.key);
    if (!event) {
      this.counts.ignored += 1;
      return;
    }
    // A replay skips the read model entirely (and never waits on it).
    if (await this.repo.eventExists(event.id)) {
      this.counts.replayed += 1;
      return;
    }
    let data: unknown;
    try {
      data = await this.resourceSoon(event.type, envelope.key);
    } catch (err) {
      if (err instanceof NotProjectedYetError) this.waited(envelope.id, err);
      throw err;
    }
    this.waitingSince.delete(envelope.id);
    const ts = meta.timestamp === undefined ? NaN : Number(meta.timestamp);
    const result = await this.repo.insertEvent({
      id: event.id,
      type: event.type,
      entityKey: envelope.key,
      data,
      sourceTopic: meta.topic,
      sourceRecordId: envelope.id,
      sourceProducedAt: Number.isFinite(ts) ? new Date(ts) : null,
    });
    if (!result.inserted) {
      this.counts.replayed += 1;
      return;
    }
    this.counts.events += 1;
    this.counts.deliveries += result.deliveries;
    if (result.deliveries > 0) this.onDeliveries();
  }

  /**
   * The projector reads the same record at the same time and usually writes it within
   * milliseconds: a few short polls first keep the event's latency low; past them the runner's
   * back-off takes over (a projector that is down or behind).
   */
  private async resourceSoon(type: WebhookEventType, key: string): Promise<unknown> {
    for (let i = 0; ; i += 1) {
      try {
        return await this.resource(type, key);
      } catch (err) {
        if (!(err instanceof NotProjectedYetError) || i >= QUICK_POLLS) throw err;
        await new Promise((resolve) => setTimeout(resolve, QUICK_POLL_MS));
      }
    }
  }

  private async resource(type: WebhookEventType, key: string): Promise<unknown> {
    switch (type) {
      case 'filing.created': {
        const filing = await this.filings.findByAccession(key);
        if (!filing) throw new NotProjectedYetError(`filing ${key}`);
        return toFiling(filing);
      }
      case 'form4.filed': {
        const filing = await this.insiders.findFiling(key);
        if (!filing) throw new NotProjectedYetError(`Form 4 ${key}`);
        return toForm4Filing(filing, await this.insiders.listByAccession(key));
      }
      case 'ir_document.created': {
        // The document's integer id exists only once the projector has inserted it.
        const doc = await this.documents.findByUrl(key);
        if (!doc) throw new NotProjectedYetError(`document ${key}`);
        return toDocumentDetail(doc);
      }
    }
  }

  /** Counts a wait; past projectionWaitMs the record is dead-lettered instead of blocking its partition. */
  private waited(recordId: string, err: NotProjectedYetError): void {
    this.counts.waits += 1;
    const since = this.waitingSince.get(recordId) ?? Date.now();
    this.waitingSince.set(recordId, since);
    if (Date.now() - since >= this.projectionWaitMs) {
      this.waitingSince.delete(recordId);
      throw new PermanentError(`${err.message} after ${Math.round((Date.now() - since) / 1000)} s`);
    }
  }
}
