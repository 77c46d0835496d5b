import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { TOPICS, topicKeysConsumedBy, type WebhookEventData } from '@app/contracts';
import { messageProducedAt, PermanentError, type ConsumedRecord, type RecordBatch } from '@app/messaging';
import { filingFreshnessHistogram, observeFreshness, type Logger } from '@app/observability';
import { BATCH_PROJECTIONS, WebhookEventLogRepository } from '@app/persistence';
import type { WebhookEventRelay } from './webhook-event.relay';
import { writeWebhookEvents } from './webhook-events.writer';

export const PROJECTOR_DATA_SOURCE = Symbol('PROJECTOR_DATA_SOURCE');
export const PROJECTOR_LOGGER = Symbol('PROJECTOR_LOGGER');
/** PROJECTOR_EVENTS: 'live' makes webhook events, 'log' (a replay) inserts the logged ones. */
export const PROJECTOR_EVENTS_MODE = Symbol('PROJECTOR_EVENTS_MODE');
/** The event log relay (live mode only). */
export const PROJECTOR_EVENT_RELAY = Symbol('PROJECTOR_EVENT_RELAY');

/** Topics the projector reads: those whose registry entry lists 'projector' among its consumers. */
export const PROJECTED_TOPICS = topicKeysConsumedBy('projector').map((k) => TOPICS[k]);


/** Postgres SQLSTATE classes that no retry can fix: bad data, not a database outage. */
const PERMANENT_SQLSTATE_CLASSES = ['22', '23', '42'];

function isPermanentDbError(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && PERMANENT_SQLSTATE_CLASSES.includes(code.slice(0, 2));
}

export interface ProjectorCounts {
  /** Records that inserted rows, changed rows, or wrote nothing. */
  inserted: number;
  updated: number;
  unchanged: number;
  /** Webhook events made, and deliveries queued for them. */
  events: number;
  deliveries: number;
  /** Log mode: the logged events inserted as they were (made by the live projector, not here). */
  loggedEvents: number;
}

/**
 * One transaction per batch: the read-model rows of every record, then the webhook events of the
 * entities live records discovered (and one delivery per subscribed endpoint), so an event never
 * points at a row that is not there and a batch is all or nothing. Backfilled records make none.
 * In `log` mode (a replay into a fresh database) it makes no event: they come verbatim from the
 * event log (insertLogged).
 */
@Injectable()
export class ProjectorService {
  readonly counts: ProjectorCounts = { inserted: 0, updated: 0, unchanged: 0, events: 0, deliveries: 0, loggedEvents: 0 };
  /** The projector's stages of filing freshness: served and event_created, observed once the batch commits. */
  readonly freshness = filingFreshnessHistogram();

  constructor(
    @Inject(PROJECTOR_DATA_SOURCE) private readonly ds: DataSource,
    @Inject(PROJECTOR_LOGGER) private readonly logger: Logger,
    @Inject(PROJECTOR_EVENTS_MODE) private readonly events: 'live' | 'log',
    @Inject(PROJECTOR_EVENT_RELAY) private readonly relay: WebhookEventRelay | null,
  ) {}

  /** Log mode: the logged events of a batch of the event log, inserted as they were (no delivery). */
  async insertLogged(batch: RecordBatch): Promise<void> {
    let inserted: number;
    try {
      inserted = await this.ds.transaction((m) => new WebhookEventLogRepository(m).insertLogged(batch.records.map((r) => r.envelope.data as WebhookEventData)));
    } catch (err) {
      // A logged seq taken by another event of this database (it was not fresh): to the dead letters, said.
      if (isPermanentDbError(err)) throw new PermanentError(`logged event rejected: ${(err as Error).message}`, { cause: err });
      throw err;
    }
    this.counts.loggedEvents += inserted;
    this.logger.debug({ topic: batch.topic, partition: batch.partition, records: batch.records.length, inserted }, 'logged events inserted');
  }

  async project(batch: RecordBatch): Promise<void> {
    const bySchema = new Map<string, ConsumedRecord[]>();
    for (const r of batch.records) {
      if (!BATCH_PROJECTIONS[r.envelope.schema]) throw new PermanentError(`no projection for schema ${r.envelope.schema}`);
      const group = bySchema.get(r.envelope.schema);
      if (group) group.push(r);
      else bySchema.set(r.envelope.schema, [r]);
    }
    const counts: ProjectorCounts = { inserted: 0, updated: 0, unchanged: 0, events: 0, deliveries: 0, loggedEvents: 0 };
    // Observed only after the commit: a batch rolled back and retried must not count twice.
    const observations: Array<() => void> = [];
    try {
      await this.ds.transaction(async (m) => {
        for (const [schema, records] of bySchema) {
          const outcome = await BATCH_PROJECTIONS[schema]!(m, records.map((r) => r.envelope), records.map((r) => messageProducedAt(r.meta)));
          counts.inserted += outcome.inserted.length;
          counts.updated += outcome.updated.length;
          counts.unchanged += outcome.unchanged;
          for (const f of outcome.firstServed ?? []) observations.push(() => observeFreshness(this.freshness, 'served', f.acceptedAt, f.projectedAt));
          // A replay (log mode) takes the events from the event log instead.
          if (this.events === 'log') continue;
          const written = await writeWebhookEvents(m, records, outcome);
          counts.events += written.events;
          counts.deliveries += written.deliveries;
          for (const e of written.freshness) observations.push(() => observeFreshness(this.freshness, 'event_created', e.acceptedAt, e.createdAt, e.type));
        }
      });
    } catch (err) {
      if (isPermanentDbError(err)) throw new PermanentError(`projection rejected: ${(err as Error).message}`, { cause: err });
      throw err;
    }
    for (const k of Object.keys(counts) as Array<keyof ProjectorCounts>) this.counts[k] += counts[k];
    for (const observe of observations) observe();
    // The batch's events are committed in the outbox: relay them now rather than at the next tick.
    if (counts.events > 0) this.relay?.kick();
    this.logger.debug({ topic: batch.topic, partition: batch.partition, records: batch.records.length, ...counts }, 'batch projected');
  }
}
