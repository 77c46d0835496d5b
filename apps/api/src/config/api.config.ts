import { z } from 'zod';
import { databaseConfig, loadConfig, logConfig } from '@app/config';
import { SEARCH_CANDIDATES_PER_KIND, SEARCH_STATEMENT_TIMEOUT_MS } from '@app/persistence';
import { citationsConfig } from '../citations/citations.config';

const int = (def: number) => z.coerce.number().int().min(1).default(def);

/**
 * The api app's environment. Plan limits have defaults and may be overridden per plan:
 * PLAN_<FREE|BUILDER|PRO|ENTERPRISE>_{BURST_PER_SECOND,DAILY_QUOTA,MAX_LIMIT}.
 */
export const apiConfigSchema = databaseConfig.extend(logConfig.shape).extend(citationsConfig.shape).extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  REDIS_URL: z.union([z.literal('').transform(() => undefined), z.string().url()]).optional().describe('When set, rate-limit counters live in Redis (shared by every api process)'),
  REDIS_KEY_PREFIX: z.string().default('rl:'),
  API_KEY_PEPPER: z.string().min(32).describe('Server secret: API keys are stored as HMAC-SHA256(pepper, key)'),
  CURSOR_SECRET: z.string().min(32).describe('Key of the pagination cursors (their encryption key is derived from it); changing it invalidates every cursor'),
  DOCS_URL: z
    .union([z.literal('').transform(() => undefined), z.string().url().transform((u) => u.replace(/\/+$/, ''))])
    .optional()
    .describe("Problem `type` URLs are <DOCS_URL>/errors/<slug>. Unset: PUBLIC_BASE_URL + '/docs', whose /docs/errors/<slug> pages this api serves"),
  PUBLIC_BASE_URL: z
    .string()
    .url()
    .default('http://localhost:3000')
    .transform((u) => u.replace(/\/+$/, ''))
    .describe("The api's public origin as clients reach it (behind proxies, not the listen address): the MCP 401 challenge and the protected-resource metadata name URLs under it"),
  AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).default(30_000),
  CORS_ALLOWED_ORIGINS: z
    .string()
    .default('*')
    .transform((v, ctx) => {
      if (v.trim() === '*') return '*' as const;
      const origins = v.split(',').map((o) => o.trim()).filter((o) => o.length > 0);
      for (const o of origins) {
        if (!/^https?:\/\/[^/?#\s]+$/.test(o)) ctx.addIssue({ code: 'custom', message: `not an origin (scheme://host[:port]): ${o}` });
      }
      return origins;
    })
    .describe(
      "Browser origins allowed to call the api (CORS): '*' (default) lets any origin read (GET/HEAD, with the Authorization header); " +
        'a comma-separated list of origins (https://app.example.com) lets those origins use every method',
    ),
  COMPRESSION_THRESHOLD_BYTES: z.coerce.number().int().min(0).default(1024).describe('Responses at least this large are compressed (br or gzip, as the client accepts)'),
  METRICS_BEARER_TOKEN: z
    .union([z.literal('').transform(() => undefined), z.string().min(16)])
    .optional()
    .describe('When set, GET /metrics requires Authorization: Bearer <this token> (Prometheus: authorization.credentials); unset: /metrics is open, as the ops ports of the worker apps are'),
  SEARCH_STATEMENT_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1)
    .max(2_147_483_647)
    .default(SEARCH_STATEMENT_TIMEOUT_MS)
    .describe('GET /v1/search: Postgres cancels a search statement running longer (SET LOCAL statement_timeout); the request answers 503 search-timeout with Retry-After'),
  SEARCH_CANDIDATES_PER_KIND: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(SEARCH_CANDIDATES_PER_KIND)
    .describe('GET /v1/search: matches of each kind ranked per query, the first by a cheap order of the kind; hits are the best among them'),
  PLAN_FREE_BURST_PER_SECOND: int(5),
  PLAN_FREE_DAILY_QUOTA: int(1_000),
  PLAN_FREE_MAX_LIMIT: int(25),
  PLAN_BUILDER_BURST_PER_SECOND: int(20),
  PLAN_BUILDER_DAILY_QUOTA: int(50_000),
  PLAN_BUILDER_MAX_LIMIT: int(500),
  PLAN_PRO_BURST_PER_SECOND: int(50),
  PLAN_PRO_DAILY_QUOTA: int(500_000),
  PLAN_PRO_MAX_LIMIT: int(500),
  PLAN_ENTERPRISE_BURST_PER_SECOND: int(200),
  PLAN_ENTERPRISE_DAILY_QUOTA: int(5_000_000),
  PLAN_ENTERPRISE_MAX_LIMIT: int(500),
  WEBHOOK_SECRETS_KEY: z
    .union([z.literal('').transform(() => undefined), z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be 32 bytes as 64 hex characters')])
    .optional()
    .describe('Seals webhook signing secrets at rest (AES-256-GCM; the webhooks app opens them with the same key). Unset: the webhook routes answer 503 webhooks-unavailable'),
  WEBHOOKS_ALLOW_HTTP: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true')
    .describe('Accepts plain http:// webhook endpoint URLs (tests, local runs); otherwise https only'),
  WEBHOOKS_ALLOW_PRIVATE_HOSTS: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true')
    .describe('Accepts webhook endpoint URLs that resolve to loopback, private, link-local or other special-use addresses (tests: receivers on 127.0.0.1)'),
});

export type ApiConfig = z.infer<typeof apiConfigSchema>;

export function loadApiConfig(env: NodeJS.ProcessEnv = process.env): ApiConfig {
  return loadConfig(apiConfigSchema, env);
}
