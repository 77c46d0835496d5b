import { z } from 'zod';
import { EVENT_TYPES, WEBHOOK_TOPICS } from '@app/resources';
import { CURSOR_PARAM, LIMIT_PARAM, params } from '../platform/query.validation';

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

// Bodies are strict objects: a field a route does not take is a 422 extra_forbidden, never ignored.

export const createEndpointBody = z.strictObject({ url: urlField, topics: topicsField, description: descriptionField.optional() });
export const updateEndpointBody = z.strictObject({
  url: urlField.optional(),
  topics: topicsField.optional(),
  enabled: z.boolean().optional().describe('false pauses deliveries (disabled_reason manual); true re-enables and clears the failure streak'),
  description: descriptionField.optional(),
});
export const testEventBody = z.strictObject({
  topic: z.enum(WEBHOOK_TOPICS).optional().describe("Sends a realistic sample of this topic's payload marked test: true; without it, a webhook.test ping"),
});
export const recoverBody = z.strictObject({ since: isoDateTime.describe('Requeue failed deliveries created at or after this time (ISO 8601)') });

export type CreateEndpointInput = z.infer<typeof createEndpointBody>;
export type UpdateEndpointInput = z.infer<typeof updateEndpointBody>;

export const endpointIdParam = params({
  id: { kind: 'string', pattern: ENDPOINT_ID_PATTERN, description: 'Webhook endpoint id (we_...)' },
});
export const deliveryPathParams = params({
  ...endpointIdParam,
  delivery_id: { kind: 'string', pattern: DELIVERY_ID_PATTERN, description: 'Delivery id (del_...)' },
});

export const endpointListParams = params({
  cursor: CURSOR_PARAM,
  limit: LIMIT_PARAM,
  direction: { kind: 'enum', values: ['asc', 'desc'], description: 'By created_at, then id. Default desc (newest first)' },
});
export const deliveryListParams = params({
  status: { kind: 'enum', values: ['pending', 'succeeded', 'failed'], description: 'Only deliveries in this state' },
  cursor: CURSOR_PARAM,
  limit: LIMIT_PARAM,
});
export const eventListParams = params({
  types: { kind: 'array', items: { kind: 'enum', values: EVENT_TYPES }, description: 'Only these event types; repeat the parameter or separate with commas' },
  cursor: CURSOR_PARAM,
  limit: LIMIT_PARAM,
});
