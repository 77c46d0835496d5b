import { pgQueryable, type PgQueryable, type SqlSource } from '../repositories/pg-queryable';

/**
 * The channel notified when new deliveries commit (one notification per transaction, delivered
 * at commit): dispatchers LISTEN on it to claim at once instead of at their next poll.
 */
export const WEBHOOK_DELIVERIES_CHANNEL = 'webhook_deliveries_due';

/** A webhook event made from a projected record. */
export interface NewWebhookEvent {
  /** Stable for (type, entity key): webhookEventId from @app/contracts. */
  id: string;
  type: string;
  entityKey: string;
  /** The resource exactly as the API serves it. */
  data: unknown;
  sourceTopic: string;
  sourceRecordId: string;
  /** The Kafka timestamp of the source record (when it was produced). */
  sourceProducedAt: Date | null;
}

/** What insertEvents inserted. */
export interface InsertedEvents {
  events: number;
  deliveries: number;
  /** The new events about filings found by live discovery (a filing_freshness row), with the times their event_created lag is measured between. */
  freshness: Array<{ type: string; acceptedAt: Date; createdAt: Date }>;
}

/**
 * webhook_events and webhook_deliveries, the projector's side: it inserts every event (the API's
 * test events aside) and its deliveries, in the transaction that writes the rows the events
 * describe (construct it on that transaction's EntityManager).
 */
export class WebhookEventsRepository {
  private readonly db: PgQueryable;

  constructor(source: SqlSource) {
    this.db = pgQueryable(source);
  }

  /** Which of these event ids exist already (an entity announced before). */
  async existingIds(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const r = await this.db.query<{ id: string }>({ name: 'webhook_events_existing', text: `SELECT id FROM webhook_events WHERE id = ANY($1::text[])`, values: [ids] });
    return new Set(r.rows.map((row) => row.id));
  }

  /**
   * Inserts the events in one statement and, for the newly inserted ones only, one pending
   * delivery per enabled, not deleted endpoint subscribed to the event's type, due now, and their
   * seq into webhook_event_log_pending (the outbox the projector's relay publishes to the event
   * log, webhooks.events.v1: committed together, so no event escapes the log). An event
   * whose id exists (a replay, a re-ingested entity) inserts nothing: ON CONFLICT on the event id,
   * and on (event_id, endpoint_id) as a second guard. Ids must be distinct within one call.
   * Notifies WEBHOOK_DELIVERIES_CHANNEL when it inserted deliveries.
   */
  async insertEvents(events: readonly NewWebhookEvent[]): Promise<InsertedEvents> {
    if (events.length === 0) return { events: 0, deliveries: 0, freshness: [] };
    // One JSON parameter: the events' data travel as JSON objects, not as escaped array elements.
    const rows = events.map((e, n) => ({
      n,
      id: e.id,
      type: e.type,
      entity_key: e.entityKey,
      data: e.data,
      source_topic: e.sourceTopic,
      source_record_id: e.sourceRecordId,
      source_produced_at: e.sourceProducedAt,
    }));
    const r = await this.db.query<{ events: number; deliveries: number; freshness: Array<{ type: string; accepted_at: string; created_at: string }> | null }>({
      name: 'webhook_events_insert',
      text: `WITH ev AS (
          INSERT INTO webhook_events (id, type, entity_key, data, source_topic, source_record_id, source_produced_at, created_at)
          SELECT id, type, entity_key, data, source_topic, source_record_id, source_produced_at, clock_timestamp()
          FROM jsonb_to_recordset($1::jsonb)
            AS t(n int, id text, type text, entity_key text, data jsonb, source_topic text, source_record_id text, source_produced_at timestamptz)
          ORDER BY n
          ON CONFLICT (id) DO NOTHING
          RETURNING seq, id, type, entity_key, created_at
        ), logged AS (
          INSERT INTO webhook_event_log_pending (seq) SELECT seq FROM ev
        ), del AS (
          INSERT INTO webhook_deliveries (id, event_id, endpoint_id, status, next_attempt_at)
          SELECT 'del_' || substr(md5(gen_random_uuid()::text), 1, 24), ev.id, e.id, 'pending', now()
          FROM ev JOIN webhook_endpoints e ON ev.type = ANY(e.topics) AND e.enabled AND e.deleted_at IS NULL
          ON CONFLICT ON CONSTRAINT webhook_deliveries_event_endpoint_key DO NOTHING
          RETURNING 1
        )
        SELECT n.events, n.deliveries, CASE WHEN n.deliveries > 0 THEN pg_notify('${WEBHOOK_DELIVERIES_CHANNEL}', '') END AS notified,
          (SELECT json_agg(json_build_object('type', ev.type, 'accepted_at', f.accepted_at, 'created_at', ev.created_at))
             FROM ev JOIN filing_freshness f ON f.accession = ev.entity_key) AS freshness
        FROM (SELECT (SELECT count(*) FROM ev)::int AS events, (SELECT count(*) FROM del)::int AS deliveries) n`,
      values: [JSON.stringify(rows)],
    });
    const { events: inserted, deliveries, freshness } = r.rows[0]!;
    return {
      events: inserted,
      deliveries,
      freshness: (freshness ?? []).map((f) => ({ type: f.type, acceptedAt: new Date(f.accepted_at), createdAt: new Date(f.created_at) })),
    };
  }
}
