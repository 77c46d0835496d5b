import { Counter, createMetricsRegistry, Histogram, type Registry } from '@app/observability';

/** Seconds: from a cached lookup (a few ms) to a slow search or a citation check (seconds). */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The api's Prometheus metrics: requests by route and status, their latency, rate-limit refusals
 * and authentication failures, with the process and Node.js runtime metrics. `route` is the route
 * pattern (`/v1/companies/:symbol`), never the raw URL, so the series stay few; a request no route
 * matched is `unmatched`.
 */
export class ApiMetrics {
  readonly registry: Registry = createMetricsRegistry();
  private readonly requests = new Counter({
    name: 'http_requests_total',
    help: 'Requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'],
    registers: [this.registry],
  });
  private readonly duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to the end of its response, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'],
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });
  private readonly refusals = new Counter({
    name: 'api_rate_limit_refusals_total',
    help: 'Requests refused with 429, by plan and by the window that refused them (burst or daily).',
    labelNames: ['plan', 'window'],
    registers: [this.registry],
  });
  private readonly authFailures = new Counter({
    name: 'api_auth_failures_total',
    help: 'Requests refused with 401, by reason (missing, malformed, unknown or revoked key).',
    labelNames: ['reason'],
    registers: [this.registry],
  });

  requestDone(method: string, route: string | undefined, status: number, seconds: number): void {
    const labels = { method, route: route ?? 'unmatched', status: String(status) };
    this.requests.inc(labels);
    this.duration.observe(labels, seconds);
  }

  rateLimited(plan: string, window: 'burst' | 'daily'): void {
    this.refusals.inc({ plan, window });
  }

  authFailed(reason: string): void {
    this.authFailures.inc({ reason });
  }
}
