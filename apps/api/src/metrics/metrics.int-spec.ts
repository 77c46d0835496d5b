import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import parsePrometheusTextFormat, { type ParsedFamily } from 'parse-prometheus-text-format';
import type { CompanyData, RecordEnvelope } from '@app/contracts';
import { createLogger } from '@app/observability';
import { projectRecords } from '@app/persistence';
import { createTestDatabase, type TestDatabase } from '@app/testing';
import type { ApiContext } from '../api.context';
import { createApiApp } from '../api.app';
import { buildApiServer } from '../api.server';
import { apiConfigSchema } from '../config/api.config';

// GET /metrics (issue 16 point 5) on the real api, its text read by a Prometheus text-format parser.
const msftCompany = JSON.parse(readFileSync(join(resolve(__dirname, '../../../../libs/contracts/src/examples'), 'company@1.msft.json'), 'utf8')) as RecordEnvelope<CompanyData>;
const TOKEN = 'metrics-token-0123456789';

type Api = { server: FastifyInstance; context: ApiContext };
let db: TestDatabase;
let api: Api;
let guarded: Api;
let freeKey: string;
const logger = createLogger({ level: 'silent' });

const config = (extra: Record<string, string> = {}) =>
  apiConfigSchema.parse({
    DATABASE_URL: db.url,
    API_KEY_PEPPER: 'pepper-'.repeat(6),
    CURSOR_SECRET: 'cursor-'.repeat(6),
    LOG_LEVEL: 'silent',
    PLAN_FREE_BURST_PER_SECOND: '3',
    ...extra,
  });

/** The exposition's families by name, as the parser reads them (it throws on a malformed line); runs of one name merged. */
function families(text: string): Map<string, ParsedFamily> {
  const byName = new Map<string, ParsedFamily>();
  for (const f of parsePrometheusTextFormat(text)) {
    const seen = byName.get(f.name);
    if (seen) seen.metrics.push(...f.metrics);
    else byName.set(f.name, f);
  }
  return byName;
}

async function scrapeText(on: Api = api, headers: Record<string, string> = {}): Promise<string> {
  const r = await on.server.inject({ method: 'GET', url: '/metrics', headers });
  expect(r.statusCode).toBe(200);
  expect(r.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
  return r.body;
}

/**
 * The parser folds every series of a labelled histogram into one unlabelled sample (its
 * flattenMetrics); typed untyped, the same lines parse as plain series with their labels:
 * `<name>_bucket{le=...}`, `<name>_sum`, `<name>_count` (in runs per label set: merged by families()).
 */
const histogramSeries = (text: string, name: string) => families(text.replace(`# TYPE ${name} histogram`, `# TYPE ${name} untyped`));

/** The one series of `family` with exactly these labels. */
function series(families: Map<string, ParsedFamily>, family: string, labels: Record<string, string>) {
  const matches = (families.get(family)?.metrics ?? []).filter((m) => JSON.stringify(Object.entries(m.labels ?? {}).sort()) === JSON.stringify(Object.entries(labels).sort()));
  expect([family, labels, matches.length]).toEqual([family, labels, 1]);
  return matches[0]!;
}

beforeAll(async () => {
  db = await createTestDatabase('api_metrics');
  api = await buildApiServer(config(), { logger });
  guarded = await buildApiServer(config({ METRICS_BEARER_TOKEN: TOKEN }), { logger });
  await projectRecords(api.context.dataSource, [msftCompany]);
  await api.context.dataSource.query(`INSERT INTO accounts (id, name, plan) VALUES ('acct_free', 'f', 'free')`);
  freeKey = (await api.context.keys.createKey({ accountId: 'acct_free', mode: 'live', label: 't' })).key;
}, 60_000);

afterAll(async () => {
  await api?.server.close();
  await guarded?.server.close();
  await db?.drop();
});

describe('GET /metrics', () => {
  it('requests and latency by method, route pattern and status; 401s by reason; 429s by plan and window; process and Node.js metrics', async () => {
    const get = (url: string, authorization?: string) => api.server.inject({ method: 'GET', url, headers: authorization ? { authorization } : {} });
    // Within one second: the free plan's burst of 3 lets 3 through and refuses the 4th and 5th.
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await get('/v1/companies/MSFT:US', `Bearer ${freeKey}`)).statusCode);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(3);
    const refused = statuses.filter((s) => s === 429).length;
    expect((await get('/v1/companies/MSFT:US')).statusCode).toBe(401);
    expect((await get('/v1/companies/MSFT:US', 'Bearer sk_live_nope')).statusCode).toBe(401);
    expect((await get('/no/such/path')).statusCode).toBe(404);

    const text = await scrapeText();
    const m = families(text);
    const ok = { method: 'GET', route: '/v1/companies/:symbol', status: '200' };
    expect(series(m, 'http_requests_total', ok).value).toBe(String(5 - refused));
    expect(m.get('http_requests_total')!.type).toBe('COUNTER');
    if (refused > 0) {
      expect(series(m, 'http_requests_total', { ...ok, status: '429' }).value).toBe(String(refused));
      expect(series(m, 'api_rate_limit_refusals_total', { plan: 'free', window: 'burst' }).value).toBe(String(refused));
    }
    expect(series(m, 'http_requests_total', { ...ok, status: '401' }).value).toBe('2');
    expect(series(m, 'http_requests_total', { method: 'GET', route: 'unmatched', status: '404' }).value).toBe('1');
    expect(series(m, 'api_auth_failures_total', { reason: 'missing' }).value).toBe('1');
    expect(series(m, 'api_auth_failures_total', { reason: 'malformed' }).value).toBe('1');

    expect(m.get('http_request_duration_seconds')!.type).toBe('HISTOGRAM');
    const h = histogramSeries(text, 'http_request_duration_seconds');
    expect(series(h, 'http_request_duration_seconds_count', ok).value).toBe(String(5 - refused));
    expect(Number(series(h, 'http_request_duration_seconds_sum', ok).value)).toBeGreaterThan(0);
    const buckets = h.get('http_request_duration_seconds_bucket')!.metrics.filter((b) => b.labels?.route === ok.route && b.labels.status === '200');
    expect(buckets.map((b) => b.labels!.le)).toEqual(['0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '10', '+Inf']);
    const counts = buckets.map((b) => Number(b.value));
    for (let i = 1; i < counts.length; i++) expect(counts[i]).toBeGreaterThanOrEqual(counts[i - 1]!);
    expect(counts[counts.length - 1]).toBe(5 - refused);

    for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'process_start_time_seconds', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes', 'nodejs_active_handles_total']) {
      expect([name, m.get(name)?.metrics.length ?? 0]).toEqual([name, 1]);
    }
  });

  it('the parser refuses text that is not the exposition format (it checks what it reads)', () => {
    expect(() => parsePrometheusTextFormat('# TYPE x counter\nx{le="1" 3\n')).toThrow();
  });

  it('needs no API key; with METRICS_BEARER_TOKEN set, that token and nothing else', async () => {
    const r = await guarded.server.inject({ method: 'GET', url: '/metrics' });
    expect(r.statusCode).toBe(401);
    expect(r.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect((await guarded.server.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${freeKey}` } })).statusCode).toBe(401);
    expect(families(await scrapeText(guarded, { authorization: `Bearer ${TOKEN}` })).has('http_requests_total')).toBe(true);
  });
});

describe('the Nest app over real HTTP (what main.js serves)', () => {
  let app: NestFastifyApplication;
  let base: string;
  beforeAll(async () => {
    app = await createApiApp(config(), { logger });
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(() => app?.close());

  it('serves /metrics gzipped to a scraper that asks, CORS preflights, and ETags', async () => {
    const metrics = await fetch(`${base}/metrics`, { headers: { 'accept-encoding': 'gzip' } });
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-encoding')).toBe('gzip');
    expect(families(await metrics.text()).has('process_cpu_user_seconds_total')).toBe(true);

    const preflight = await fetch(`${base}/v1/companies`, { method: 'OPTIONS', headers: { origin: 'https://x.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');

    const first = await fetch(`${base}/v1/companies/MSFT:US`, { headers: { authorization: `Bearer ${freeKey}` } });
    await new Promise((r) => setTimeout(r, 1100)); // past the free burst window of the test above
    const again = await fetch(`${base}/v1/companies/MSFT:US`, { headers: { authorization: `Bearer ${freeKey}`, 'if-none-match': first.headers.get('etag')! } });
    expect([first.status, again.status]).toEqual([200, 304]);
  });
});
