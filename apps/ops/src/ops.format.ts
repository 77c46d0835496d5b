import { EXIT } from './ops.args';
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

/** What `lag` found against its bounds; `exitCode` is what the CLI exits with (dead letters win over lag). */
export interface LagVerdict {
  /** Dead letters not requeued yet, over every dead-letter topic. */
  deadLettersWaiting: number;
  /** Groups whose total lag is above the bound, with that lag. */
  groupsOverMaxLag: Array<{ group: string; lag: number }>;
  exitCode: typeof EXIT.done | typeof EXIT.deadLettersWaiting | typeof EXIT.lagAboveMax;
}

export function groupTotals(rows: readonly GroupTopicLag[]): Array<{ group: string; lag: number }> {
  const totals = new Map<string, number>();
  for (const r of rows) totals.set(r.group, (totals.get(r.group) ?? 0) + r.lag);
  return [...totals].map(([group, lag]) => ({ group, lag }));
}

export function lagVerdict(rows: readonly GroupTopicLag[], pending: ReadonlyMap<string, number>, maxLag: number): LagVerdict {
  const deadLettersWaiting = [...pending.values()].reduce((n, p) => n + p, 0);
  const groupsOverMaxLag = groupTotals(rows).filter((g) => g.lag > maxLag);
  return { deadLettersWaiting, groupsOverMaxLag, exitCode: deadLettersWaiting > 0 ? EXIT.deadLettersWaiting : groupsOverMaxLag.length > 0 ? EXIT.lagAboveMax : EXIT.done };
}

/** The verdict's lines for stderr (empty when all is well). */
export function formatLagVerdict(verdict: LagVerdict, maxLag: number): string[] {
  const lines: string[] = [];
  if (verdict.deadLettersWaiting > 0) lines.push(`lag: ${verdict.deadLettersWaiting} dead letter(s) not requeued (exit 3): npm run ops -- dlq list`);
  for (const g of verdict.groupsOverMaxLag) lines.push(`lag: group ${g.group} has lag ${g.lag}, above --max-lag ${maxLag}${verdict.deadLettersWaiting > 0 ? '' : ' (exit 4)'}`);
  return lines;
}

/** `lag --json`: one document, snake_case, stable field names. */
export function lagDocument(rows: readonly GroupTopicLag[], dlqs: readonly TopicDepth[], pending: ReadonlyMap<string, number>, maxLag: number, verdict: LagVerdict) {
  return {
    groups: groupTotals(rows).map((g) => ({
      group: g.group,
      total_lag: g.lag,
      topics: rows
        .filter((r) => r.group === g.group)
        .map((r) => ({ topic: r.topic, partitions: r.partitions, committed_partitions: r.committedPartitions, not_started_partitions: r.notStarted, end_offset: r.end, lag: r.lag })),
    })),
    dead_letter_topics: dlqDocument(dlqs, pending),
    max_lag: maxLag,
    dead_letters_waiting: verdict.deadLettersWaiting,
    groups_over_max_lag: verdict.groupsOverMaxLag.map((g) => g.group),
    exit_code: verdict.exitCode,
  };
}

/** Dead-letter topics for `--json`: depth and what is not requeued yet. */
export function dlqDocument(dlqs: readonly TopicDepth[], pending: ReadonlyMap<string, number>) {
  return dlqs.map((d) => ({ topic: d.topic, depth: d.depth, not_requeued: pending.get(d.topic) ?? d.depth }));
}

export function formatLag(rows: readonly GroupTopicLag[], dlqs: readonly TopicDepth[], pending: ReadonlyMap<string, number>): string {
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
  out.push('', formatDlqDepths(dlqs, pending));
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

/** A dead letter for `dlq show --json`: the value whole, the headers read. */
export function deadLetterDocument(m: RawMessage, info: DeadLetterInfo) {
  return {
    topic: m.topic,
    partition: m.partition,
    offset: m.offset,
    key: m.key,
    value: m.value,
    failed_at: info.failedAt,
    error: info.reason,
    source: info.source,
    earlier_errors: info.previous.map((e) => ({ failed_at: e.failed_at || null, source: e.source || null, error: e.reason })),
    requeued_from: info.requeuedFrom ?? null,
    record_id: m.headers['record-id'] ?? null,
  };
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
