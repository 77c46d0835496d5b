import { z } from 'zod';
import type { AttemptRecord, DeliveryRecord, EndpointRecord, EventRecord } from '@app/persistence';
import { documentDetailSchema } from './document.resource';
import { filingSchema } from './filing.resource';
import { form4FilingSchema } from './insider-transaction.resource';
import { dateTimeField, paginationSchema } from './shared.resource';
import { thirteenFFilingSchema } from './thirteenf-filing.resource';
import { transcriptDetailSchema } from './transcript.resource';

/** Topics an endpoint can subscribe to (the spec's Events table). */
export const WEBHOOK_TOPICS = ['filing.created', 'transcript.published', 'ir_document.created', 'form4.filed', '13f.filed'] as const;
export type WebhookTopic = (typeof WEBHOOK_TOPICS)[number];

/** Event types of the feed: the topics and the test ping. */
export const EVENT_TYPES = [...WEBHOOK_TOPICS, 'webhook.test'] as const;

export const endpointSchema = z.object({
  id: z.string().describe('we_ + 24 hex'),
  url: z.string(),
  topics: z.array(z.enum(WEBHOOK_TOPICS)),
  description: z.string().nullable(),
  status: z.enum(['enabled', 'disabled']),
  disabled_reason: z.enum(['manual', 'gone', 'failing']).nullable().describe('Why deliveries stopped: manual (PATCH enabled=false), gone (the endpoint answered 410), failing (5 days of failures)'),
  failing_since: dateTimeField().nullable().describe('Start of the current failure streak (ISO 8601); null after any success'),
  created_at: dateTimeField(),
  updated_at: dateTimeField(),
});
export const createdEndpointSchema = endpointSchema.extend({
  signing_secret: z.string().describe('whsec_...: verifies the webhook-signature header (Standard Webhooks). Shown only in this response'),
});
export const rotatedSecretSchema = z.object({
  id: z.string(),
  signing_secret: z.string().describe('The new whsec_ secret, shown only in this response'),
  previous_secret_expires_at: dateTimeField().nullable().describe('Until then the previous secret signs alongside the new one (space-separated signatures)'),
});
export const endpointListSchema = z.object({ data: z.array(endpointSchema), pagination: paginationSchema });

export const testEventResultSchema = z.object({ event_id: z.string().describe('evt_test_...: the webhook-id of the delivery'), delivery_id: z.string() });
export const retryResultSchema = z.object({ delivery_id: z.string(), status: z.literal('pending'), next_attempt_at: dateTimeField() });
export const recoverResultSchema = z.object({ requeued: z.number().int().describe('Failed deliveries set pending, due now'), since: dateTimeField() });

const attemptSchema = z.object({
  attempt: z.number().int().describe('1-based'),
  sent_at: dateTimeField(),
  status_code: z.number().int().nullable().describe('null on a network error or timeout'),
  duration_ms: z.number().int(),
  response_excerpt: z.string().nullable().describe('First 1 KB of the response body'),
  error: z.string().nullable(),
  next_attempt_at: dateTimeField().nullable().describe('When the next try was scheduled; null if none'),
});
export const deliverySchema = z.object({
  id: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed']).describe('failed: retries exhausted or endpoint disabled; recover or retry requeues it'),
  attempt_count: z.number().int(),
  next_attempt_at: dateTimeField().nullable(),
  last_attempt_at: dateTimeField().nullable(),
  succeeded_at: dateTimeField().nullable(),
  created_at: dateTimeField(),
  event: z.object({
    id: z.string().describe('The webhook-id header of every attempt'),
    type: z.string(),
    test: z.boolean(),
    created_at: dateTimeField().describe('When the event was made'),
    source_produced_at: dateTimeField().nullable().describe('When the source record was produced to Kafka (null for test events)'),
  }),
  latency_ms: z
    .object({
      source_to_event: z.number().int().nullable(),
      event_to_first_attempt: z.number().int().nullable(),
      source_to_success: z.number().int().nullable(),
    })
    .describe('From the source record produced, to the event made, to the first attempt sent and the successful one'),
  attempts: z.array(attemptSchema).describe('Every attempt, oldest first'),
});
export const deliveryListSchema = z.object({ data: z.array(deliverySchema), pagination: paginationSchema });

/** The `data` of a `webhook.test` ping (a test event sent without a topic). */
export const webhookPingSchema = z.object({
  endpoint_id: z.string().describe('The endpoint the ping was sent to'),
  message: z.string(),
});

/** What each event type carries as `data`: the resource exactly as the API serves it. */
export const EVENT_DATA = {
  'filing.created': filingSchema,
  'transcript.published': transcriptDetailSchema,
  'ir_document.created': documentDetailSchema,
  'form4.filed': form4FilingSchema,
  '13f.filed': thirteenFFilingSchema,
  'webhook.test': webhookPingSchema,
} as const satisfies Record<(typeof EVENT_TYPES)[number], z.ZodType>;

/** The body of a delivery of one event type (Standard Webhooks: type, timestamp, data). */
function webhookBodySchema<T extends keyof typeof EVENT_DATA>(type: T) {
  return z.object({
    type: z.literal(type),
    timestamp: dateTimeField().describe('When the event was made (ISO 8601)'),
    test: z.literal(true).optional().describe('Present (true) on test events, which only their account sees'),
    data: EVENT_DATA[type],
  });
}

/** The body POSTed to an endpoint, per event type (the webhook-id header carries the event id). */
export const WEBHOOK_BODIES = {
  'filing.created': webhookBodySchema('filing.created'),
  'transcript.published': webhookBodySchema('transcript.published'),
  'ir_document.created': webhookBodySchema('ir_document.created'),
  'form4.filed': webhookBodySchema('form4.filed'),
  '13f.filed': webhookBodySchema('13f.filed'),
  'webhook.test': webhookBodySchema('webhook.test'),
};

const eventId = z.string().describe('Same id as the webhook-id of its deliveries');

/** An item of GET /v1/events, per event type: the delivery body with its id. */
export const EVENT_ITEMS = {
  'filing.created': WEBHOOK_BODIES['filing.created'].extend({ id: eventId }),
  'transcript.published': WEBHOOK_BODIES['transcript.published'].extend({ id: eventId }),
  'ir_document.created': WEBHOOK_BODIES['ir_document.created'].extend({ id: eventId }),
  'form4.filed': WEBHOOK_BODIES['form4.filed'].extend({ id: eventId }),
  '13f.filed': WEBHOOK_BODIES['13f.filed'].extend({ id: eventId }),
  'webhook.test': WEBHOOK_BODIES['webhook.test'].extend({ id: eventId }),
};

/** An event of the feed: one of the event types, told apart by `type`. */
export const eventSchema = z.discriminatedUnion('type', [
  EVENT_ITEMS['filing.created'],
  EVENT_ITEMS['transcript.published'],
  EVENT_ITEMS['ir_document.created'],
  EVENT_ITEMS['form4.filed'],
  EVENT_ITEMS['13f.filed'],
  EVENT_ITEMS['webhook.test'],
]);
export const eventListSchema = z.object({ data: z.array(eventSchema), pagination: paginationSchema });

export type EndpointBody = z.infer<typeof endpointSchema>;
export type CreatedEndpointBody = z.infer<typeof createdEndpointSchema>;
export type EndpointListBody = z.infer<typeof endpointListSchema>;
export type DeliveryBody = z.infer<typeof deliverySchema>;
export type DeliveryListBody = z.infer<typeof deliveryListSchema>;
export type EventBody = z.infer<typeof eventSchema>;
export type EventListBody = z.infer<typeof eventListSchema>;


const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);
const ms = (from: Date | null, to: Date | null | undefined): number | null => (from && to ? Math.max(0, to.getTime() - from.getTime()) : null);

/** Row -> the API's webhook endpoint (never a secret). */
export function toEndpoint(e: EndpointRecord): EndpointBody {
  return {
    id: e.id,
    url: e.url,
    topics: e.topics as EndpointBody['topics'],
    description: e.description,
    status: e.enabled ? 'enabled' : 'disabled',
    disabled_reason: e.enabled ? null : ((e.disabledReason ?? 'manual') as EndpointBody['disabled_reason']),
    failing_since: iso(e.failingSince),
    created_at: e.createdAt.toISOString(),
    updated_at: e.updatedAt.toISOString(),
  };
}

/** Row and its attempts (oldest first) -> the API's delivery with latency figures. */
export function toDelivery(d: DeliveryRecord, attempts: AttemptRecord[]): DeliveryBody {
  const first = attempts[0]?.sentAt ?? null;
  return {
    id: d.id,
    status: d.status,
    attempt_count: d.attempts,
    next_attempt_at: iso(d.nextAttemptAt),
    last_attempt_at: iso(d.lastAttemptAt),
    succeeded_at: iso(d.succeededAt),
    created_at: d.createdAt.toISOString(),
    event: {
      id: d.eventId,
      type: d.eventType,
      test: d.eventIsTest,
      created_at: d.eventCreatedAt.toISOString(),
      source_produced_at: iso(d.sourceProducedAt),
    },
    latency_ms: {
      source_to_event: ms(d.sourceProducedAt, d.eventCreatedAt),
      event_to_first_attempt: ms(d.eventCreatedAt, first),
      source_to_success: ms(d.sourceProducedAt, d.succeededAt),
    },
    attempts: attempts.map((a) => ({
      attempt: a.attempt,
      sent_at: a.sentAt.toISOString(),
      status_code: a.statusCode,
      duration_ms: a.durationMs,
      response_excerpt: a.responseExcerpt,
      error: a.error,
      next_attempt_at: iso(a.nextAttemptAt),
    })),
  };
}

/**
 * Row -> a feed item: the same {type, timestamp, data} a webhook delivery carries, with its id.
 * The stored data is the resource the projector (or the test sender) mapped for that type when
 * the event was made, so the row's type tells its shape: the one cast, at the database edge.
 */
export function toEvent(e: EventRecord): EventBody {
  return {
    id: e.id,
    type: e.type,
    timestamp: e.createdAt.toISOString(),
    ...(e.isTest ? { test: true } : {}),
    data: e.data,
  } as EventBody;
}
