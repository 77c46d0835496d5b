import { randomUUID } from 'node:crypto';
import { Client, type Pool } from 'pg';
import { poolOf } from '../repositories/pg-queryable';
import type { DataSource } from 'typeorm';
import type { AttemptRecord } from './webhook-endpoints.repository';
import { WEBHOOK_DELIVERIES_CHANNEL } from './webhook-events.repository';

/** A claimed delivery with everything an attempt needs. */
export interface ClaimedDelivery {
  id: string;
  /** Attempts made before this one. */
  attempts: number;
  eventId: string;
  type: string;
  eventCreatedAt: Date;
  /** The event's data as JSON text. */
  data: string;
  isTest: boolean;
  endpointId: string;
  url: string;
  /** Active sealed secrets, newest first. */
  sealedSecrets: string[];
  /** This claim's token: results and releases apply only while the row still carries it. */
  leaseToken: string;
  /**
   * EDGAR's acceptance of the filing the event is about, when live discovery found it (its
   * filing_freshness row): what the freshness of this delivery is measured from. Null otherwise.
   */
  filingAcceptedAt: Date | null;
}

/**
 * What the dispatcher writes for one attempt: the attempt row (AttemptRecord, as the API reads it
 * back) and what follows from it for the delivery and the endpoint.
 */
export interface AttemptResult extends AttemptRecord {
  /** The claim the attempt was made under (ClaimedDelivery.leaseToken). */
  leaseToken: string;
  endpointId: string;
  /** succeeded | retry (nextAttemptAt set) | failed (exhausted) | gone (410: endpoint disabled). */
  result: 'succeeded' | 'retry' | 'failed' | 'gone';
}

/**
 * Planner settings of the connections that claim, record and release (libpq `options`). Those
 * statements are lookups of a batch of rows by index: the due index in order for a claim, the
 * primary key for the rest. Under a burst the statistics are stale (they say few deliveries are
 * pending, while thousands are), and with them the planner bitmap-scans and sorts every pending
 * row for each claim and hash-joins every pending row for each batch of results: work that grows
 * with the backlog, once per batch. Sorts, bitmap scans, hash and merge joins cost too much to
 * choose here whenever an index path exists; jit is off because those costs would start it.
 */
export const DISPATCH_PLANNER_OPTIONS = '-c enable_sort=off -c enable_bitmapscan=off -c enable_hashjoin=off -c enable_mergejoin=off -c jit=off';

/**
 * The dispatcher's side of the webhook tables (it is their one writer of delivery state and of
 * attempts): claim due deliveries, record attempts and their consequences, give claims back.
 * Every write is one SQL statement (atomic without an explicit transaction, one round trip), run
 * on `dispatchPool` when given: a pool opened with DISPATCH_PLANNER_OPTIONS.
 */
export class WebhookDispatchRepository {
  private readonly dispatchPool: Pool;

  constructor(dataSource: DataSource, dispatchPool?: Pool) {
    this.dispatchPool = dispatchPool ?? poolOf(dataSource);
  }

  /**
   * Claims up to `limit` due, unleased deliveries of enabled endpoints (SKIP LOCKED: processes
   * never claim the same row), oldest due first, and leases them for `leaseMs` (leased_until, in
   * no index: a HOT update) under a new lease token, committed at once: a process that dies
   * mid-attempt leaves its deliveries due again when the lease ends; one that outlived its lease
   * (stalled) finds another token on the row and changes nothing (recordAttempts, release).
   * The endpoint check is a subquery per row, not a join, so that the plan stays one walk of the
   * due index in order, stopped at the limit.
   */
  async claim(limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    const r = await this.dispatchPool.query<ClaimedDelivery>({
      name: 'webhook_deliveries_claim',
      text: `WITH due AS (
          SELECT d.id FROM webhook_deliveries d
          WHERE d.status = 'pending' AND d.next_attempt_at <= now() AND (d.leased_until IS NULL OR d.leased_until <= now())
            AND (SELECT e.enabled AND e.deleted_at IS NULL FROM webhook_endpoints e WHERE e.id = d.endpoint_id)
          ORDER BY d.next_attempt_at
          LIMIT $1
          FOR UPDATE OF d SKIP LOCKED
        ), claimed AS (
          UPDATE webhook_deliveries d SET leased_until = now() + $2 * interval '1 millisecond', lease_token = $3::uuid
          FROM due WHERE d.id = due.id
          RETURNING d.id, d.attempts, d.event_id, d.endpoint_id, d.lease_token
        )
        SELECT c.id, c.attempts, c.event_id AS "eventId", ev.type, ev.created_at AS "eventCreatedAt", ev.data::text AS data,
          ev.is_test AS "isTest", e.id AS "endpointId", e.url,
          ARRAY(SELECT s.sealed_secret FROM webhook_endpoint_secrets s
                WHERE s.endpoint_id = e.id AND (s.expires_at IS NULL OR s.expires_at > now())
                ORDER BY s.created_at DESC, s.id DESC) AS "sealedSecrets",
          c.lease_token::text AS "leaseToken", f.accepted_at AS "filingAcceptedAt"
        FROM claimed c JOIN webhook_events ev ON ev.id = c.event_id JOIN webhook_endpoints e ON e.id = c.endpoint_id
        LEFT JOIN filing_freshness f ON f.accession = ev.entity_key AND NOT ev.is_test`,
      values: [limit, leaseMs, randomUUID()],
    });
    return r.rows;
  }

  /**
   * Records attempts and their consequences in one statement (one round trip, one commit for the
   * lot: what bounds the dispatcher's rate on one database): the attempt rows, each delivery's
   * state, and each endpoint's health. Per endpoint, its latest attempt in the batch decides:
   * a success ends a failure streak; a 410 disables it as gone; a failed attempt sent
   * `disableAfterMs` or more after the streak's first failure disables it as failing (measured
   * between attempts' send times, one clock, not against the time of recording). Returns the
   * endpoints this disabled, with the reason.
   * A result changes its delivery only while the row carries the claim's lease token, and clears
   * it: the token is set by a claim of a pending delivery and cleared by its result and by
   * anything else that ends the delivery (an endpoint deleted), so one claim changes a delivery
   * once, and only while it is pending. Matching on the token and id alone (no status) keeps the
   * update a primary-key lookup per result.
   */
  async recordAttempts(attempts: readonly AttemptResult[], disableAfterMs: number): Promise<Map<string, string>> {
    if (attempts.length === 0) return new Map();
    const col = <T>(f: (a: AttemptResult) => T): T[] => attempts.map(f);
    const r = await this.dispatchPool.query<{ id: string; disabled_reason: string }>({
      name: 'webhook_attempts_record',
      text: `WITH a AS (
          SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::timestamptz[], $5::int[], $6::int[], $7::text[], $8::text[], $9::text[], $10::timestamptz[], $12::uuid[])
            AS t(delivery_id, endpoint_id, attempt, sent_at, status_code, duration_ms, response_excerpt, error, result, next_attempt_at, lease_token)
        ), att AS (
          INSERT INTO webhook_attempts (delivery_id, attempt, sent_at, status_code, duration_ms, response_excerpt, error, next_attempt_at)
          SELECT delivery_id, attempt, sent_at, status_code, duration_ms, response_excerpt, error, next_attempt_at FROM a
        ), del AS (
          UPDATE webhook_deliveries d SET
            attempts = GREATEST(d.attempts, a.attempt),
            last_attempt_at = a.sent_at,
            status = CASE a.result WHEN 'succeeded' THEN 'succeeded' WHEN 'retry' THEN 'pending' ELSE 'failed' END,
            next_attempt_at = CASE WHEN a.result = 'retry' THEN a.next_attempt_at END,
            leased_until = NULL,
            lease_token = NULL,
            succeeded_at = CASE WHEN a.result = 'succeeded' THEN now() ELSE d.succeeded_at END
          FROM a WHERE d.id = a.delivery_id AND d.lease_token = a.lease_token
        ), latest AS (
          SELECT DISTINCT ON (endpoint_id) endpoint_id, result, sent_at,
            bool_or(result = 'gone') OVER (PARTITION BY endpoint_id) AS gone,
            min(sent_at) FILTER (WHERE result <> 'succeeded') OVER (PARTITION BY endpoint_id) AS first_failure
          FROM a ORDER BY endpoint_id, sent_at DESC
        ), ep AS (
          UPDATE webhook_endpoints e SET
            failing_since = CASE WHEN l.result = 'succeeded' THEN NULL ELSE coalesce(e.failing_since, l.first_failure) END,
            enabled = CASE
              WHEN l.gone THEN false
              WHEN l.result <> 'succeeded' AND l.sent_at - coalesce(e.failing_since, l.first_failure) >= $11 * interval '1 millisecond' THEN false
              ELSE e.enabled END,
            disabled_reason = CASE
              WHEN NOT e.enabled THEN e.disabled_reason
              WHEN l.gone THEN 'gone'
              WHEN l.result <> 'succeeded' AND l.sent_at - coalesce(e.failing_since, l.first_failure) >= $11 * interval '1 millisecond' THEN 'failing'
              ELSE e.disabled_reason END,
            updated_at = now()
          FROM latest l
          WHERE e.id = l.endpoint_id AND (l.result <> 'succeeded' OR e.failing_since IS NOT NULL OR l.gone)
          RETURNING e.id, e.enabled, e.disabled_reason
        )
        SELECT id, disabled_reason FROM ep WHERE NOT enabled`,
      values: [
        col((a) => a.deliveryId),
        col((a) => a.endpointId),
        col((a) => a.attempt),
        col((a) => a.sentAt),
        col((a) => a.statusCode),
        col((a) => a.durationMs),
        col((a) => a.responseExcerpt),
        col((a) => a.error),
        col((a) => a.result),
        col((a) => a.nextAttemptAt),
        disableAfterMs,
        col((a) => a.leaseToken),
      ],
    });
    return new Map(r.rows.map((row) => [row.id, row.disabled_reason]));
  }

  /** Gives leased deliveries back (stop before their attempt started): due again for any process. */
  async release(claims: ReadonlyArray<{ id: string; leaseToken: string }>): Promise<void> {
    if (claims.length === 0) return;
    await this.dispatchPool.query(
      `UPDATE webhook_deliveries d SET leased_until = NULL FROM unnest($1::text[], $2::uuid[]) AS c(id, lease_token)
       WHERE d.id = c.id AND d.lease_token = c.lease_token`,
      [claims.map((c) => c.id), claims.map((c) => c.leaseToken)],
    );
  }
}

export interface DeliveriesListener {
  close(): Promise<void>;
}

/**
 * Calls `onNew` whenever a transaction that inserted deliveries commits (LISTEN on
 * WEBHOOK_DELIVERIES_CHANNEL, notified by WebhookEventsRepository.insertEvents), on a connection
 * of its own. A lost connection is opened again after `reconnectMs` (then `onNew` is called once:
 * a notification may have been missed); meanwhile the dispatcher's poll finds the deliveries.
 */
export async function listenForNewDeliveries(
  connectionString: string,
  onNew: () => void,
  logger: { warn(obj: object, msg: string): void },
  reconnectMs = 1_000,
): Promise<DeliveriesListener> {
  let client: Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    const c = new Client({ connectionString, application_name: 'webhooks-listener' });
    const lost = (err?: Error): void => {
      if (closed || client !== c) return;
      client = undefined;
      logger.warn({ err }, 'the new-deliveries listener lost its connection: polling until it is back');
      c.end().catch(() => undefined);
      retry = setTimeout(() => void reconnect(), reconnectMs);
    };
    c.on('notification', () => onNew());
    c.on('error', lost);
    c.on('end', () => lost());
    try {
      await c.connect();
      await c.query(`LISTEN ${WEBHOOK_DELIVERIES_CHANNEL}`);
    } catch (err) {
      await c.end().catch(() => undefined);
      throw err;
    }
    // Only now does a lost connection count (and schedule a reconnect).
    if (closed) await c.end().catch(() => undefined);
    else client = c;
  };
  const reconnect = async (): Promise<void> => {
    if (closed) return;
    try {
      await connect();
      onNew();
    } catch (err) {
      logger.warn({ err }, 'the new-deliveries listener could not connect: polling until it can');
      if (!closed) retry = setTimeout(() => void reconnect(), reconnectMs);
    }
  };
  await connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      const c = client;
      client = undefined;
      await c?.end().catch(() => undefined);
    },
  };
}
