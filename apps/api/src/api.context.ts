import Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import { createLogger, type Logger } from '@app/observability';
import { ApiKeysRepository, CompaniesRepository, createDataSource, IdempotencyKeysRepository, pingDatabase } from '@app/persistence';
import { API_MODULES } from './api.modules';
import { ApiKeysService } from './auth/api-keys.service';
import { CompaniesService } from './companies/companies.service';
import type { ApiConfig } from './config/api.config';
import { McpController, MCP_PATH, protectedResourceMetadataUrl } from './mcp/mcp.controller';
import { McpToolsService } from './mcp/mcp.service';
import { MetricsController } from './metrics/metrics.controller';
import { DocsController } from './openapi/docs.controller';
import { ApiHttp } from './platform/api.http';
import { ApiMetrics } from './platform/api.metrics';
import { CursorCodec } from './platform/cursor.codec';
import { DependencyOutages } from './platform/dependency-outages';
import { Idempotency } from './platform/idempotency';
import { Paging } from './platform/paging';
import type { ApiDeps } from './platform/route.module';
import { RouteBinder, type BoundRoute } from './platform/route.registry';
import { planTable } from './rate-limit/plans';
import { InMemoryRateLimiter, RedisRateLimiter, type RateLimiter } from './rate-limit/rate-limiter';

export interface ApiContextOptions {
  logger?: Logger;
}

/** Everything the api needs, wired by hand (plain constructors): shared by the Nest app and the plain Fastify build. */
export interface ApiContext {
  config: ApiConfig;
  logger: Logger;
  dataSource: DataSource;
  redis: Redis | null;
  keys: ApiKeysService;
  limiter: RateLimiter;
  http: ApiHttp;
  routes: BoundRoute[];
  close(): Promise<void>;
}

export async function createApiContext(config: ApiConfig, options: ApiContextOptions = {}): Promise<ApiContext> {
  const logger = options.logger ?? createLogger({ level: config.LOG_LEVEL, name: 'api' });
  const dataSource = createDataSource({ url: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE, applicationName: 'api' });
  await dataSource.initialize();
  let redis: Redis | null = null;
  const outages = new DependencyOutages({ postgres: () => pingDatabase(dataSource), redis: async () => redis?.ping() }, logger);
  try {
    if (config.REDIS_URL) {
      // No offline queue: while Redis is unreachable a request fails at once (503) instead of
      // waiting out ioredis' reconnect attempts (measured: up to 12 s per request).
      redis = new Redis(config.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 2, enableAutoPipelining: true, enableOfflineQueue: false });
      // Every reconnect attempt emits an error: the outage is logged once, when it starts.
      redis.on('error', (err: unknown) => outages.failed('redis', err));
      await redis.connect();
    }
  } catch (err) {
    await dataSource.destroy();
    redis?.disconnect();
    throw err;
  }
  const plans = planTable(config);
  const limiter: RateLimiter = redis ? new RedisRateLimiter(redis, config.REDIS_KEY_PREFIX) : new InMemoryRateLimiter();
  const keys = new ApiKeysService(new ApiKeysRepository(dataSource), config.API_KEY_PEPPER, logger, config.AUTH_CACHE_TTL_MS);
  const metrics = new ApiMetrics();
  // Problem types lead to the error pages this api serves, unless DOCS_URL points elsewhere.
  const docsUrl = config.DOCS_URL ?? `${config.PUBLIC_BASE_URL}/docs`;
  const http = new ApiHttp({
    docsUrl,
    conventions: { corsOrigins: config.CORS_ALLOWED_ORIGINS, compressThresholdBytes: config.COMPRESSION_THRESHOLD_BYTES },
    idempotency: new Idempotency(new IdempotencyKeysRepository(dataSource), config.API_KEY_PEPPER, logger),
    metrics,
    keys,
    limiter,
    plans,
    logger,
    mcp: { path: MCP_PATH, resourceMetadataUrl: protectedResourceMetadataUrl(config.PUBLIC_BASE_URL) },
    outages,
  });
  // Stateless and shared by every route module.
  const deps: ApiDeps = {
    config,
    logger,
    dataSource,
    redis,
    binder: new RouteBinder(plans),
    paging: new Paging(new CursorCodec(config.CURSOR_SECRET)),
    companies: new CompaniesService(new CompaniesRepository(dataSource)),
  };
  const routes = [...API_MODULES.flatMap((m) => m.bind(deps)), ...new DocsController(config.PUBLIC_BASE_URL).routes(deps.binder), ...new MetricsController(metrics, config.METRICS_BEARER_TOKEN).routes()];
  // The MCP tools call the handlers above: wired last, over every route.
  routes.push(...new McpController(new McpToolsService(routes, http, docsUrl), { publicBaseUrl: config.PUBLIC_BASE_URL }).routes());
  let closed = false;
  return {
    config,
    logger,
    dataSource,
    redis,
    keys,
    limiter,
    http,
    routes,
    async close() {
      if (closed) return;
      closed = true;
      outages.close();
      await limiter.close();
      if (redis) await redis.quit().catch(() => redis?.disconnect());
      await dataSource.destroy();
    },
  };
}
