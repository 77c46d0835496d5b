import { randomBytes } from 'node:crypto';
import type { Consumer, KafkaMessage } from 'kafkajs';
import { headersToStrings, requeueHeaders } from './dead-letter.headers';
import { createKafka } from './kafka.client';
import type { KafkaSettings } from './kafka.settings';
import { RecordProducer } from './record.producer';
import type { RawMessage } from './topic.reader';
import { topicOffsets } from './topic-offsets.query';

/** A range of one partition to read: offsets from `from` (inclusive) to `to` (exclusive). */
export interface PartitionRange {
  partition: number;
  from: string;
  to: string;
}

const toRaw = (topic: string, partition: number, m: KafkaMessage): RawMessage => ({
  topic,
  partition,
  offset: m.offset,
  key: m.key?.toString() ?? null,
  value: m.value?.toString() ?? null,
  headers: headersToStrings(m.headers),
});

/**
 * Reads the given offset ranges of a topic without committing anything (a throwaway group), in
 * offset order per partition. Resolves when every range is read; throws after `timeoutMs`.
 * `each` (awaited) sees every message in a range as it arrives.
 */
async function consumeRanges(
  consumer: Consumer,
  topic: string,
  ranges: readonly PartitionRange[],
  timeoutMs: number,
  each: (message: RawMessage) => Promise<void>,
): Promise<void> {
  const pending = new Map(ranges.filter((r) => BigInt(r.from) < BigInt(r.to)).map((r) => [r.partition, r]));
  if (pending.size === 0) return;
  let finish: (err?: unknown) => void = () => undefined;
  const finished = new Promise<void>((resolve, reject) => {
    finish = (err?: unknown): void => {
      if (err) reject(err instanceof Error ? err : new Error('reading the topic failed', { cause: err }));
      else resolve();
    };
  });
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  await consumer.run({
    // Nothing is committed by kafkajs; a handled batch is resolved so the next fetch moves on.
    autoCommit: false,
    eachBatchAutoResolve: true,
    eachBatch: async ({ batch }) => {
      const range = pending.get(batch.partition);
      if (!range) return;
      try {
        for (const m of batch.messages) {
          const offset = BigInt(m.offset);
          if (offset < BigInt(range.from)) continue;
          if (offset >= BigInt(range.to)) break;
          await each(toRaw(topic, batch.partition, m));
        }
        // Compacted or deleted records leave gaps: the range is done once the fetch passed its end.
        const last = batch.messages.at(-1);
        if (BigInt(batch.highWatermark) >= BigInt(range.to) && (!last || BigInt(last.offset) >= BigInt(range.to) - 1n)) {
          pending.delete(batch.partition);
          if (pending.size === 0) finish();
        }
      } catch (err) {
        finish(err);
      }
    },
  });
  for (const r of pending.values()) consumer.seek({ topic, partition: r.partition, offset: r.from });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`reading ${topic} timed out after ${timeoutMs} ms (partitions ${[...pending.keys()].join(', ')} unfinished)`)), timeoutMs);
  });
  try {
    await Promise.race([finished, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Reads the given offset ranges of a topic (nothing committed). */
export async function readRanges(settings: KafkaSettings, topic: string, ranges: readonly PartitionRange[], timeoutMs = 30_000): Promise<RawMessage[]> {
  const consumer = createKafka(settings).consumer({ groupId: `reader-${randomBytes(6).toString('hex')}`, maxWaitTimeInMs: 250, allowAutoTopicCreation: false });
  const out: RawMessage[] = [];
  await consumer.connect();
  try {
    await consumeRanges(consumer, topic, ranges, timeoutMs, async (m) => {
      out.push(m);
    });
  } finally {
    await consumer.disconnect();
  }
  return out.sort((a, b) => a.partition - b.partition || Number(BigInt(a.offset) - BigInt(b.offset)));
}

/** What the requeue group remembers of one DLQ partition. */
export interface RequeueMark {
  partition: number;
  /** Every record below this offset was requeued (the group's committed offset). */
  watermark: string;
  /** Offsets at or above the watermark requeued one by one (`--offset`). */
  done: string[];
}

export interface RequeueRequest {
  /** The dead-letter topic. */
  dlq: string;
  /** Where its records go back to (the source topic). */
  target: string;
  /** The group whose committed offsets remember what was requeued from `dlq`. */
  groupId: string;
  /** Every record not requeued yet, or the one at partition/offset. */
  select: { all: true } | { partition: number; offset: string };
  timeoutMs?: number;
}

export interface RequeueResult {
  requeued: Array<{ partition: number; offset: string; key: string | null }>;
  /** Records selected that an earlier requeue already moved. */
  alreadyRequeued: Array<{ partition: number; offset: string }>;
}

/** Thrown when `select` names an offset the DLQ partition does not hold. */
export class NoSuchRecordError extends Error {}

/** Pure: the offsets to requeue per partition, given the DLQ's ends and what the group remembers. */
export function planRequeue(
  ends: ReadonlyArray<{ partition: number; low: string; high: string }>,
  marks: ReadonlyMap<number, RequeueMark>,
  select: RequeueRequest['select'],
): { ranges: PartitionRange[]; wanted: Map<number, Set<string>>; already: Array<{ partition: number; offset: string }> } {
  const ranges: PartitionRange[] = [];
  const wanted = new Map<number, Set<string>>();
  const already: Array<{ partition: number; offset: string }> = [];
  const max = (a: bigint, b: bigint): bigint => (a > b ? a : b);
  for (const end of ends) {
    const mark = marks.get(end.partition);
    const from = max(BigInt(end.low), BigInt(mark?.watermark ?? end.low));
    const done = new Set(mark?.done ?? []);
    if ('all' in select) {
      if (from >= BigInt(end.high)) continue;
      ranges.push({ partition: end.partition, from: from.toString(), to: end.high });
      const set = new Set<string>();
      for (let o = from; o < BigInt(end.high); o += 1n) {
        if (done.has(o.toString())) already.push({ partition: end.partition, offset: o.toString() });
        else set.add(o.toString());
      }
      wanted.set(end.partition, set);
    } else if (select.partition === end.partition) {
      const o = BigInt(select.offset);
      if (o < BigInt(end.low) || o >= BigInt(end.high)) {
        throw new NoSuchRecordError(`partition ${end.partition} holds offsets ${end.low}..${BigInt(end.high) - 1n}; there is no record at ${select.offset}`);
      }
      if (o < BigInt(mark?.watermark ?? '0') || done.has(select.offset)) {
        already.push({ partition: end.partition, offset: select.offset });
        continue;
      }
      ranges.push({ partition: end.partition, from: select.offset, to: (o + 1n).toString() });
      wanted.set(end.partition, new Set([select.offset]));
    }
  }
  if (!('all' in select) && !ends.some((e) => e.partition === select.partition)) {
    throw new NoSuchRecordError(`there is no partition ${select.partition} (partitions: ${ends.map((e) => e.partition).join(', ')})`);
  }
  return { ranges, wanted, already };
}

/** Pure: the mark after requeuing `offsets` of a partition: contiguous offsets raise the watermark. */
export function advanceMark(mark: RequeueMark, offsets: readonly string[]): RequeueMark {
  const done = new Set([...mark.done, ...offsets]);
  let watermark = BigInt(mark.watermark);
  while (done.has(watermark.toString())) {
    done.delete(watermark.toString());
    watermark += 1n;
  }
  return { partition: mark.partition, watermark: watermark.toString(), done: [...done].filter((o) => BigInt(o) >= watermark).sort((a, b) => Number(BigInt(a) - BigInt(b))) };
}

/**
 * Puts dead letters back onto their source topic, each at most once: the group `groupId`
 * remembers per DLQ partition a committed offset below which everything was requeued, and in the
 * commit's metadata the offsets above it requeued one by one. The requeued record keeps its key,
 * value and headers, and carries its failure(s) in dlq-previous-errors (see requeueHeaders), so if
 * it fails again its new DLQ record names every error. A produce is acknowledged before the mark
 * moves past it: a crash in between requeues that record again (at least once), never loses it.
 */
export async function requeueDeadLetters(settings: KafkaSettings, request: RequeueRequest): Promise<RequeueResult> {
  const kafka = createKafka(settings);
  const admin = kafka.admin();
  await admin.connect();
  let ends: Array<{ partition: number; low: string; high: string }>;
  const marks = new Map<number, RequeueMark>();
  try {
    ends = (await topicOffsets(admin, request.dlq)).map((e) => ({ partition: e.partition, low: e.low, high: e.high }));
    const committed = await admin.fetchOffsets({ groupId: request.groupId, topics: [request.dlq] });
    for (const p of committed[0]?.partitions ?? []) {
      if (BigInt(p.offset) < 0n) continue;
      let done: string[] = [];
      try {
        const parsed: unknown = p.metadata ? JSON.parse(p.metadata) : [];
        if (Array.isArray(parsed)) done = parsed.filter((x): x is string => typeof x === 'string');
      } catch {
        done = [];
      }
      marks.set(p.partition, { partition: p.partition, watermark: p.offset, done });
    }
  } finally {
    await admin.disconnect();
  }
  const plan = planRequeue(ends, marks, request.select);
  const result: RequeueResult = { requeued: [], alreadyRequeued: plan.already };
  if ([...plan.wanted.values()].every((s) => s.size === 0)) return result;

  const producer = new RecordProducer(settings);
  // A member of the requeue group: only a member may commit the group's offsets (with metadata).
  const consumer = kafka.consumer({ groupId: request.groupId, maxWaitTimeInMs: 250, allowAutoTopicCreation: false });
  await producer.connect();
  await consumer.connect();
  try {
    await consumeRanges(consumer, request.dlq, plan.ranges, request.timeoutMs ?? 60_000, async (m) => {
      if (!plan.wanted.get(m.partition)?.has(m.offset)) return;
      const headers = requeueHeaders(m.headers, { topic: request.dlq, partition: m.partition, offset: m.offset }, new Date());
      await producer.publishRaw(request.target, m.key, m.value, headers);
      result.requeued.push({ partition: m.partition, offset: m.offset, key: m.key });
      const before = marks.get(m.partition) ?? { partition: m.partition, watermark: ends.find((e) => e.partition === m.partition)!.low, done: [] };
      const after = advanceMark(before, [m.offset]);
      marks.set(m.partition, after);
      await consumer.commitOffsets([{ topic: request.dlq, partition: m.partition, offset: after.watermark, metadata: after.done.length ? JSON.stringify(after.done) : null }]);
    });
  } finally {
    await consumer.disconnect();
    await producer.disconnect();
  }
  return result;
}
