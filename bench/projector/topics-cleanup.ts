// libs/messaging has no topic deletion (no app needs one); the bench deletes what it created itself.
// eslint-disable-next-line no-restricted-imports
import { Kafka, logLevel } from 'kafkajs';
import type { KafkaSettings } from '@app/messaging';

/** Deletes every topic named `<namespace>.*` (the bench's records, their dead-letter topics, any the projector ensured). */
export async function deleteNamespacedTopics(settings: KafkaSettings, namespace: string): Promise<void> {
  const admin = new Kafka({ clientId: 'bench-projector-cleanup', brokers: settings.brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(`${namespace}.`));
    if (topics.length) await admin.deleteTopics({ topics, timeout: 30_000 });
  } finally {
    await admin.disconnect();
  }
}
