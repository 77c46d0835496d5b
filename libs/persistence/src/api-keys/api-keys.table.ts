import { text, timestamptz, table } from '../table';

export type Plan = 'free' | 'builder' | 'pro' | 'enterprise';

/** A customer account; owned by the api app. */
export const ACCOUNTS_TABLE = table('accounts', ['id'], {
  id: text(),
  name: text(),
  plan: text<Plan>(),
  created_at: timestamptz().default('now()'),
});

/**
 * An API key. The secret is never stored: only HMAC-SHA256(server secret, key), looked up by the
 * public id embedded in the key and compared in constant time.
 */
export const API_KEYS_TABLE = table('api_keys', ['id'], {
  /** Public id embedded in the key (`sk_live_<public id>_<secret>`). */
  id: text(),
  account_id: text(),
  mode: text<'live' | 'test'>(),
  secret_hash: text(),
  label: text().nullable(),
  created_at: timestamptz().default('now()'),
  revoked_at: timestamptz().nullable(),
  last_used_at: timestamptz().nullable(),
});
