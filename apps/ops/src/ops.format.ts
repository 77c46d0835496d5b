import type { DeadLetterInfo, PartitionLag, RawMessage, TopicDepth } from '@app/messaging';

/** Columns padded to their widest cell, two spaces apart. */
export function table(rows: ReadonlyArray<readonly string[]>): string {
  if (rows.length === 0) return '';
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n');
}

export interface GroupTopicLag {
  group: string;
  topic: string;
  partitions: number;
  /** Partitions the group has committed on. */
  committedPartitions: number;
  /** Partitions holding records the group has not started on (no commit yet). */
  notStarted: number;
  end: number;
  lag: number;
}

/** Per-partition lag of one group -> one row per topic. */
export function lagByTopic(group: string, lag: readonly PartitionLag[]): GroupTopicLag[] {
  const byTopic = new Map<string, GroupTopicLag>();
  for (const p of lag) {
    const row = byTopic.get(p.topic) ?? { group, topic: p.topic, partitions: 0, committedPartitions: 0, notStarted: 0, end: 0, lag: 0 };
    row.partitions += 1;
    if (p.committed !== null) row.committedPartitions += 1;
    else if (p.lag > 0) row.notStarted += 1;
    row.end += Number(p.high);
    row.lag += p.lag;
    byTopic.set(p.topic, row);
  }
  return [...byTopic.values()];
}

export function formatLag(rows: readonly GroupTopicLag[], dlqs: readonly TopicDepth[]): string {
  const out: string[] = [];
  if (rows.length === 0) out.push('no consumer group has committed on these topics yet');
  else {
    out.push(
      table([
        ['GROUP', 'TOPIC', 'PARTITIONS', 'END', 'LAG'],
        ...rows.map((r) => [r.group, r.topic, r.notStarted === 0 ? String(r.partitions) : `${r.partitions} (${r.notStarted} not started)`, String(r.end), String(r.lag)]),
      ]),
    );
    const groups = [...new Set(rows.map((r) => r.group))];
    for (const g of groups) {
      const total = rows.filter((r) => r.group === g).reduce((n, r) => n + r.lag, 0);
      out.push(`${g}: total lag ${total}${total === 0 ? ' (caught up)' : ''}`);
    }
  }
  out.push('', formatDlqDepths(dlqs, null));
  return out.join('\n');
}

/** DLQ depths; `pending` (records not requeued yet) per topic when known. */
export function formatDlqDepths(dlqs: readonly TopicDepth[], pending: ReadonlyMap<string, number> | null): string {
  if (dlqs.length === 0) return 'no dead-letter topics on the broker';
  const header = pending ? ['DEAD-LETTER TOPIC', 'DEPTH', 'NOT REQUEUED'] : ['DEAD-LETTER TOPIC', 'DEPTH'];
  const rows = dlqs.map((d) => (pending ? [d.topic, String(d.depth), String(pending.get(d.topic) ?? d.depth)] : [d.topic, String(d.depth)]));
  const total = dlqs.reduce((n, d) => n + d.depth, 0);
  return `${table([header, ...rows])}\n${total} dead letter(s) in all`;
}

const clip = (s: string, max: number): string => (s.length > max ? `${s.slice(0, max)}… (${s.length} chars; --full shows all)` : s);

/** One dead letter, for `dlq show`. */
export function formatDeadLetter(m: RawMessage, info: DeadLetterInfo, full: boolean): string {
  const lines = [
    `${m.topic} partition ${m.partition} offset ${m.offset}   (requeue it: --offset ${m.partition}:${m.offset})`,
    `  key:       ${m.key ?? '(none)'}`,
    `  failed at: ${info.failedAt ?? '(unknown)'}`,
    `  error:     ${info.reason ?? '(no dlq-reason header)'}`,
    `  source:    ${info.source ? `${info.source.topic} partition ${info.source.partition} offset ${info.source.offset}` : '(unknown)'}`,
  ];
  for (const [i, e] of info.previous.entries()) {
    lines.push(`  earlier error ${i + 1}: ${e.failed_at || '(unknown time)'}${e.source ? ` at ${e.source}` : ''}: ${e.reason}`);
  }
  if (info.requeuedFrom) lines.push(`  requeued from: ${info.requeuedFrom}`);
  if (m.headers['record-id']) lines.push(`  record id: ${m.headers['record-id']}`);
  lines.push(`  value:     ${m.value === null ? '(null)' : full ? m.value : clip(m.value, 600)}`);
  return lines.join('\n');
}

/** The fields the bulk backfill writes to its checkpoint (.run/checkpoints/<name>.json). */
export interface BackfillCheckpoint {
  kind?: unknown;
  source?: unknown;
  entries_total?: unknown;
  entries_done?: unknown;
  records_published?: unknown;
  started_at?: unknown;
  updated_at?: unknown;
  finished_at?: unknown;
  /** Whatever else a kind of backfill keeps. */
  [field: string]: unknown;
}

const SHARED_FIELDS = new Set(['kind', 'source', 'entries_total', 'entries_done', 'records_published', 'started_at', 'updated_at', 'finished_at']);

const str = (v: unknown): string => (v === undefined || v === null || v === '' ? '-' : typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v));

/** A checkpoint file that is not JSON, or not an object. */
export function formatBackfillError(file: string, error: string): string {
  return `${file}\n  unreadable: ${error}`;
}

export function formatBackfill(file: string, cp: BackfillCheckpoint): string {
  const total = typeof cp.entries_total === 'number' ? cp.entries_total : null;
  const done = typeof cp.entries_done === 'number' ? cp.entries_done : null;
  const pct = total && done !== null ? ` (${((100 * done) / total).toFixed(1)} %)` : '';
  const state = cp.finished_at ? 'finished' : 'not finished (a restarted run resumes from here)';
  return [
    file,
    `  kind:              ${str(cp.kind)}`,
    `  source:            ${str(cp.source)}`,
    `  entries:           ${str(cp.entries_done)} of ${str(cp.entries_total)}${pct}`,
    `  records published: ${str(cp.records_published)}`,
    `  started at:        ${str(cp.started_at)}`,
    `  updated at:        ${str(cp.updated_at)}`,
    `  finished at:       ${str(cp.finished_at)}`,
    `  state:             ${state}`,
    // Whatever else a kind of backfill counts (filings_published, unreadable_entries, ...), as it says it.
    ...Object.entries(cp)
      .filter(([k, v]) => !SHARED_FIELDS.has(k) && (typeof v === 'number' || typeof v === 'string'))
      .map(([k, v]) => `  ${`${k.replace(/_/g, ' ')}:`.padEnd(19)}${str(v)}`),
  ].join('\n');
}

export function formatRowCounts(counts: ReadonlyArray<{ table: string; rows: number }>): string {
  return table([['TABLE', 'ROWS'], ...counts.map((c) => [c.table, String(c.rows)])]);
}
