import type { TopicDefinition } from '@app/contracts';
import { ConfigResourceTypes, type ITopicConfig } from 'kafkajs';
import { createKafka } from './kafka.client';
import type { KafkaSettings } from './kafka.settings';

/** How new topics are replicated: the cluster's own intent, read from its brokers' configuration. */
export interface Replication {
  replicationFactor: number;
  minInsyncReplicas: number;
}

/**
 * The replication of new topics: at least min(3, brokers answering) (issue 19: one broker of three
 * can die without losing an acknowledged record), and at least what the brokers'
 * `default.replication.factor` and `min.insync.replicas` ask for, read from their configuration so
 * that a cluster configured for 3 does not get a topic of 2 while one broker is down (ensureTopics
 * then refuses instead). With three replicas or more a write waits for two. Missing values are 1.
 */
export function replicationFor(entries: ReadonlyArray<{ configName: string; configValue: string | null }>, brokersAnswering: number): Replication {
  const value = (name: string): number => {
    const n = Number(entries.find((e) => e.configName === name)?.configValue ?? '1');
    return Number.isInteger(n) && n >= 1 ? n : 1;
  };
  const replicationFactor = Math.max(value('default.replication.factor'), Math.min(3, brokersAnswering));
  const minInsyncReplicas = Math.min(replicationFactor, Math.max(value('min.insync.replicas'), replicationFactor >= 3 ? 2 : 1));
  return { replicationFactor, minInsyncReplicas };
}

/** The topic and its dead-letter topic as kafkajs topic configs, with explicit replication. */
export function topicConfigs(topic: TopicDefinition, { replicationFactor, minInsyncReplicas }: Replication = { replicationFactor: 1, minInsyncReplicas: 1 }): ITopicConfig[] {
  const isr = { name: 'min.insync.replicas', value: String(minInsyncReplicas) };
  return [
    {
      topic: topic.name,
      numPartitions: topic.partitions,
      replicationFactor,
      configEntries: topic.compacted ? [{ name: 'cleanup.policy', value: 'compact' }, isr] : [isr],
    },
    // The DLQ is never compacted: every failure of a key is kept, not just the last one.
    { topic: topic.dlq, numPartitions: topic.partitions, replicationFactor, configEntries: [isr] },
  ];
}

/**
 * Creates every topic and its `<topic>.dlq` that does not exist yet, and waits for their leaders.
 * Idempotent; existing topics are left as they are (partitions and config are not altered).
 * Returns the names it created.
 */
export async function ensureTopics(settings: KafkaSettings, topics: readonly TopicDefinition[]): Promise<string[]> {
  const admin = createKafka(settings).admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    if (topics.every((t) => existing.has(t.name) && existing.has(t.dlq))) return [];
    const { brokers } = await admin.describeCluster();
    const described = await admin.describeConfigs({
      includeSynonyms: false,
      resources: [{ type: ConfigResourceTypes.BROKER, name: String(brokers[0]!.nodeId), configNames: ['default.replication.factor', 'min.insync.replicas'] }],
    });
    const replication = replicationFor(described.resources[0]?.configEntries ?? [], brokers.length);
    const missing = topics.flatMap((t) => topicConfigs(t, replication)).filter((t) => !existing.has(t.topic));
    if (replication.replicationFactor > brokers.length) {
      throw new Error(
        `cannot create ${missing.map((t) => t.topic).join(', ')} with the cluster's replication factor ${replication.replicationFactor}: only ${brokers.length} broker(s) answer`,
      );
    }
    try {
      await admin.createTopics({ topics: missing, waitForLeaders: true });
    } catch (err) {
      // Another process (every app ensures its topics at start) created some of them first; or the
      // topics were created and kafkajs's wait for their leaders asked before the broker's metadata
      // cache had them (a fresh broker on a busy machine): waitForMetadata below waits for that.
      if (!onlyAlreadyExists(err) && !createdButNotVisibleYet(err)) throw err;
    }
    await waitForMetadata(() => admin.fetchTopicMetadata({ topics: missing.map((t) => t.topic) }));
    return missing.map((t) => t.topic);
  } finally {
    await admin.disconnect();
  }
}

/** kafkajs reports a lost creation race as TOPIC_ALREADY_EXISTS, alone or per topic in an aggregate. */
export function onlyAlreadyExists(err: unknown): boolean {
  const e = err as { type?: string; errors?: unknown[] };
  if (e.type === 'TOPIC_ALREADY_EXISTS') return true;
  return Array.isArray(e.errors) && e.errors.length > 0 && e.errors.every(onlyAlreadyExists);
}

/**
 * kafkajs's `waitForLeaders` retries only LEADER_NOT_AVAILABLE; a metadata answer that does not
 * know the just-created topic yet (UNKNOWN_TOPIC_OR_PARTITION) ends createTopics with that error.
 */
export function createdButNotVisibleYet(err: unknown): boolean {
  return (err as { type?: string }).type === 'UNKNOWN_TOPIC_OR_PARTITION';
}

/**
 * New topics reach every broker's metadata cache a moment after creation: a consumer subscribing
 * before that fails with UNKNOWN_TOPIC_OR_PARTITION. Waits (up to 30 s) until the metadata answers.
 */
export async function waitForMetadata(fetch: () => Promise<unknown>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let pause = 100; ; pause = Math.min(pause * 2, 2_000)) {
    try {
      await fetch();
      return;
    } catch (err) {
      if ((err as { retriable?: boolean }).retriable === false || Date.now() + pause > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}
