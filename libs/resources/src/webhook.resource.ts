import { z } from 'zod';
import type { AttemptRecord, DeliveryRecord, EndpointRecord, EventRecord } from '@app/persistence';
import { paginationSchema } from './shared.resource';

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
  failing_since: z.string().nullable().describe('Start of the current failure streak (ISO 8601); null after any success'),
  created_at: z.string(),
  updated_at: z.string(),
});
export const createdEndpointSchema = endpointSchema.extend({
  signing_secret: z.string().describe('whsec_...: verifies the webhook-signature header (Standard Webhooks). Shown only in this response'),
});
export const rotatedSecretSchema = z.object({
  id: z.string(),
  signing_secret: z.string().describe('The new whsec_ secret, shown only in this response'),
  previous_secret_expires_at: z.string().nullable().describe('Until then the previous secret signs alongside the new one (space-separated signatures)'),
});
export const endpointListSchema = z.object({ data: z.array(endpointSchema), pagination: paginationSchema });

export const testEventResultSchema = z.object({ event_id: z.string().describe('evt_test_...: the webhook-id of the delivery'), delivery_id: z.string() });
export const retryResultSchema = z.object({ delivery_id: z.string(), status: z.literal('pending'), next_attempt_at: z.string() });
export const recoverResultSchema = z.object({ requeued: z.number().int().describe('Failed deliveries set pending, due now'), since: z.string() });

const attemptSchema = z.object({
  attempt: z.number().int().describe('1-based'),
  sent_at: z.string(),
  status_code: z.number().int().nullable().describe('null on a network error or timeout'),
  duration_ms: z.number().int(),
  response_excerpt: z.string().nullable().describe('First 1 KB of the response body'),
  error: z.string().nullable(),
  next_attempt_at: z.string().nullable().describe('When the next try was scheduled; null if none'),
});
export const deliverySchema = z.object({
  id: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed']).describe('failed: retries exhausted or endpoint disabled; recover or retry requeues it'),
  attempt_count: z.number().int(),
  next_attempt_at: z.string().nullable(),
  last_attempt_at: z.string().nullable(),
  succeeded_at: z.string().nullable(),
  created_at: z.string(),
  event: z.object({
    id: z.string().describe('The webhook-id header of every attempt'),
    type: z.string(),
    test: z.boolean(),
    created_at: z.string().describe('When the event was made'),
    source_produced_at: z.string().nullable().describe('When the source record was produced to Kafka (null for test events)'),
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

export const eventSchema = z.object({
  id: z.string().describe('Same id as the webhook-id of its deliveries'),
  type: z.enum(EVENT_TYPES),
  timestamp: z.string().describe('When the event was made (ISO 8601)'),
  test: z.boolean().optional().describe('Present (true) on test events, which only their account sees'),
  data: z.unknown().describe('The resource exactly as the API serves it'),
});
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

/** Row -> a feed item: the same {type, timestamp, data} a webhook delivery carries, with its id. */
export function toEvent(e: EventRecord): EventBody {
  return {
    id: e.id,
    type: e.type as EventBody['type'],
    timestamp: e.createdAt.toISOString(),
    ...(e.isTest ? { test: true } : {}),
    data: e.data,
  };
}
