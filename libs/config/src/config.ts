import { z } from 'zod';

/**
 * Shared configuration pieces. Each app composes the pieces it needs into one schema, parses the
 * environment once at start and reports every invalid variable at once.
 */
const csv = z
  .string()
  .transform((s) => s.split(',').map((x) => x.trim()).filter((x) => x.length > 0));

export const kafkaConfig = z.object({
  KAFKA_TOPIC_NAMESPACE: z.string().regex(/^[a-z0-9_-]*$/).default('').describe('Prefix of every topic name (isolates test runs and environments)'),
  KAFKA_BROKERS: csv.default(['127.0.0.1:9092']).describe('Comma-separated host:port list'),
  KAFKA_CLIENT_ID: z.string().min(1).optional(),
  KAFKA_PUBLISH_RETRY_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(300_000)
    .describe('How long an ingestor keeps retrying a publish through a broker outage before it stops (checkpoint, non-zero exit)'),
});

/** Every consumer app: how much of a partition its handler gets at once (libs/messaging BatchLimits). */
export const consumerConfig = z.object({
  CONSUMER_BATCH_MAX_RECORDS: z.coerce.number().int().min(1).max(100_000).default(500).describe('Most records handed to a handler at once'),
  CONSUMER_BATCH_MAX_BYTES: z.coerce.number().int().min(1024).default(1024 * 1024).describe('Most message bytes handed to a handler at once'),
  CONSUMER_PARTITIONS_CONCURRENTLY: z.coerce.number().int().min(1).max(64).default(1).describe('Partitions whose batches are handled at the same time'),
  CONSUMER_SESSION_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(6_000)
    .max(300_000)
    .optional()
    .describe(
      'Consumer group session timeout; unset: 10000. A consumer killed without leaving its group is replaced this long after; one that sends no heartbeat this long (event loop blocked) is dropped and its batch redelivered',
    ),
  CONSUMER_READY_MAX_LAG: z.coerce.number().int().min(0).default(100_000).describe('Records of lag above which the ops port\'s /readyz answers 503 naming the lag'),
});

export const databaseConfig = z.object({
  DATABASE_URL: z.string().url().describe('postgres://user@host:port/db'),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
});

export const edgarConfig = z.object({
  EDGAR_USER_AGENT: z
    .string()
    .regex(/\S+ \S+@\S+/, 'must name the company and a contact e-mail, as SEC requires (e.g. "Acme Data ops@acme.example")')
    .describe('Declared User-Agent sent to SEC'),
  EDGAR_WWW_BASE_URL: z.string().url().default('https://www.sec.gov'),
  EDGAR_DATA_BASE_URL: z.string().url().default('https://data.sec.gov'),
  EDGAR_MAX_RPS: z.coerce.number().positive().max(10).default(10),
  EDGAR_THROTTLE_PAUSE_MS: z.coerce.number().int().min(0).default(600_000),
  EDGAR_BUDGET_REDIS_URL: z
    .union([z.literal('').transform(() => undefined), z.string().url()])
    .optional()
    .describe('Redis holding the one EDGAR request budget of every process of this client (SEC counts per IP); unset: each process keeps its own'),
  EDGAR_BUDGET_KEY_PREFIX: z.string().min(1).default('edgar-budget:').describe('Prefix of the budget\'s Redis keys'),
});

export const logConfig = z.object({
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export const opsConfig = z.object({
  OPS_PORT: z
    .preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(0).max(65535).optional())
    .describe('Port of a worker app\'s /healthz, /readyz and /metrics; unset or empty: none'),
  OPS_HOST: z.string().min(1).default('127.0.0.1').describe('Address the ops port binds to (0.0.0.0 in a container)'),
});

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses `env` with `schema`, throwing one ConfigError naming every invalid variable. */
export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`));
  }
  return parsed.data;
}
