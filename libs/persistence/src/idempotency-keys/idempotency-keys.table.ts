import { integer, jsonb, text, timestamptz, uuid, table } from '../table';

/**
 * A POST sent with an `Idempotency-Key` (the api's table): the first request's body hash, then its
 * response, replayed to a retry with the same key and body for 24 hours.
 */
export const IDEMPOTENCY_KEYS_TABLE = table('idempotency_keys', ['account_id', 'key'], {
  /** Keys are per account: two accounts may use the same key. */
  account_id: text(),
  key: text(),
  /** sha256 of the method, the path and the JSON body of the first request. */
  request_hash: text(),
  /** Null while the first request runs. */
  status_code: integer().nullable(),
  /** The response headers a replay repeats (content-type, location). */
  response_headers: jsonb<Record<string, string>>().nullable(),
  /** The response body as sent, sealed by the api (AES-256-GCM: it may carry a secret); text, so a replay is byte for byte the first response. */
  response_body: text().nullable(),
  created_at: timestamptz().default('now()'),
  /** Which claim holds the key: only that request may complete or release it. */
  claim_id: uuid(),
});
