/**
 * Prometheus text exposition (format 0.0.4) for the worker apps' /metrics, without a client
 * library: the apps keep plain counters already; this names and formats them.
 */
export type MetricType = 'counter' | 'gauge' | 'histogram';

export interface MetricSample {
  /** Appended to the family name (histograms: `_bucket`, `_sum`, `_count`). */
  suffix?: string;
  labels?: Readonly<Record<string, string>>;
  value: number;
}

export interface MetricFamily {
  name: string;
  help: string;
  type: MetricType;
  samples: readonly MetricSample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** The exposition text of `families`, in order; throws on a name Prometheus would refuse. */
export function formatMetrics(families: readonly MetricFamily[]): string {
  const lines: string[] = [];
  for (const f of families) {
    if (!NAME.test(f.name)) throw new Error(`invalid metric name ${JSON.stringify(f.name)}`);
    lines.push(`# HELP ${f.name} ${f.help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}`, `# TYPE ${f.name} ${f.type}`);
    for (const s of f.samples) lines.push(`${f.name}${s.suffix ?? ''}${formatLabels(s.labels)} ${formatValue(s.value)}`);
  }
  return `${lines.join('\n')}\n`;
}

function formatLabels(labels: Readonly<Record<string, string>> | undefined): string {
  const entries = Object.entries(labels ?? {});
  if (entries.length === 0) return '';
  return `{${entries
    .map(([k, v]) => {
      if (!LABEL.test(k) || k.startsWith('__')) throw new Error(`invalid label name ${JSON.stringify(k)}`);
      return `${k}="${v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"')}"`;
    })
    .join(',')}}`;
}

function formatValue(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  return String(v);
}

/** A cumulative histogram (Prometheus semantics: each bucket counts observations <= its bound). */
export class Histogram {
  private readonly counts: number[];
  private sum = 0;
  private observed = 0;

  constructor(private readonly bounds: readonly number[]) {
    if (bounds.length === 0 || bounds.some((b, i) => !Number.isFinite(b) || (i > 0 && b <= bounds[i - 1]!))) {
      throw new Error('histogram bounds must be finite and strictly increasing');
    }
    this.counts = bounds.map(() => 0);
  }

  observe(value: number): void {
    this.sum += value;
    this.observed += 1;
    const i = this.bounds.findIndex((b) => value <= b);
    if (i >= 0) this.counts[i]! += 1;
  }

  /** Observations so far. */
  get count(): number {
    return this.observed;
  }

  /** The `_bucket` (cumulative, `+Inf` last), `_sum` and `_count` samples. */
  samples(labels: Readonly<Record<string, string>> = {}): MetricSample[] {
    let cumulative = 0;
    const buckets = this.bounds.map((b, i) => {
      cumulative += this.counts[i]!;
      return { suffix: '_bucket', labels: { ...labels, le: String(b) }, value: cumulative };
    });
    return [
      ...buckets,
      { suffix: '_bucket', labels: { ...labels, le: '+Inf' }, value: this.observed },
      { suffix: '_sum', labels, value: this.sum },
      { suffix: '_count', labels, value: this.observed },
    ];
  }
}
