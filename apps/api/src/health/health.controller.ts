import type { DataSource } from 'typeorm';
import type Redis from 'ioredis';
import { DomainError } from '../platform/api.errors';
import type { BoundRoute, RouteDefinition } from '../platform/route.registry';
import { z } from 'zod';
import { withTimeout } from '@app/observability';
import { pingDatabase } from '@app/persistence';

const healthSchema = z.object({ status: z.literal('ok') });
const readySchema = z.object({ status: z.literal('ready'), checks: z.record(z.string(), z.literal('ok')) });

export const healthRoutes = {
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
} satisfies Record<string, RouteDefinition>;

export class HealthController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly redis: Redis | null,
  ) {}

  routes(): BoundRoute[] {
    return [
      { definition: healthRoutes.healthz, handler: async () => ({ status: 'ok' }) },
      { definition: healthRoutes.readyz, handler: () => this.ready() },
    ];
  }

  async ready(): Promise<z.infer<typeof readySchema>> {
    const failed: string[] = [];
    const checks: Record<string, 'ok'> = {};
    try {
      await withTimeout(pingDatabase(this.dataSource), 2_000, 'postgres');
      checks.postgres = 'ok';
    } catch {
      failed.push('postgres');
    }
    if (this.redis) {
      try {
        await withTimeout(this.redis.ping(), 2_000, 'redis');
        checks.redis = 'ok';
      } catch {
        failed.push('redis');
      }
    }
    if (failed.length) throw new DomainError('NotReady', `Not ready: ${failed.join(', ')} unavailable.`);
    return { status: 'ready', checks };
  }
}
