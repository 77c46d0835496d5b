import { Kafka, logLevel as KafkaJsLogLevel, type logCreator } from 'kafkajs';
import type { KafkaLogLevel, KafkaSettings } from './kafka.settings';
import { stderrLogger, type MessagingLogger } from './messaging.logger';

const LEVELS: Record<KafkaLogLevel, KafkaJsLogLevel> = {
  nothing: KafkaJsLogLevel.NOTHING,
  error: KafkaJsLogLevel.ERROR,
  warn: KafkaJsLogLevel.WARN,
  info: KafkaJsLogLevel.INFO,
  debug: KafkaJsLogLevel.DEBUG,
};

/** The same kafkajs line (namespace and message) is written at most once per this window. */
export const KAFKA_LOG_REPEAT_WINDOW_MS = 30_000;

/**
 * kafkajs' own log lines to our logger. Through a broker outage kafkajs writes the same errors
 * (connection refused, retries exceeded, restarting) many times a second, with stacks, while our
 * code logs what it does about them (publish retries, consumer restarts): so the same line goes
 * out once per window, with how many were left out, and a connection failure is a warning.
 */
export function toLogCreator(logger: MessagingLogger, now: () => number = Date.now): logCreator {
  const lastWritten = new Map<string, { at: number; suppressed: number }>();
  return () => ({ namespace, level, log }) => {
    const { message, ...rest } = log;
    const key = `${namespace}\u0000${message}`;
    const seen = lastWritten.get(key);
    if (seen && now() - seen.at < KAFKA_LOG_REPEAT_WINDOW_MS) {
      seen.suppressed += 1;
      return;
    }
    // Messages can carry offsets or addresses: the map is bounded by forgetting everything at once.
    if (lastWritten.size >= 1_000) lastWritten.clear();
    lastWritten.set(key, { at: now(), suppressed: 0 });
    const obj = { component: 'kafkajs', namespace, ...rest, ...(seen && seen.suppressed > 0 ? { repeated: seen.suppressed } : {}) };
    const transient = namespace === 'Connection' || namespace === 'BrokerPool';
    if (level <= KafkaJsLogLevel.ERROR && !transient) logger.error(obj, message);
    else if (level <= KafkaJsLogLevel.WARN) logger.warn(obj, message);
    else logger.info(obj, message);
  };
}

/** The one place a kafkajs client is built. */
export function createKafka(settings: KafkaSettings): Kafka {
  return new Kafka({
    clientId: settings.clientId,
    brokers: settings.brokers,
    logLevel: LEVELS[settings.logLevel ?? 'warn'],
    logCreator: toLogCreator(settings.logger ?? stderrLogger),
  });
}
