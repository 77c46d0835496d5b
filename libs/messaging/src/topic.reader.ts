import { randomBytes } from 'node:crypto';
import type { KafkaSettings } from './kafka.settings';
import { createKafka } from './kafka.client';

export interface RawMessage {
  topic: string;
  partition: number;
  offset: string;
  key: string | null;
  value: string | null;
  headers: Record<string, string>;
}

/**
 * Reads a topic from the beginning until `count` messages arrived or `timeoutMs` passed, without
 * committing anything (a throwaway group). For inspecting dead-letter topics and for tests.
 */
export async function readTopic(
  settings: KafkaSettings,
  topic: string,
  options: { count: number; timeoutMs?: number },
): Promise<RawMessage[]> {
  const consumer = createKafka(settings).consumer({
    groupId: `reader-${randomBytes(6).toString('hex')}`,
    maxWaitTimeInMs: 250,
    allowAutoTopicCreation: false,
  });
  const seen: RawMessage[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    let done: () => void = () => undefined;
    const enough = new Promise<void>((resolve) => (done = resolve));
    await consumer.run({
      autoCommit: false,
      eachMessage: async ({ topic: t, partition, message }) => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(message.headers ?? {})) if (v !== undefined) headers[k] = v.toString();
        seen.push({ topic: t, partition, offset: message.offset, key: message.key?.toString() ?? null, value: message.value?.toString() ?? null, headers });
        if (seen.length >= options.count) done();
      },
    });
    await Promise.race([enough, new Promise((r) => setTimeout(r, options.timeoutMs ?? 30_000).unref())]);
  } finally {
    await consumer.disconnect();
  }
  return seen;
}
