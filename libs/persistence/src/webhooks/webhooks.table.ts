import { bigint, bigserial, boolean, integer, jsonb, text, textArray, timestamptz, uuid, table } from '../table';

export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** One HTTP attempt of a delivery, as logged by the dispatcher. */
export const WEBHOOK_ATTEMPTS_TABLE = table('webhook_attempts', ['id'], {
  id: bigserial('webhook_attempts', 'id'),
  delivery_id: text(),
  /** 1-based. */
  attempt: integer(),
  sent_at: timestamptz(),
  /** Null on a network error or timeout. */
  status_code: integer().nullable(),
  duration_ms: integer(),
  /** First 1 KB of the response body. */
  response_excerpt: text().nullable(),
  error: text().nullable(),
  /** When the next try is scheduled; null if none. */
  next_attempt_at: timestamptz().nullable(),
});

/** One logical delivery of an event to an endpoint (one webhook-id across its attempts). */
export const WEBHOOK_DELIVERIES_TABLE = table('webhook_deliveries', ['id'], {
  /** `del_` + 24 hex. */
  id: text(),
  event_id: text(),
  endpoint_id: text(),
  /** failed = retries exhausted or endpoint disabled; recoverable. */
  status: text<WebhookDeliveryStatus>(),
  attempts: integer().default('0'),
  /** Due time while pending. */
  next_attempt_at: timestamptz().nullable(),
  last_attempt_at: timestamptz().nullable(),
  succeeded_at: timestamptz().nullable(),
  created_at: timestamptz().default('now()'),
  /** A dispatcher holds it until then (its attempt is under way); null when no process does. */
  leased_until: timestamptz().nullable(),
  /** The claim holding it (a stalled process's late result, carrying another token, changes nothing). */
  lease_token: uuid().nullable(),
});

/**
 * A signing secret of an endpoint, sealed (SecretBox of `@app/webhooks`), never in plaintext.
 * Active = expires_at IS NULL OR expires_at > now(); a rotation gives the old one 24 h more.
 */
export const WEBHOOK_ENDPOINT_SECRETS_TABLE = table('webhook_endpoint_secrets', ['id'], {
  id: bigserial('webhook_endpoint_secrets', 'id'),
  endpoint_id: text(),
  sealed_secret: text(),
  created_at: timestamptz().default('now()'),
  /** Null = the current secret. */
  expires_at: timestamptz().nullable(),
});

/** A subscriber's webhook endpoint; owned by the api app (the webhooks app disables failing ones). */
export const WEBHOOK_ENDPOINTS_TABLE = table('webhook_endpoints', ['id'], {
  /** `we_` + 24 lowercase hex. */
  id: text(),
  account_id: text(),
  url: text(),
  topics: textArray(),
  description: text().nullable(),
  enabled: boolean().default('true'),
  /** 'gone' after a 410, 'failing' after 5 days of failures, 'manual' via PATCH. */
  disabled_reason: text().nullable(),
  /** Start of the current failure streak; null again after any success. */
  failing_since: timestamptz().nullable(),
  created_at: timestamptz().default('now()'),
  updated_at: timestamptz().default('now()'),
  /** Soft delete: deliveries keep their endpoint. */
  deleted_at: timestamptz().nullable(),
});

/**
 * One event (the body's `{type, timestamp, data}` source) of the webhooks and the /v1/events feed.
 * Real events are visible to every account; test events (is_test) only to account_id.
 */
export const WEBHOOK_EVENTS_TABLE = table('webhook_events', ['id'], {
  /** Feed order. */
  seq: bigserial('webhook_events', 'seq'),
  /** `evt_…`: webhookEventId(type, entity key) for real events, `evt_test_` + random hex for tests. */
  id: text(),
  type: text(),
  entity_key: text().nullable(),
  /** The resource exactly as the API serves it. */
  data: jsonb<unknown>(),
  is_test: boolean().default('false'),
  /** Set only for test events. */
  account_id: text().nullable(),
  source_topic: text().nullable(),
  source_record_id: text().nullable(),
  /** Kafka message timestamp of the source record. */
  source_produced_at: timestamptz().nullable(),
  created_at: timestamptz().default('now()'),
});

/**
 * The event log's outbox: events made by the projector that its relay has not published to
 * webhooks.events.v1 yet (test events are never logged: account state, like endpoints).
 */
export const WEBHOOK_EVENT_LOG_PENDING_TABLE = table('webhook_event_log_pending', ['seq'], {
  /** webhook_events.seq of the event. */
  seq: bigint(),
});

/**
 * webhookEventId(type, key) of @app/contracts in SQL, for `keySql` (a column): a real event's id
 * from its entity, so a read finds it by primary key instead of needing an index on entity_key.
 * The freshness read's integration test holds the two together.
 */
export function webhookEventIdSql(type: 'filing.created', keySql: string): string {
  return `'evt_' || left(encode(sha256(convert_to('${type}' || E'\\n' || ${keySql}, 'UTF8')), 'hex'), 32)`;
}
