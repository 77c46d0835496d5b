import type { Pool, PoolClient } from 'pg';
import { poolOf } from '../repositories/pg-queryable';
import type { DataSource } from 'typeorm';
import { keysetOrder, keysetSql, toPage, type Page, type PageRequest } from '../keyset';

/** How old an event must be before the feed serves it (see listEvents). */
export const FEED_SETTLE_SECONDS = 2;

/** A webhook endpoint row (not an API shape). */
export interface EndpointRecord {
  id: string;
  accountId: string;
  url: string;
  topics: string[];
  description: string | null;
  enabled: boolean;
  disabledReason: string | null;
  failingSince: Date | null;
  createdAt: Date;
  updatedAt: Date;
  /** created_at with microseconds (keyset cursor). */
  sortKey: string;
}

/** One attempt as webhook_attempts keeps it (the dispatcher writes it with its AttemptResult). */
export interface AttemptRecord {
  deliveryId: string;
  attempt: number;
  sentAt: Date;
  statusCode: number | null;
  durationMs: number;
  responseExcerpt: string | null;
  error: string | null;
  nextAttemptAt: Date | null;
}

export interface DeliveryRecord {
  id: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  succeededAt: Date | null;
  createdAt: Date;
  sortKey: string;
  eventId: string;
  eventType: string;
  eventIsTest: boolean;
  eventCreatedAt: Date;
  sourceProducedAt: Date | null;
}

export interface EventRecord {
  seq: string;
  id: string;
  type: string;
  data: unknown;
  isTest: boolean;
  createdAt: Date;
}

export interface EndpointListFilter {
  accountId: string;
}

export interface DeliveryListFilter {
  endpointId: string;
  status?: string;
}

export interface EventListFilter {
  /** The reader's account: its own test events are in its feed. */
  accountId: string;
  types?: string[];
}

/** An account's endpoints: created_at (to the microsecond), then id. */
export const WEBHOOK_ENDPOINTS_ORDER = keysetOrder<EndpointRecord>(
  { sql: 'created_at', type: 'timestamptz', of: (e) => e.sortKey },
  { sql: 'id', type: 'text', of: (e) => e.id },
);

/** An endpoint's deliveries: created_at (to the microsecond), then id. */
export const WEBHOOK_DELIVERIES_ORDER = keysetOrder<DeliveryRecord>(
  { sql: 'd.created_at', type: 'timestamptz', of: (d) => d.sortKey },
  { sql: 'd.id', type: 'text', of: (d) => d.id },
);

/** The events feed: seq, the order events were made in. */
export const WEBHOOK_EVENTS_ORDER = keysetOrder<EventRecord>({ sql: 'seq', type: 'bigint', of: (e) => Number(e.seq) });

const ENDPOINT_COLUMNS = `id, account_id AS "accountId", url, topics, description, enabled, disabled_reason AS "disabledReason",
  failing_since AS "failingSince", created_at AS "createdAt", updated_at AS "updatedAt",
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "sortKey"`;

const DELIVERY_COLUMNS = `d.id, d.status, d.attempts, d.next_attempt_at AS "nextAttemptAt", d.last_attempt_at AS "lastAttemptAt",
  d.succeeded_at AS "succeededAt", d.created_at AS "createdAt",
  to_char(d.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "sortKey",
  e.id AS "eventId", e.type AS "eventType", e.is_test AS "eventIsTest", e.created_at AS "eventCreatedAt", e.source_produced_at AS "sourceProducedAt"`;

/**
 * The API's side of the webhook tables: it is the one writer of endpoints and their secrets; it
 * asks for retries and recoveries (a delivery set pending and due; the dispatcher does the rest)
 * and, for a test event, inserts that event and its one delivery itself (the projector inserts
 * every other event). It reads deliveries, attempts and the event feed. Raw parameterized SQL on
 * the pg pool. Every endpoint query is scoped to the caller's account and skips soft-deleted
 * endpoints, so another account's endpoint is simply not found.
 */
export class WebhookEndpointsRepository {
  private readonly pool: Pool;

  constructor(dataSource: DataSource) {
    this.pool = poolOf(dataSource);
  }

  private async tx<T>(fn: (c: PoolClient) => Promise<T>): Promise<T> {
    const c = await this.pool.connect();
    try {
      await c.query('BEGIN');
      const out = await fn(c);
      await c.query('COMMIT');
      return out;
    } catch (err) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      c.release();
    }
  }

  async createEndpoint(e: { id: string; accountId: string; url: string; topics: string[]; description: string | null }, sealedSecret: string): Promise<EndpointRecord> {
    return this.tx(async (c) => {
      const r = await c.query<EndpointRecord>(
        `INSERT INTO webhook_endpoints (id, account_id, url, topics, description) VALUES ($1, $2, $3, $4::text[], $5) RETURNING ${ENDPOINT_COLUMNS}`,
        [e.id, e.accountId, e.url, e.topics, e.description],
      );
      await c.query(`INSERT INTO webhook_endpoint_secrets (endpoint_id, sealed_secret) VALUES ($1, $2)`, [e.id, sealedSecret]);
      return r.rows[0]!;
    });
  }

  async findEndpoint(accountId: string, id: string): Promise<EndpointRecord | null> {
    const r = await this.pool.query<EndpointRecord>(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL`,
      [id, accountId],
    );
    return r.rows[0] ?? null;
  }

  async listEndpoints(filter: EndpointListFilter, page: PageRequest): Promise<Page<EndpointRecord>> {
    const params: unknown[] = [filter.accountId];
    const where = ['account_id = $1', 'deleted_at IS NULL'];
    const keyset = keysetSql(WEBHOOK_ENDPOINTS_ORDER, page, params);
    if (keyset.predicate) where.push(keyset.predicate);
    const r = await this.pool.query<EndpointRecord>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE ${where.join(' AND ')} ${keyset.orderByLimit}`, params);
    return toPage(WEBHOOK_ENDPOINTS_ORDER, r.rows, page.limit);
  }

  /** Applies the given changes; `enabled` true also clears disabled_reason and failing_since. */
  async updateEndpoint(
    accountId: string,
    id: string,
    changes: { url?: string; topics?: string[]; description?: string | null; enabled?: boolean },
  ): Promise<EndpointRecord | null> {
    const sets: string[] = ['updated_at = now()'];
    const params: unknown[] = [id, accountId];
    const set = (sql: (p: string) => string, v: unknown): void => {
      params.push(v);
      sets.push(sql(`$${params.length}`));
    };
    if (changes.url !== undefined) set((p) => `url = ${p}`, changes.url);
    if (changes.topics !== undefined) set((p) => `topics = ${p}::text[]`, changes.topics);
    if (changes.description !== undefined) set((p) => `description = ${p}`, changes.description);
    if (changes.enabled === true) sets.push('enabled = true', 'disabled_reason = NULL', 'failing_since = NULL');
    if (changes.enabled === false) sets.push('enabled = false', `disabled_reason = 'manual'`);
    const r = await this.pool.query<EndpointRecord>(
      `UPDATE webhook_endpoints SET ${sets.join(', ')} WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL RETURNING ${ENDPOINT_COLUMNS}`,
      params,
    );
    return r.rows[0] ?? null;
  }

  /** Soft delete; its pending deliveries stop (failed, recoverable only while the endpoint exists: never). */
  async deleteEndpoint(accountId: string, id: string): Promise<boolean> {
    return this.tx(async (c) => {
      const r = await c.query(
        `UPDATE webhook_endpoints SET deleted_at = now(), updated_at = now(), enabled = false WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL`,
        [id, accountId],
      );
      if (r.rowCount !== 1) return false;
      // lease_token = NULL: an attempt in flight then records its result as an attempt only.
      await c.query(`UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, lease_token = NULL WHERE endpoint_id = $1 AND status = 'pending'`, [id]);
      return true;
    });
  }

  /** New current secret; the previous current one expires in `graceHours`. Null when the endpoint is not the account's. */
  async rotateSecret(accountId: string, id: string, sealedSecret: string, graceHours: number): Promise<{ previousExpiresAt: Date | null } | null> {
    return this.tx(async (c) => {
      const owned = await c.query(`SELECT 1 FROM webhook_endpoints WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL FOR UPDATE`, [id, accountId]);
      if (owned.rowCount !== 1) return null;
      const old = await c.query<{ expiresAt: Date }>(
        `UPDATE webhook_endpoint_secrets SET expires_at = now() + make_interval(hours => $2)
         WHERE endpoint_id = $1 AND expires_at IS NULL RETURNING expires_at AS "expiresAt"`,
        [id, graceHours],
      );
      await c.query(`INSERT INTO webhook_endpoint_secrets (endpoint_id, sealed_secret) VALUES ($1, $2)`, [id, sealedSecret]);
      await c.query(`UPDATE webhook_endpoints SET updated_at = now() WHERE id = $1`, [id]);
      return { previousExpiresAt: old.rows[0]?.expiresAt ?? null };
    });
  }

  /** A test event (visible to the account only) and its delivery to the endpoint, due now. */
  async insertTestEvent(e: { eventId: string; type: string; data: unknown; accountId: string; endpointId: string; deliveryId: string }): Promise<void> {
    await this.tx(async (c) => {
      await c.query(`INSERT INTO webhook_events (id, type, data, is_test, account_id) VALUES ($1, $2, $3::jsonb, true, $4)`, [
        e.eventId,
        e.type,
        JSON.stringify(e.data),
        e.accountId,
      ]);
      await c.query(`INSERT INTO webhook_deliveries (id, event_id, endpoint_id, status, next_attempt_at) VALUES ($1, $2, $3, 'pending', now())`, [
        e.deliveryId,
        e.eventId,
        e.endpointId,
      ]);
    });
  }

  /** Deliveries of an endpoint (the route pages them newest first). */
  async listDeliveries(filter: DeliveryListFilter, page: PageRequest): Promise<Page<DeliveryRecord>> {
    const params: unknown[] = [filter.endpointId];
    const where = ['d.endpoint_id = $1'];
    if (filter.status !== undefined) {
      params.push(filter.status);
      where.push(`d.status = $${params.length}`);
    }
    const keyset = keysetSql(WEBHOOK_DELIVERIES_ORDER, page, params);
    if (keyset.predicate) where.push(keyset.predicate);
    const r = await this.pool.query<DeliveryRecord>(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
       WHERE ${where.join(' AND ')} ${keyset.orderByLimit}`,
      params,
    );
    return toPage(WEBHOOK_DELIVERIES_ORDER, r.rows, page.limit);
  }

  async listAttempts(deliveryIds: string[]): Promise<AttemptRecord[]> {
    if (!deliveryIds.length) return [];
    const r = await this.pool.query<AttemptRecord>(
      `SELECT delivery_id AS "deliveryId", attempt, sent_at AS "sentAt", status_code AS "statusCode", duration_ms AS "durationMs",
         response_excerpt AS "responseExcerpt", error, next_attempt_at AS "nextAttemptAt"
       FROM webhook_attempts WHERE delivery_id = ANY($1::text[]) ORDER BY delivery_id, attempt, id`,
      [deliveryIds],
    );
    return r.rows;
  }

  /** Sets one delivery of the endpoint pending and due now; null when there is no such delivery. */
  async retryDelivery(endpointId: string, deliveryId: string): Promise<{ nextAttemptAt: Date } | null> {
    const r = await this.pool.query<{ nextAttemptAt: Date }>(
      `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now()
       WHERE id = $1 AND endpoint_id = $2 RETURNING next_attempt_at AS "nextAttemptAt"`,
      [deliveryId, endpointId],
    );
    return r.rows[0] ?? null;
  }

  /** Requeues the endpoint's failed deliveries created at or after `since`; answers how many. */
  async recoverDeliveries(endpointId: string, since: Date): Promise<number> {
    const r = await this.pool.query(
      `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now() WHERE endpoint_id = $1 AND status = 'failed' AND created_at >= $2`,
      [endpointId, since],
    );
    return r.rowCount ?? 0;
  }

  /**
   * Feed page: events after the page's key in seq order (the feed reads ascending); real events and the account's own test events.
   * Only events made FEED_SETTLE_SECONDS ago or earlier: a seq is taken when the row is inserted,
   * so an event of a transaction still open could later appear below a seq a reader has passed.
   * created_at is the time of the insert, the projector's last statement before its batch commits,
   * so the window holds however long the batch's projections took.
   */
  async listEvents(filter: EventListFilter, page: PageRequest): Promise<Page<EventRecord>> {
    const params: unknown[] = [filter.accountId];
    const where = ['(NOT is_test OR account_id = $1)', `created_at <= now() - interval '${FEED_SETTLE_SECONDS} seconds'`];
    if (filter.types?.length) {
      params.push(filter.types);
      where.push(`type = ANY($${params.length}::text[])`);
    }
    const keyset = keysetSql(WEBHOOK_EVENTS_ORDER, page, params);
    if (keyset.predicate) where.push(keyset.predicate);
    const r = await this.pool.query<EventRecord>(
      `SELECT seq::text AS seq, id, type, data, is_test AS "isTest", created_at AS "createdAt" FROM webhook_events
       WHERE ${where.join(' AND ')} ${keyset.orderByLimit}`,
      params,
    );
    return toPage(WEBHOOK_EVENTS_ORDER, r.rows, page.limit);
  }

  /** Whether the event at `seq` is in the account's feed: not a test event of another account. */
  async isEventInFeed(accountId: string, seq: number): Promise<boolean> {
    const r = await this.pool.query(`SELECT 1 FROM webhook_events WHERE seq = $1 AND (NOT is_test OR account_id = $2)`, [seq, accountId]);
    return r.rows.length > 0;
  }
}
