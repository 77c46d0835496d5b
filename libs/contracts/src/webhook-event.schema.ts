import { z } from 'zod';
import { envelopeSchema, type RecordEnvelope } from './envelope.schema';
import { contentHash, recordId, sourceId } from './ids';
import { stableStringify } from './stable-json';

/** An ISO time with up to microseconds: Postgres keeps microseconds, a replay must get them back exactly. */
const isoTime = z.string().datetime({ offset: true });

/**
 * One webhook event as the live projector made it (a row of webhook_events), so a replay into a
 * fresh database inserts it verbatim: events are not derivable from the records (their time is a
 * clock, their data the resource as of the batch that made them, their seq the commit order).
 */
export const webhookEventData = z
  .object({
    id: z.string().regex(/^evt_[0-9a-f]{32}$/).describe('The event id: webhookEventId(type, entity key), stable'),
    seq: z.string().regex(/^[1-9]\d*$/).describe('Feed order (webhook_events.seq, a bigint as decimal text)'),
    type: z.string().min(1).describe('Event type (filing.created, form4.filed, ...)'),
    entity_key: z.string().min(1).describe('The natural key of the entity the event announces (accession, document URL)'),
    data: z.unknown().describe('The resource exactly as the API served it when the event was made'),
    source_topic: z.string().min(1).describe('The record topic that made the event'),
    source_record_id: z.string().min(1).describe('The id of the record that made the event'),
    source_produced_at: isoTime.nullable().describe('Kafka timestamp of that record'),
    created_at: isoTime.describe('When the projector made the event (microseconds kept)'),
  })
  .describe('A webhook event of the live projector, logged for replays');

export type WebhookEventData = z.infer<typeof webhookEventData>;

export const webhookEventRecordV1 = envelopeSchema('webhook-event@1', webhookEventData);
export type WebhookEventRecordV1 = z.infer<typeof webhookEventRecordV1>;

/**
 * The log record of an event. The projector made it, from no fetched source: provenance says
 * `platform`, with no URL, quote or content hash, extracted when the event was created. Keyed and
 * identified by the event (an event is immutable: the same row always makes the same record).
 */
export function webhookEventRecord(event: WebhookEventData): RecordEnvelope<WebhookEventData> {
  const hash = contentHash(stableStringify(event));
  return {
    schema: 'webhook-event@1',
    key: event.id,
    id: recordId(event.id, hash),
    observed_at: event.created_at,
    produced_by: 'projector',
    // What made the event: the record whose projection announced it.
    correlation_id: event.source_record_id,
    // Only live discovery makes events: the log of them is live too.
    origin: 'live',
    provenance: {
      src_id: sourceId(`webhook-event:${event.id}`, hash),
      source_provider: 'platform',
      source_url: null,
      accession: null,
      quote: null,
      content_hash: null,
      extracted_at: event.created_at,
    },
    data: event,
  };
}
