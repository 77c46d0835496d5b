import type { DataSource } from 'typeorm';

/** A response recorded for an idempotency key, as a replay repeats it. */
export interface RecordedResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

/** What claiming a key found. */
export type IdempotencyClaim =
  /** The key is this request's now: run it, then complete() or release() with the claim id. */
  | { kind: 'claimed'; claimId: string }
  /** A request with this key completed: `requestHash` says whether it had the same body. */
  | { kind: 'completed'; requestHash: string; response: RecordedResponse }
  /** A request with this key is running now. */
  | { kind: 'running'; requestHash: string };

export interface IdempotencyWindows {
  /** How long a completed request's response is kept and replayed. */
  ttlSeconds: number;
  /** A request still marked running after this long died mid-way: a retry may take the key. */
  abandonedAfterSeconds: number;
}

interface KeyRow {
  request_hash: string;
  status_code: number | null;
  response_headers: Record<string, string> | null;
  response_body: string | null;
}

/** Idempotency keys of POST requests: the api's table. */
export class IdempotencyKeysRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Takes the key for a request, unless a live request holds it: an expired key, or one whose
   * request was abandoned, is taken over in the same statement (no race between two retries).
   */
  async claim(accountId: string, key: string, requestHash: string, windows: IdempotencyWindows): Promise<IdempotencyClaim> {
    const taken = await this.dataSource.query<Array<{ claim_id: string }>>(
      `INSERT INTO idempotency_keys (account_id, key, request_hash, claim_id) VALUES ($1, $2, $3, gen_random_uuid())
       ON CONFLICT (account_id, key) DO UPDATE
          SET request_hash = EXCLUDED.request_hash, status_code = NULL, response_headers = NULL, response_body = NULL, created_at = now(),
              claim_id = EXCLUDED.claim_id
        WHERE idempotency_keys.created_at < now() - make_interval(secs => $4)
           OR (idempotency_keys.status_code IS NULL AND idempotency_keys.created_at < now() - make_interval(secs => $5))
       RETURNING claim_id`,
      [accountId, key, requestHash, windows.ttlSeconds, windows.abandonedAfterSeconds],
    );
    if (taken.length > 0) return { kind: 'claimed', claimId: taken[0]!.claim_id };
    const rows = await this.dataSource.query<KeyRow[]>(
      `SELECT request_hash, status_code, response_headers, response_body FROM idempotency_keys WHERE account_id = $1 AND key = $2`,
      [accountId, key],
    );
    const row = rows[0];
    // Deleted in between (its request failed and released it): running is the safe answer.
    if (!row) return { kind: 'running', requestHash };
    if (row.status_code === null) return { kind: 'running', requestHash: row.request_hash };
    return { kind: 'completed', requestHash: row.request_hash, response: { statusCode: row.status_code, headers: row.response_headers ?? {}, body: row.response_body ?? '' } };
  }

  /**
   * Records the response of the request that claimed the key. False when the claim no longer
   * holds it (taken over as abandoned, or expired): the newer claim's record is left alone.
   */
  async complete(accountId: string, key: string, claimId: string, response: RecordedResponse): Promise<boolean> {
    const recorded = await this.dataSource.query<unknown[]>(
      `WITH done AS (
         UPDATE idempotency_keys SET status_code = $4, response_headers = $5::jsonb, response_body = $6
          WHERE account_id = $1 AND key = $2 AND claim_id = $3 AND status_code IS NULL RETURNING 1)
       SELECT 1 FROM done`,
      [accountId, key, claimId, response.statusCode, JSON.stringify(response.headers), response.body],
    );
    return recorded.length > 0;
  }

  /** Gives the key back (its request failed before a response worth replaying), if this claim still holds it: a retry runs again. */
  async release(accountId: string, key: string, claimId: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM idempotency_keys WHERE account_id = $1 AND key = $2 AND claim_id = $3 AND status_code IS NULL`, [accountId, key, claimId]);
  }

  /** Deletes keys older than the replay window; returns how many. */
  async deleteExpired(ttlSeconds: number): Promise<number> {
    // A SELECT around the DELETE: TypeORM answers a bare DELETE with [rows, count], not rows.
    const rows = await this.dataSource.query<{ n: number }[]>(
      `WITH deleted AS (DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(secs => $1) RETURNING 1) SELECT count(*)::int AS n FROM deleted`,
      [ttlSeconds],
    );
    return rows[0]?.n ?? 0;
  }
}
