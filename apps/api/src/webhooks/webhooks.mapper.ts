import type { AttemptRecord, DeliveryRecord, EndpointRecord, EventRecord } from '@app/persistence';
import type { DeliveryBody, EndpointBody, EventBody } from './webhooks.schemas';

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
