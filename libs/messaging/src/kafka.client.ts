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

function toLogCreator(logger: MessagingLogger): logCreator {
  return () => ({ namespace, level, log }) => {
    const { message, ...rest } = log;
    const obj = { component: 'kafkajs', namespace, ...rest };
    if (level <= KafkaJsLogLevel.ERROR) logger.error(obj, message);
    else if (level === KafkaJsLogLevel.WARN) logger.warn(obj, message);
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
