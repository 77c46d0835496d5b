import type { Admin } from 'kafkajs';

/** Low and high offsets of each partition of `topic`. Every read of a topic's offsets goes through here, to ride out a moving leader. */
export function topicOffsets(admin: Pick<Admin, 'fetchTopicOffsets'>, topic: string): ReturnType<Admin['fetchTopicOffsets']> {
  return whileLeaderMoves(() => admin.fetchTopicOffsets(topic));
}

/**
 * Retries a read of a topic's offsets while its partitions' leadership is still settling (a topic
 * another process just created answers NOT_LEADER_FOR_PARTITION for a moment: a worker starting
 * beside it exited), for up to about 10 s; any other error at once.
 */
export async function whileLeaderMoves<T>(read: () => Promise<T>, attempts = 20, delayMs = 500): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await read();
    } catch (err) {
      const type = (err as { type?: unknown; cause?: { type?: unknown } }).type ?? (err as { cause?: { type?: unknown } }).cause?.type;
      const leaderMoving = type === 'NOT_LEADER_FOR_PARTITION' || type === 'LEADER_NOT_AVAILABLE' || /not the leader|leader not available/i.test(String((err as Error)?.message));
      if (!leaderMoving || attempt >= attempts) throw err;
      await new Promise((r) => setTimeout(r, delayMs));
    }
  }
}
