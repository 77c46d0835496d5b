/** Types of parse-prometheus-text-format (the package ships none); the tests parse /metrics with it. */
declare module 'parse-prometheus-text-format' {
  export interface ParsedSample {
    labels?: Record<string, string>;
    value?: string;
    /** Histograms: bucket upper bound -> cumulative count; summaries: quantile -> value. */
    buckets?: Record<string, string>;
    quantiles?: Record<string, string>;
    count?: string;
    sum?: string;
  }
  export interface ParsedFamily {
    name: string;
    help: string;
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    metrics: ParsedSample[];
  }
  /** Throws on a line the text format does not allow. */
  export default function parsePrometheusTextFormat(text: string): ParsedFamily[];
}
