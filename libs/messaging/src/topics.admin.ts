import type { TopicDefinition } from '@app/contracts';
import type { ITopicConfig } from 'kafkajs';
import { createKafka } from './kafka.client';
import type { KafkaSettings } from './kafka.settings';

/** The topic and its dead-letter topic as kafkajs topic configs. */
export function topicConfigs(topic: TopicDefinition): ITopicConfig[] {
  return [
    {
      topic: topic.name,
      numPartitions: topic.partitions,
      replicationFactor: -1,
      configEntries: topic.compacted ? [{ name: 'cleanup.policy', value: 'compact' }] : [],
    },
    // The DLQ is never compacted: every failure of a key is kept, not just the last one.
    { topic: topic.dlq, numPartitions: topic.partitions, replicationFactor: -1, configEntries: [] },
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
    const missing = topics.flatMap(topicConfigs).filter((t) => !existing.has(t.topic));
    if (missing.length === 0) return [];
    // A concurrent creator makes kafkajs answer false instead of throwing: fine either way.
    await admin.createTopics({ topics: missing, waitForLeaders: true });
    return missing.map((t) => t.topic);
  } finally {
    await admin.disconnect();
  }
}
