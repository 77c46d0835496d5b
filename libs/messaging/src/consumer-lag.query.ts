import type { TopicDefinition } from '@app/contracts';
import { createKafka } from './kafka.client';
import type { KafkaSettings } from './kafka.settings';
import { topicOffsets } from './topic-offsets.query';

export interface PartitionLag {
  topic: string;
  partition: number;
  /** Next offset the group will read; null when the group has committed nothing yet. */
  committed: string | null;
  /** High watermark (offset of the next record to be written). */
  high: string;
  /** Records not yet committed by the group. */
  lag: number;
}

/** Lag of a consumer group on the given topics, one entry per partition. */
export async function consumerLag(settings: KafkaSettings, groupId: string, topics: readonly TopicDefinition[]): Promise<PartitionLag[]> {
  const admin = createKafka(settings).admin();
  await admin.connect();
  try {
    const names = topics.map((t) => t.name);
    const committed = await admin.fetchOffsets({ groupId, topics: names });
    const out: PartitionLag[] = [];
    for (const name of names) {
      const ends = await topicOffsets(admin, name);
      const group = committed.find((c) => c.topic === name)?.partitions ?? [];
      for (const end of ends) {
        const offset = group.find((p) => p.partition === end.partition)?.offset ?? '-1';
        const hasCommit = BigInt(offset) >= 0n;
        const from = hasCommit ? BigInt(offset) : BigInt(end.low);
        out.push({
          topic: name,
          partition: end.partition,
          committed: hasCommit ? offset : null,
          high: end.high,
          lag: Number(BigInt(end.high) - from),
        });
      }
    }
    return out;
  } finally {
    await admin.disconnect();
  }
}
