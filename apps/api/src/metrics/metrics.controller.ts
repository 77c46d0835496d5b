import { timingSafeEqual } from 'node:crypto';
import { DomainError } from '../platform/api.errors';
import type { ApiMetrics } from '../platform/api.metrics';
import type { BoundRoute, RouteDefinition } from '../platform/route.registry';

export const metricsRoutes = {
  metrics: {
    method: 'GET',
    url: '/metrics',
    operationId: 'metrics',
    summary: 'Prometheus metrics',
    tags: ['health'],
    // Scrapers carry no API key; METRICS_BEARER_TOKEN guards it instead, when set.
    public: true,
    hidden: true,
  },
} satisfies Record<string, RouteDefinition>;

/** GET /metrics: the api's Prometheus text exposition (prom-client). */
export class MetricsController {
  private readonly expected: Buffer | null;

  constructor(
    private readonly metrics: ApiMetrics,
    bearerToken: string | undefined,
  ) {
    this.expected = bearerToken === undefined ? null : Buffer.from(`Bearer ${bearerToken}`);
  }

  routes(): BoundRoute[] {
    return [
      {
        definition: metricsRoutes.metrics,
        handler: async (req, reply) => {
          if (this.expected !== null) {
            const given = Buffer.from(req.headers.authorization ?? '');
            if (given.length !== this.expected.length || !timingSafeEqual(given, this.expected)) {
              throw new DomainError('InvalidMetricsToken', 'GET /metrics needs Authorization: Bearer <METRICS_BEARER_TOKEN>.', { 'www-authenticate': 'Bearer' });
            }
          }
          const text = await this.metrics.registry.metrics();
          return reply.type(this.metrics.registry.contentType).header('cache-control', 'no-store').send(text);
        },
      },
    ];
  }
}
