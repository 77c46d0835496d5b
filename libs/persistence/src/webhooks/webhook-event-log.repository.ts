import type { DataSource } from 'typeorm';
import type { WebhookEventData } from '@app/contracts';
import { pgQueryable, type SqlSource } from '../repositories/pg-queryable';

/** A timestamptz as ISO 8601 UTC with its microseconds (a JS Date would drop them). */
const isoMicros = (column: string): string => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * The webhook event log, both ends. The live projector's relay drains the outbox
 * (webhook_event_log_pending, filled by WebhookEventsRepository.insertEvents) to webhooks.events.v1;
 * a replay's projector (PROJECTOR_EVENTS=log) inserts the logged events verbatim.
 */
export class WebhookEventLogRepository {
  constructor(private readonly source: SqlSource) {}

  /**
   * One relay step, in one transaction: takes up to `limit` pending events in seq order (rows
   * another relay holds are skipped), hands them to `publish`, and deletes them from the outbox
   * once it resolved. When `publish` throws, the transaction rolls back and they stay pending for
   * the next step. Resolves with how many were published.
   */
  static async relayPending(ds: DataSource, limit: number, publish: (events: WebhookEventData[]) => Promise<void>): Promise<number> {
    return ds.transaction(async (m) => {
      const db = pgQueryable(m);
      const { rows } = await db.query<WebhookEventData>({
        name: 'webhook_event_log_claim',
        text: `SELECT e.id, e.seq::text AS seq, e.type, e.entity_key, e.data, e.source_topic, e.source_record_id,
                 ${isoMicros('e.source_produced_at')} AS source_produced_at, ${isoMicros('e.created_at')} AS created_at
               FROM webhook_event_log_pending p JOIN webhook_events e ON e.seq = p.seq
               ORDER BY p.seq LIMIT $1 FOR UPDATE OF p SKIP LOCKED`,
        values: [limit],
      });
      if (rows.length === 0) return 0;
      await publish(rows);
      await db.query({ name: 'webhook_event_log_done', text: `DELETE FROM webhook_event_log_pending WHERE seq = ANY($1::bigint[])`, values: [rows.map((r) => r.seq)] });
      return rows.length;
    });
  }

  /** How many events wait for the relay. */
  async pendingCount(): Promise<number> {
    const { rows } = await pgQueryable(this.source).query<{ n: number }>({ text: `SELECT count(*)::int AS n FROM webhook_event_log_pending` });
    return rows[0]!.n;
  }

  /**
   * Inserts logged events as they were (seq and created_at included), no delivery and no outbox
   * row: a replay announces nothing again. An id already there inserts nothing. Then moves the seq
   * sequence past the largest seq inserted, so an event made later in this database (a test
   * event) cannot take a logged seq; under a transaction lock, so batches of two partitions never
   * move it back. Answers how many were inserted.
   */
  async insertLogged(events: readonly WebhookEventData[]): Promise<number> {
    if (events.length === 0) return 0;
    const db = pgQueryable(this.source);
    const inserted = await db.query<{ n: number; max_seq: string | null }>({
      name: 'webhook_event_log_insert',
      text: `WITH ev AS (
          INSERT INTO webhook_events (seq, id, type, entity_key, data, is_test, source_topic, source_record_id, source_produced_at, created_at)
          SELECT seq, id, type, entity_key, data, false, source_topic, source_record_id, source_produced_at, created_at
          FROM jsonb_to_recordset($1::jsonb)
            AS t(seq bigint, id text, type text, entity_key text, data jsonb, source_topic text, source_record_id text, source_produced_at timestamptz, created_at timestamptz)
          ON CONFLICT (id) DO NOTHING
          RETURNING seq
        )
        SELECT count(*)::int AS n, max(seq)::text AS max_seq FROM ev`,
      values: [JSON.stringify(events)],
    });
    const { n, max_seq: maxSeq } = inserted.rows[0]!;
    if (maxSeq !== null) {
      await db.query({ text: `SELECT pg_advisory_xact_lock(hashtext('webhook_events_seq'))` });
      await db.query({
        text: `SELECT setval('webhook_events_seq_seq', GREATEST($1::bigint, (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM webhook_events_seq_seq)))`,
        values: [maxSeq],
      });
    }
    return n;
  }
}
