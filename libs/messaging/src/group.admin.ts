import type { PartitionLag } from './consumer-lag.query';
import { createKafka } from './kafka.client';
import type { KafkaSettings } from './kafka.settings';
import { topicOffsets } from './topic-offsets.query';

export interface PartitionDepth {
  partition: number;
  /** Offset of the oldest record still on the partition. */
  low: string;
  /** Offset the next record will get. */
  high: string;
}

export interface TopicDepth {
  topic: string;
  partitions: PartitionDepth[];
  /** Records on the topic (high - low over its partitions). */
  depth: number;
}

export interface GroupState {
  groupId: string;
  /** Kafka's group state: Empty, Stable, PreparingRebalance, CompletingRebalance, Dead. */
  state: string;
  members: number;
}

/** Thrown by resetGroupToEarliest while the group has members: offsets of a live group cannot be moved. */
export class GroupActiveError extends Error {
  constructor(readonly group: GroupState) {
    super(`consumer group '${group.groupId}' has ${group.members} active member(s) (state ${group.state})`);
    this.name = 'GroupActiveError';
  }
}

/** Names of every topic on the broker. */
export async function listTopicNames(settings: KafkaSettings): Promise<string[]> {
  const admin = createKafka(settings).admin();
  await admin.connect();
  try {
    return (await admin.listTopics()).sort();
  } finally {
    await admin.disconnect();
  }
}

/** Records on each topic, per partition and in total. Topics that do not exist are left out. */
export async function topicDepths(settings: KafkaSettings, topics: readonly string[]): Promise<TopicDepth[]> {
  const admin = createKafka(settings).admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const out: TopicDepth[] = [];
    for (const topic of topics) {
      if (!existing.has(topic)) continue;
      const ends = await topicOffsets(admin, topic);
      const partitions = ends
        .map((e) => ({ partition: e.partition, low: e.low, high: e.high }))
        .sort((a, b) => a.partition - b.partition);
      out.push({ topic, partitions, depth: partitions.reduce((n, p) => n + Number(BigInt(p.high) - BigInt(p.low)), 0) });
    }
    return out;
  } finally {
    await admin.disconnect();
  }
}

/** Ids of the consumer groups the broker knows. */
export async function listConsumerGroups(settings: KafkaSettings): Promise<string[]> {
  const admin = createKafka(settings).admin();
  await admin.connect();
  try {
    const { groups } = await admin.listGroups();
    return groups.filter((g) => g.protocolType === 'consumer' || g.protocolType === '').map((g) => g.groupId).sort();
  } finally {
    await admin.disconnect();
  }
}

/** State and member count of a consumer group (Dead with 0 members when the broker has never seen it). */
export async function groupState(settings: KafkaSettings, groupId: string): Promise<GroupState> {
  const admin = createKafka(settings).admin();
  await admin.connect();
  try {
    const { groups } = await admin.describeGroups([groupId]);
    const g = groups[0];
    return { groupId, state: g?.state ?? 'Dead', members: g?.members.length ?? 0 };
  } finally {
    await admin.disconnect();
  }
}

/**
 * Commits the group's offsets at the beginning of every partition of the `earliest` topics and at
 * the end of the `latest` ones, as concrete offsets (a committed -1/-2 would read as "no commit" and
 * the consumer's own fromBeginning would decide). Refused (GroupActiveError) while the group has
 * members: the broker would not take the commit, and a running consumer would overwrite it.
 */
export async function setGroupOffsets(
  settings: KafkaSettings,
  groupId: string,
  at: { earliest?: readonly string[]; latest?: readonly string[] },
): Promise<void> {
  const state = await groupState(settings, groupId);
  if (state.members > 0) throw new GroupActiveError(state);
  const kafka = createKafka(settings);
  const admin = kafka.admin();
  const offsets: Array<{ topic: string; partition: number; offset: string }> = [];
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const wanted = [...(at.earliest ?? []).map((t) => [t, 'earliest'] as const), ...(at.latest ?? []).map((t) => [t, 'latest'] as const)];
    for (const [topic, to] of wanted) {
      if (!existing.has(topic)) continue;
      for (const e of await topicOffsets(admin, topic)) offsets.push({ topic, partition: e.partition, offset: to === 'earliest' ? e.low : e.high });
    }
  } finally {
    await admin.disconnect();
  }
  if (offsets.length === 0) return;
  // Only a member may commit a group's offsets: join once for every topic (admin.setOffsets joins
  // once per topic, a few seconds each), commit, leave. Nothing is consumed or resolved meanwhile.
  const consumer = kafka.consumer({ groupId, allowAutoTopicCreation: false, maxWaitTimeInMs: 250 });
  await consumer.connect();
  try {
    const joined = new Promise<void>((resolve) => consumer.on(consumer.events.GROUP_JOIN, () => resolve()));
    const names = [...new Set(offsets.map((o) => o.topic))];
    await consumer.subscribe({ topics: names, fromBeginning: true });
    await consumer.run({ autoCommit: false, eachBatchAutoResolve: false, eachBatch: async () => undefined });
    consumer.pause(names.map((topic) => ({ topic })));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      joined,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`joining group '${groupId}' to commit its offsets timed out`)), 60_000);
      }),
    ]).finally(() => clearTimeout(timer));
    await consumer.commitOffsets(offsets);
  } finally {
    await consumer.disconnect();
  }
}

/** Rewinds the group to the beginning of `topics`, so its next start consumes them all again (see setGroupOffsets). */
export async function resetGroupToEarliest(settings: KafkaSettings, groupId: string, topics: readonly string[]): Promise<void> {
  await setGroupOffsets(settings, groupId, { earliest: topics });
}

/**
 * consumerLag for many groups at once: one connection, the topics' ends read once, one offset
 * fetch per group. Groups with no commit on any of the topics are left out unless in `always`.
 */
export async function groupsLag(
  settings: KafkaSettings,
  groupIds: readonly string[],
  topics: readonly string[],
  always: readonly string[] = [],
): Promise<Map<string, PartitionLag[]>> {
  const admin = createKafka(settings).admin();
  await admin.connect();
  try {
    const ends = new Map<string, Array<{ partition: number; low: string; high: string }>>();
    for (const topic of topics) ends.set(topic, await topicOffsets(admin, topic));
    const out = new Map<string, PartitionLag[]>();
    for (const groupId of groupIds) {
      const committed = await admin.fetchOffsets({ groupId, topics: [...topics] });
      const lag: PartitionLag[] = [];
      let any = false;
      for (const topic of topics) {
        const group = committed.find((c) => c.topic === topic)?.partitions ?? [];
        for (const end of ends.get(topic) ?? []) {
          const offset = group.find((p) => p.partition === end.partition)?.offset ?? '-1';
          const hasCommit = BigInt(offset) >= 0n;
          any ||= hasCommit;
          lag.push({ topic, partition: end.partition, committed: hasCommit ? offset : null, high: end.high, lag: Number(BigInt(end.high) - (hasCommit ? BigInt(offset) : BigInt(end.low))) });
        }
      }
      if (any || always.includes(groupId)) out.set(groupId, lag);
    }
    return out;
  } finally {
    await admin.disconnect();
  }
}
