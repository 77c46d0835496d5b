import type { DataSource } from 'typeorm';
import type Redis from 'ioredis';
import { z } from 'zod';
import { withTimeout } from '@app/observability';
import { pingDatabase } from '@app/persistence';
import { DomainError } from '../platform/api.errors';
import { defineRoutes } from '../platform/route.registry';
import type { RouteModule } from '../platform/route.module';

export const healthSchema = z.object({ status: z.literal('ok') });
export const readySchema = z.object({ status: z.literal('ready'), checks: z.record(z.string(), z.literal('ok')) });
const LIVE: z.infer<typeof healthSchema> = { status: 'ok' };

export const healthRoutes = defineRoutes({
  healthz: { method: 'GET', url: '/healthz', operationId: 'healthz', summary: 'Liveness: the process is up', tags: ['health'], public: true, response: healthSchema },
  readyz: {
    method: 'GET',
    url: '/readyz',
    operationId: 'readyz',
    summary: 'Readiness: Postgres answers SELECT 1 (and Redis PING when configured)',
    tags: ['health'],
    public: true,
    response: readySchema,
    errors: [503],
  },
});

/** Readiness: every dependency answers within 2 s (Redis only when configured), else 503 not-ready naming those that did not. */
async function ready(dataSource: DataSource, redis: Redis | null): Promise<z.infer<typeof readySchema>> {
  const failed: string[] = [];
  const checks: Record<string, 'ok'> = {};
  try {
    await withTimeout(pingDatabase(dataSource), 2_000, 'postgres');
    checks.postgres = 'ok';
  } catch {
    failed.push('postgres');
  }
  if (redis) {
    try {
      await withTimeout(redis.ping(), 2_000, 'redis');
      checks.redis = 'ok';
    } catch {
      failed.push('redis');
    }
  }
  if (failed.length) throw new DomainError('NotReady', `Not ready: ${failed.join(', ')} unavailable.`);
  return { status: 'ready', checks };
}

export const healthApi: RouteModule = {
  routes: healthRoutes,
  bind: ({ binder, dataSource, redis }) => [
    binder.bind(healthRoutes.healthz, { handle: async () => LIVE }),
    binder.bind(healthRoutes.readyz, { handle: () => ready(dataSource, redis) }),
  ],
};
