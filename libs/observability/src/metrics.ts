import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';

export { Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * One app's Prometheus registry (prom-client), with the process and Node.js runtime metrics
 * (CPU, memory, event-loop lag, GC, handles) collected in it. One registry per app instance, never
 * prom-client's global one: tests build several apps in one process, and each must count only its
 * own work. (Which app a series comes from is the scrape target's job/instance labels.)
 */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}

/** One series of a value read at scrape time. */
export interface ReadValue {
  labels?: Record<string, string>;
  value: number;
}

export interface ReadMetricSpec<V> {
  name: string;
  help: string;
  labelNames?: readonly string[];
  /** The series now: one unlabelled value or labelled ones (a gauge's may come asynchronously). */
  read(): V;
}

const series = (v: number | readonly ReadValue[]): readonly ReadValue[] => (typeof v === 'number' ? [{ value: v }] : v);

/**
 * A counter whose value the app keeps in its own plain fields (hot paths count with `+= 1`, no
 * metric object): read from them at each scrape.
 */
export function readCounter(registry: Registry, spec: ReadMetricSpec<number | readonly ReadValue[]>): Counter {
  return new Counter({
    name: spec.name,
    help: spec.help,
    labelNames: spec.labelNames ?? [],
    registers: [registry],
    collect(this: Counter) {
      this.reset();
      for (const s of series(spec.read())) this.inc(s.labels ?? {}, s.value);
    },
  });
}

/** A gauge read at each scrape (a queue length, a lag read from a broker). */
export function readGauge(registry: Registry, spec: ReadMetricSpec<number | readonly ReadValue[] | Promise<number | readonly ReadValue[]>>): Gauge {
  return new Gauge({
    name: spec.name,
    help: spec.help,
    labelNames: spec.labelNames ?? [],
    registers: [registry],
    async collect(this: Gauge) {
      const values = series(await spec.read());
      this.reset();
      for (const s of values) this.set(s.labels ?? {}, s.value);
    },
  });
}
