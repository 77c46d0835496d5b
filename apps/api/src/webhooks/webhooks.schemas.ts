import { z } from 'zod';
import { paginationSchema } from '@app/resources';
import { params } from '../platform/query.validation';

/** Topics an endpoint can subscribe to (the spec's Events table). */
export const WEBHOOK_TOPICS = ['filing.created', 'transcript.published', 'ir_document.created', 'form4.filed'] as const;
export type WebhookTopic = (typeof WEBHOOK_TOPICS)[number];

/** Event types of the feed: the topics and the test ping. */
export const EVENT_TYPES = [...WEBHOOK_TOPICS, 'webhook.test'] as const;

const ENDPOINT_ID_PATTERN = '^we_[0-9a-f]{24}$';
const DELIVERY_ID_PATTERN = '^del_[0-9a-f]{24}$';

/** Postgres text cannot hold NUL: refuse it as a validation error, never a 500. */
const text = () => z.string().refine((v) => !v.includes('\u0000'), { message: 'Input should not contain NUL characters', abort: true });

const isoDateTime = text().refine((v) => /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(v) && !Number.isNaN(Date.parse(v)), {
  params: { pydantic: 'datetime_parsing', msg: 'Input should be a valid datetime (ISO 8601, e.g. 2025-01-31T00:00:00Z)' },
});

const topicsField = z
  .array(z.enum(WEBHOOK_TOPICS))
  .min(1)
  .max(20)
  .describe(`Topics to receive, at least one of ${WEBHOOK_TOPICS.join(', ')}; duplicates are dropped`);
const urlField = text().min(1).max(2048).describe('https URL that receives the deliveries (POST); must resolve to public addresses');
const descriptionField = text().max(500).nullable().describe('Free text for your own reference');

export const createEndpointBody = z.object({ url: urlField, topics: topicsField, description: descriptionField.optional() });
export const updateEndpointBody = z.object({
  url: urlField.optional(),
  topics: topicsField.optional(),
  enabled: z.boolean().optional().describe('false pauses deliveries (disabled_reason manual); true re-enables and clears the failure streak'),
  description: descriptionField.optional(),
});
export const testEventBody = z.object({
  topic: z.enum(WEBHOOK_TOPICS).optional().describe("Sends a realistic sample of this topic's payload marked test: true; without it, a webhook.test ping"),
});
export const recoverBody = z.object({ since: isoDateTime.describe('Requeue failed deliveries created at or after this time (ISO 8601)') });

export type CreateEndpointInput = z.infer<typeof createEndpointBody>;
export type UpdateEndpointInput = z.infer<typeof updateEndpointBody>;

export const endpointIdParam = params({
  id: { kind: 'string', pattern: ENDPOINT_ID_PATTERN, description: 'Webhook endpoint id (we_...)' },
});
export const deliveryPathParams = params({
  ...endpointIdParam,
  delivery_id: { kind: 'string', pattern: DELIVERY_ID_PATTERN, description: 'Delivery id (del_...)' },
});

const cursorParam = { kind: 'string', minLength: 1, maxLength: 1024, description: 'Opaque cursor from the previous page, passed back unchanged' } as const;
const limitParam = { kind: 'int', minimum: 1, maximum: 500, default: 50, description: 'Page size, 1 to 500 (free plan and sk_test_ keys: at most 25)' } as const;

export const endpointListParams = params({
  cursor: cursorParam,
  limit: limitParam,
  direction: { kind: 'enum', values: ['asc', 'desc'], description: 'By created_at, then id. Default desc (newest first)' },
});
export const deliveryListParams = params({
  status: { kind: 'enum', values: ['pending', 'succeeded', 'failed'], description: 'Only deliveries in this state' },
  cursor: cursorParam,
  limit: limitParam,
});
export const eventListParams = params({
  types: { kind: 'array', items: { kind: 'enum', values: EVENT_TYPES }, description: 'Only these event types; repeat the parameter or separate with commas' },
  cursor: cursorParam,
  limit: limitParam,
});

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
