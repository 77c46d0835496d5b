import { formatMetrics, Histogram } from './metrics';

describe('formatMetrics (Prometheus text format 0.0.4)', () => {
  it('writes HELP, TYPE and one line per sample, labels escaped', () => {
    const text = formatMetrics([
      { name: 'jobs_total', help: 'Jobs done.\nAll of them \\ really.', type: 'counter', samples: [{ labels: { queue: 'a"b\\c\nd', kind: 'x' }, value: 3 }] },
      { name: 'queue_depth', help: 'Waiting.', type: 'gauge', samples: [{ value: 0.5 }, { labels: { q: 'inf' }, value: Infinity }] },
    ]);
    expect(text).toBe(
      [
        '# HELP jobs_total Jobs done.\\nAll of them \\\\ really.',
        '# TYPE jobs_total counter',
        'jobs_total{queue="a\\"b\\\\c\\nd",kind="x"} 3',
        '# HELP queue_depth Waiting.',
        '# TYPE queue_depth gauge',
        'queue_depth 0.5',
        'queue_depth{q="inf"} +Inf',
        '',
      ].join('\n'),
    );
  });

  it('writes a family with no samples as its HELP and TYPE only', () => {
    expect(formatMetrics([{ name: 'lag', help: 'h', type: 'gauge', samples: [] }])).toBe('# HELP lag h\n# TYPE lag gauge\n');
  });

  it('refuses names Prometheus would refuse', () => {
    expect(() => formatMetrics([{ name: 'bad-name', help: '', type: 'gauge', samples: [] }])).toThrow('invalid metric name');
    expect(() => formatMetrics([{ name: 'ok', help: '', type: 'gauge', samples: [{ labels: { 'bad-label': 'x' }, value: 1 }] }])).toThrow('invalid label name');
    expect(() => formatMetrics([{ name: 'ok', help: '', type: 'gauge', samples: [{ labels: { __reserved: 'x' }, value: 1 }] }])).toThrow('invalid label name');
  });
});

describe('Histogram', () => {
  it('counts cumulatively per bucket, with +Inf, sum and count', () => {
    const h = new Histogram([0.1, 1, 10]);
    for (const v of [0.05, 0.1, 0.5, 3, 30]) h.observe(v);
    expect(h.samples({ route: 'x' })).toEqual([
      { suffix: '_bucket', labels: { route: 'x', le: '0.1' }, value: 2 },
      { suffix: '_bucket', labels: { route: 'x', le: '1' }, value: 3 },
      { suffix: '_bucket', labels: { route: 'x', le: '10' }, value: 4 },
      { suffix: '_bucket', labels: { route: 'x', le: '+Inf' }, value: 5 },
      { suffix: '_sum', labels: { route: 'x' }, value: 33.65 },
      { suffix: '_count', labels: { route: 'x' }, value: 5 },
    ]);
    expect(formatMetrics([{ name: 'd_seconds', help: 'h', type: 'histogram', samples: new Histogram([1]).samples() }])).toBe(
      '# HELP d_seconds h\n# TYPE d_seconds histogram\nd_seconds_bucket{le="1"} 0\nd_seconds_bucket{le="+Inf"} 0\nd_seconds_sum 0\nd_seconds_count 0\n',
    );
  });

  it('refuses bounds that are not strictly increasing', () => {
    expect(() => new Histogram([])).toThrow();
    expect(() => new Histogram([1, 1])).toThrow();
    expect(() => new Histogram([2, 1])).toThrow();
    expect(() => new Histogram([1, Infinity])).toThrow();
  });
});
