import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { Counter, createMetricsRegistry, readCounter, readGauge } from './metrics';

describe('createMetricsRegistry', () => {
  it('exposes process and Node.js runtime metrics as parseable text', async () => {
    const registry = createMetricsRegistry();
    new Counter({ name: 'jobs_total', help: 'Jobs done.', labelNames: ['queue'], registers: [registry] }).inc({ queue: 'a"b\\c' }, 3);
    const families = parsePrometheusTextFormat(await registry.metrics());
    const byName = new Map(families.map((f) => [f.name, f]));
    // nodejs_gc_duration_seconds has series only once a collection ran.
    for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes', 'nodejs_version_info']) {
      expect(byName.get(name)?.metrics.length).toBeGreaterThan(0);
    }
    expect(byName.get('jobs_total')).toEqual({ name: 'jobs_total', help: 'Jobs done.', type: 'COUNTER', metrics: [{ labels: { queue: 'a"b\\c' }, value: '3' }] });
  });

  it('keeps two apps in one process apart', async () => {
    const a = createMetricsRegistry();
    const b = createMetricsRegistry();
    new Counter({ name: 'only_in_a_total', help: 'h', registers: [a] }).inc();
    expect(await a.metrics()).toContain('only_in_a_total 1\n');
    expect(await b.metrics()).not.toContain('only_in_a_total');
  });
});

describe('readCounter and readGauge', () => {
  it('expose what the app counts, as it is at each scrape', async () => {
    const registry = createMetricsRegistry();
    const counts = { ok: 0, failed: 0 };
    let depths: Record<string, number> = { a: 2 };
    readCounter(registry, { name: 'jobs_done_total', help: 'Jobs by result.', labelNames: ['result'], read: () => [{ labels: { result: 'ok' }, value: counts.ok }, { labels: { result: 'failed' }, value: counts.failed }] });
    readGauge(registry, { name: 'queue_depth', help: 'Waiting.', labelNames: ['queue'], read: async () => Object.entries(depths).map(([queue, value]) => ({ labels: { queue }, value })) });
    const scrape = async () => new Map(parsePrometheusTextFormat(await registry.metrics()).map((f) => [f.name, f]));
    let m = await scrape();
    expect(m.get('jobs_done_total')!.metrics).toEqual([{ labels: { result: 'ok' }, value: '0' }, { labels: { result: 'failed' }, value: '0' }]);
    expect(m.get('queue_depth')!.metrics).toEqual([{ labels: { queue: 'a' }, value: '2' }]);
    counts.ok = 5;
    depths = {};
    m = await scrape();
    expect(m.get('jobs_done_total')!.metrics[0]).toEqual({ labels: { result: 'ok' }, value: '5' });
    // A series that is gone from the app's state is gone from the scrape.
    expect(m.get('queue_depth')!.metrics).toEqual([]);
  });
});
