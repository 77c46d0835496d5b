import { z } from 'zod';
import { databaseConfig, logConfig, opsConfig } from '@app/config';
import { DEFAULT_ATTEMPT_TIMEOUT_MS, DEFAULT_DISABLE_AFTER, DEFAULT_RETRY_SCHEDULE, parseDuration, parseRetrySchedule } from '@app/webhooks';

const flag = (description: string) =>
  z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true')
    .describe(description);

/** A duration as a number of ms or with a unit ("5d", "30s"). */
const duration = (fallback: string, description: string) =>
  z
    .string()
    .default(fallback)
    .transform((v, ctx) => {
      try {
        return /^\d+$/.test(v.trim()) ? Number(v) : parseDuration(v);
      } catch (e) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: (e as Error).message });
        return z.NEVER;
      }
    })
    .describe(description);

/** The dispatcher's configuration: Postgres only (it consumes no topic). */
export const webhooksConfigSchema = databaseConfig
  .extend(logConfig.shape)
  .extend(opsConfig.shape)
  .extend({
    WEBHOOK_SECRETS_KEY: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, 'must be 32 bytes as 64 hex characters')
      .describe('Opens the sealed signing secrets (the key the api seals them with)'),
    WEBHOOKS_ALLOW_HTTP: flag('Delivers to plain http:// URLs (tests, local runs); otherwise https only'),
    WEBHOOKS_ALLOW_PRIVATE_HOSTS: flag('Delivers to loopback, private, link-local and other special-use addresses (tests: receivers on 127.0.0.1)'),
    WEBHOOKS_TIMEOUT_MS: z.coerce.number().int().min(100).default(DEFAULT_ATTEMPT_TIMEOUT_MS).describe('Whole attempt (connect, send, response): longer is a failed attempt'),
    WEBHOOKS_RETRY_SCHEDULE: z
      .string()
      .default(DEFAULT_RETRY_SCHEDULE)
      .transform((v, ctx) => {
        try {
          return parseRetrySchedule(v);
        } catch (e) {
          ctx.addIssue({ code: z.ZodIssueCode.custom, message: (e as Error).message });
          return z.NEVER;
        }
      })
      .describe('Delays before each retry, comma-separated with units (±20 % jitter); after the last one the delivery fails'),
    WEBHOOKS_LEASE_SLACK_MS: duration(
      '30s',
      'Added to the attempt timeouts of a claim: after that a delivery claimed by a process that died is due again for any process',
    ),
    WEBHOOKS_DISABLE_AFTER_MS: duration(DEFAULT_DISABLE_AFTER, 'An endpoint failing without a success for this long is disabled (reason failing)'),
    WEBHOOKS_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(16).describe('Deliveries in flight per process'),
    WEBHOOKS_POLL_MS: z.coerce
      .number()
      .int()
      .min(10)
      .default(250)
      .describe("How often an idle dispatcher looks for due deliveries (retries coming due; new ones wake it at the projector's commit)"),
    PUBLIC_BASE_URL: z
      .string()
      .url()
      .default('http://localhost:3000')
      .transform((u) => u.replace(/\/+$/, ''))
      .describe("The api's public origin (the api's PUBLIC_BASE_URL): the delivery User-Agent links to its /docs/webhooks page"),
    WEBHOOKS_USER_AGENT: z
      .union([z.literal('').transform(() => undefined), z.string().min(1)])
      .optional()
      .describe('User-Agent of every delivery. Unset: filings-platform-webhooks/1.0 (+<PUBLIC_BASE_URL>/docs/webhooks)'),
  });

export type WebhooksConfig = z.infer<typeof webhooksConfigSchema>;

/** The User-Agent of every delivery: a product token and the page that explains the deliveries. */
export function deliveryUserAgent(config: Pick<WebhooksConfig, 'PUBLIC_BASE_URL' | 'WEBHOOKS_USER_AGENT'>): string {
  return config.WEBHOOKS_USER_AGENT ?? `filings-platform-webhooks/1.0 (+${config.PUBLIC_BASE_URL}/docs/webhooks)`;
}
