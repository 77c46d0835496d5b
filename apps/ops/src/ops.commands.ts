import { spawn, type ChildProcess } from 'node:child_process';
import { Presets, SingleBar } from 'cli-progress';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TopicDefinition } from '@app/contracts';
import {
  consumerLag,
  deadLetterInfo,
  GroupActiveError,
  groupsLag,
  listConsumerGroups,
  NoSuchRecordError,
  readRanges,
  requeueDeadLetters,
  resetGroupToEarliest,
  setGroupOffsets,
  topicDepths,
  type KafkaSettings,
  type PartitionRange,
} from '@app/messaging';
import { countTableRows, createDataSource, runMigrations } from '@app/persistence';
import { UsageError, type OffsetSelector } from './ops.args';
import type { FollowerGroup } from './ops.config';
import {
  deadLetterDocument,
  dlqDocument,
  formatBackfill,
  formatBackfillError,
  formatDeadLetter,
  formatDlqDepths,
  formatLag,
  formatLagVerdict,
  formatRowCounts,
  lagByTopic,
  lagDocument,
  lagVerdict,
  type BackfillCheckpoint,
  type GroupTopicLag,
} from './ops.format';
import { projectedTopics, registryTopics, replayedTopics, resolveTopic, selectTopics } from './ops.topics';

/** An operation that could not be done (broker, database, a refused reset): exit code 1. */
export class OpsFailure extends Error {}

export interface OpsContext {
  settings: KafkaSettings;
  namespace: string;
  projectorGroup: string;
  /** Named followers' groups: reported by `lag` on their topic, committed or not. */
  followerGroups: readonly FollowerGroup[];
  /** The checkout (for `.run/checkpoints` and the projector's build), null when unknown. */
  root: string | null;
  out: (line: string) => void;
  /** Messages beside the report (stderr): stdout stays the report alone, one JSON document with --json. */
  warn: (line: string) => void;
  /** Progress output: on a terminal (`tty`) a bar on stderr, else log lines through `write`. */
  progress: { tty: boolean; write: (text: string) => void };
}

/** Throwaway and tooling groups are not consumers worth reporting. */
const IGNORED_GROUP = /^(reader-|ops-|test-)/;

/** The group remembering what `dlq requeue` moved from one DLQ. */
export function requeueGroupId(dlq: string): string {
  return `ops-requeue.${dlq}`;
}

/** The lag report; resolves to the exit code: 0 all well, 3 dead letters wait, 4 a group's lag above `maxLag`. */
export async function lagCommand(ctx: OpsContext, options: { maxLag: number; json: boolean }): Promise<number> {
  const topics = registryTopics(ctx.namespace);
  const groups = (await listConsumerGroups(ctx.settings)).filter((g) => !IGNORED_GROUP.test(g));
  const named = [ctx.projectorGroup, ...ctx.followerGroups.map((f) => f.group)];
  for (const group of named.reverse()) if (!groups.includes(group)) groups.unshift(group);
  const existing = new Set((await topicDepths(ctx.settings, topics.flatMap((t) => [t.name, t.dlq]))).map((d) => d.topic));
  const recordTopics = topics.filter((t) => existing.has(t.name)).map((t) => t.name);
  // The projector and the named followers are reported on their topics even before their first
  // commit; other groups where they committed.
  const lags = await groupsLag(ctx.settings, groups, recordTopics, named);
  const projected = new Set(projectedTopics(ctx.namespace).map((t) => t.name));
  const followed = new Map(ctx.followerGroups.map((f) => [f.group, f.topic]));
  const rows: GroupTopicLag[] = [];
  for (const [group, lag] of lags) {
    const own = group === ctx.projectorGroup ? (p: { topic: string }) => projected.has(p.topic) : followed.has(group) ? (p: { topic: string }) => p.topic === followed.get(group) : null;
    const perTopic = lagByTopic(group, own ? lag.filter(own) : lag);
    rows.push(...(own ? perTopic : perTopic.filter((r) => r.committedPartitions > 0)));
  }
  const dlqs = await topicDepths(ctx.settings, topics.map((t) => t.dlq));
  const pending = await pendingPerDlq(ctx, topics.filter((t) => dlqs.some((d) => d.topic === t.dlq)));
  const verdict = lagVerdict(rows, pending, options.maxLag);
  ctx.out(options.json ? JSON.stringify(lagDocument(rows, dlqs, pending, options.maxLag, verdict), null, 2) : formatLag(rows, dlqs, pending));
  for (const line of formatLagVerdict(verdict, options.maxLag)) ctx.warn(line);
  return verdict.exitCode;
}

async function pendingPerDlq(ctx: OpsContext, dlqs: readonly TopicDefinition[]): Promise<Map<string, number>> {
  const pending = new Map<string, number>();
  for (const t of dlqs) {
    const lag = await consumerLag(ctx.settings, requeueGroupId(t.dlq), [{ ...t, name: t.dlq }]);
    pending.set(t.dlq, lag.reduce((n, p) => n + p.lag, 0));
  }
  return pending;
}

export async function dlqListCommand(ctx: OpsContext, topic: string | null, json: boolean): Promise<void> {
  const defs = topic ? [resolveTopic(topic, ctx.namespace)] : registryTopics(ctx.namespace);
  const depths = await topicDepths(ctx.settings, defs.map((t) => t.dlq));
  const present = defs.filter((t) => depths.some((d) => d.topic === t.dlq));
  if (topic && present.length === 0) throw new OpsFailure(`${defs[0]!.dlq} does not exist on the broker yet (nothing was ever dead-lettered there, or no app created it)`);
  const pending = await pendingPerDlq(ctx, present);
  ctx.out(json ? JSON.stringify({ dead_letter_topics: dlqDocument(depths, pending) }, null, 2) : formatDlqDepths(depths, pending));
}

/** Partitions of the DLQ holding `sel`'s offset (all of them for a bare N), as one-record ranges. */
function rangesAt(topic: string, partitions: ReadonlyArray<{ partition: number; low: string; high: string }>, sel: OffsetSelector): PartitionRange[] {
  const o = BigInt(sel.offset);
  if (sel.partition !== null && !partitions.some((p) => p.partition === sel.partition)) {
    throw new UsageError(`${topic} has no partition ${sel.partition} (partitions: ${partitions.map((p) => p.partition).join(', ')})`, undefined, false);
  }
  const holding = partitions.filter((p) => (sel.partition === null || p.partition === sel.partition) && o >= BigInt(p.low) && o < BigInt(p.high));
  if (holding.length === 0) {
    const where = partitions.map((p) => `${p.partition}: ${p.low}..${BigInt(p.high) - 1n}`).join(', ');
    throw new UsageError(`no record at offset ${sel.offset} on ${topic} (offsets held per partition: ${where || 'none'})`, undefined, false);
  }
  return holding.map((p) => ({ partition: p.partition, from: sel.offset, to: (o + 1n).toString() }));
}

export async function dlqShowCommand(ctx: OpsContext, topic: string, offset: OffsetSelector | null, limit: number, full: boolean, json: boolean): Promise<void> {
  const def = resolveTopic(topic, ctx.namespace);
  const [depth] = await topicDepths(ctx.settings, [def.dlq]);
  if (!depth) throw new OpsFailure(`${def.dlq} does not exist on the broker yet`);
  const ranges = offset
    ? rangesAt(def.dlq, depth.partitions, offset)
    : depth.partitions.map((p) => ({ partition: p.partition, from: p.low, to: (BigInt(p.low) + BigInt(limit) < BigInt(p.high) ? BigInt(p.low) + BigInt(limit) : BigInt(p.high)).toString() }));
  const messages = await readRanges(ctx.settings, def.dlq, ranges);
  if (json) {
    // Whole values: a script wants the record, not a clipped view.
    ctx.out(JSON.stringify({ topic: def.dlq, depth: depth.depth, records: messages.map((m) => deadLetterDocument(m, deadLetterInfo(m.headers))) }, null, 2));
    return;
  }
  if (messages.length === 0) {
    ctx.out(`${def.dlq} is empty`);
    return;
  }
  ctx.out(messages.map((m) => formatDeadLetter(m, deadLetterInfo(m.headers), full)).join('\n\n'));
  if (!offset && messages.length < depth.depth) ctx.out(`\n${messages.length} of ${depth.depth} shown (the oldest ${limit} per partition; --limit N for more)`);
}

export async function dlqRequeueCommand(ctx: OpsContext, topic: string, select: 'all' | OffsetSelector): Promise<void> {
  const def = resolveTopic(topic, ctx.namespace);
  const [depth] = await topicDepths(ctx.settings, [def.dlq, def.name]);
  if (!depth || depth.topic !== def.dlq) throw new OpsFailure(`${def.dlq} does not exist on the broker yet`);
  let target: 'all' | { partition: number; offset: string } = 'all';
  if (select !== 'all') {
    const ranges = rangesAt(def.dlq, depth.partitions, select);
    if (ranges.length > 1) {
      throw new UsageError(`offset ${select.offset} exists in partitions ${ranges.map((r) => r.partition).join(', ')} of ${def.dlq}: give --offset <partition>:${select.offset}`, undefined, false);
    }
    target = { partition: ranges[0]!.partition, offset: select.offset };
  }
  let result;
  try {
    result = await requeueDeadLetters(ctx.settings, {
      dlq: def.dlq,
      target: def.name,
      groupId: requeueGroupId(def.dlq),
      select: target === 'all' ? { all: true } : target,
    });
  } catch (err) {
    if (err instanceof NoSuchRecordError) throw new UsageError(err.message, undefined, false);
    throw err;
  }
  for (const r of result.requeued) ctx.out(`requeued ${def.dlq} ${r.partition}:${r.offset} (key ${r.key ?? '-'}) -> ${def.name}`);
  for (const r of result.alreadyRequeued) ctx.out(`skipped ${def.dlq} ${r.partition}:${r.offset}: requeued before`);
  ctx.out(
    result.requeued.length === 0
      ? `nothing requeued: ${target === 'all' ? `every record on ${def.dlq} was requeued before` : 'that record was requeued before'}`
      : `requeued ${result.requeued.length} record(s) onto ${def.name}`,
  );
}

export async function replayResetCommand(ctx: OpsContext, topics: string[] | null): Promise<void> {
  const selected = selectTopics(topics, ctx.namespace, projectedTopics(ctx.namespace));
  try {
    await resetGroupToEarliest(ctx.settings, ctx.projectorGroup, selected.map((t) => t.name));
  } catch (err) {
    if (err instanceof GroupActiveError) {
      throw new OpsFailure(`refusing to rewind: ${err.message}. Stop the projector first (npm run stop, or stop its process), then run this again and start it.`);
    }
    throw err;
  }
  const lag = await consumerLag(ctx.settings, ctx.projectorGroup, selected);
  ctx.out(`rewound group '${ctx.projectorGroup}' to the beginning of ${selected.length} topic(s): ${lag.reduce((n, p) => n + p.lag, 0)} records to project again when the projector starts (read models are kept; the projection is idempotent)`);
}

function waitExit(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

/**
 * Replays the topics into a fresh database with a projector of its own in `log` mode: the read
 * models from the records, the webhook events verbatim from the event log (events are not
 * derivable from records: their time, data as of their batch and seq were the live projector's),
 * and no delivery: a replay announces nothing again.
 */
export async function replayIntoCommand(ctx: OpsContext, topics: string[] | null, into: string, env: NodeJS.ProcessEnv): Promise<void> {
  const all = replayedTopics(ctx.namespace);
  const selected = selectTopics(topics, ctx.namespace, all);
  const main = ctx.root ? join(ctx.root, 'dist', 'apps', 'projector', 'src', 'main.js') : null;
  if (!main || !existsSync(main)) throw new OpsFailure(`the projector is not built (${main ?? 'dist/apps/projector/src/main.js'}): run npm run build`);

  const applied = await runMigrations({ url: into, applicationName: 'ops-replay' });
  ctx.out(applied.length ? `migrated the target: ${applied.join(', ')}` : 'the target is migrated');

  // A fresh group at the beginning of the selected topics and at the end of the others: the
  // projector (unchanged, every topic subscribed) then projects exactly the selection.
  const group = `ops-replay-${new Date().toISOString().replace(/[^0-9]/g, '').slice(0, 14)}-${process.pid}`;
  await setGroupOffsets(ctx.settings, group, { earliest: selected.map((t) => t.name), latest: all.filter((t) => !selected.includes(t)).map((t) => t.name) });
  const total = (await consumerLag(ctx.settings, group, selected)).reduce((n, p) => n + p.lag, 0);
  // The replay's projector dead-letters onto the live dead-letter topics: what it added is told.
  const deadLettersEnd = async (): Promise<number> =>
    (await topicDepths(ctx.settings, selected.map((t) => t.dlq))).reduce((n, d) => n + d.partitions.reduce((m, p) => m + Number(p.high), 0), 0);
  const deadLettersBefore = await deadLettersEnd();
  ctx.out(`projecting ${total} records of ${selected.length} topic(s) into the target with group ${group}`);

  const child = spawn(process.execPath, [main], {
    env: { ...env, DATABASE_URL: into, PROJECTOR_GROUP_ID: group, PROJECTOR_EVENTS: 'log', OPS_PORT: '', LOG_LEVEL: env.LOG_LEVEL ?? 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  // On a terminal a bar (the same library as the bulk backfill's), else a log line every 5 s.
  const bar = ctx.progress.tty
    ? new SingleBar({ format: 'replay {bar} {percentage}% | {value}/{total} records | ETA {eta_formatted}', stream: process.stderr, fps: 4 }, Presets.shades_classic)
    : null;
  bar?.start(total, 0);
  try {
    let lastLog = 0;
    for (;;) {
      if (child.exitCode !== null) throw new OpsFailure(`the projector exited (code ${child.exitCode}) before the replay finished:\n${stderr}`);
      const lag = (await consumerLag(ctx.settings, group, selected)).reduce((n, p) => n + p.lag, 0);
      const done = Math.max(0, total - lag);
      if (bar) bar.update(done);
      else if (Date.now() - lastLog >= 5_000 || lag === 0) {
        ctx.progress.write(`${JSON.stringify({ msg: 'replay progress', group, done, total, lag })}\n`);
        lastLog = Date.now();
      }
      if (lag === 0) break;
      await new Promise((r) => setTimeout(r, 500));
    }
  } finally {
    bar?.stop();
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await waitExit(child);
    }
  }
  const deadLettered = (await deadLettersEnd()) - deadLettersBefore;
  ctx.out(
    deadLettered === 0
      ? 'dead letters: none added during the replay'
      : `dead letters: ${deadLettered} added during the replay (records the target refused, or the live projector's): npm run ops -- dlq list`,
  );
  const ds = createDataSource({ url: into, poolSize: 1, applicationName: 'ops-replay' });
  await ds.initialize();
  try {
    ctx.out(formatRowCounts(await countTableRows(ds)));
  } finally {
    await ds.destroy();
  }
}

export function backfillStatusCommand(ctx: OpsContext, dir: string | null, json: boolean): void {
  const folder = dir ?? (ctx.root ? join(ctx.root, '.run', 'checkpoints') : null);
  if (!folder) throw new OpsFailure('cannot tell where the checkout is: give --dir <checkpoints folder>');
  const files = existsSync(folder) ? readdirSync(folder).filter((f) => f.endsWith('.json')).sort() : [];
  const read = files.map((f): { file: string; checkpoint: BackfillCheckpoint } | { file: string; error: string } => {
    const file = join(folder, f);
    try {
      const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return { file, error: 'not a JSON object' };
      return { file, checkpoint: parsed as BackfillCheckpoint };
    } catch (err) {
      return { file, error: err instanceof Error ? err.message : String(err) };
    }
  });
  if (json) {
    // The checkpoint as the backfill wrote it (its fields are snake_case already), and whether it finished.
    const checkpoints = read.map((r) => ('error' in r ? { file: r.file, error: r.error } : { file: r.file, finished: Boolean(r.checkpoint.finished_at), checkpoint: r.checkpoint }));
    ctx.out(JSON.stringify({ directory: folder, checkpoints }, null, 2));
    return;
  }
  if (read.length === 0) {
    ctx.out(`no backfill checkpoints (${folder})`);
    return;
  }
  ctx.out(read.map((r) => ('error' in r ? formatBackfillError(r.file, r.error) : formatBackfill(r.file, r.checkpoint))).join('\n\n'));
}
