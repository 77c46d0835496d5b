import { createHmac } from 'node:crypto';
import { signingKeyOf } from './secrets';

/**
 * Standard Webhooks signature: `v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>`, one
 * per active secret, space-separated (during a rotation both the new and the old secret sign).
 * `timestamp` is in seconds since the epoch, as sent in `webhook-timestamp`.
 */
export function signPayload(secrets: readonly string[], id: string, timestampSeconds: number, body: string): string {
  return secrets
    .map((secret) => `v1,${createHmac('sha256', signingKeyOf(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`)
    .join(' ');
}

/** The headers of one delivery attempt. */
export function webhookHeaders(secrets: readonly string[], id: string, timestampSeconds: number, body: string, userAgent: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': userAgent,
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signPayload(secrets, id, timestampSeconds, body),
  };
}
