import type { MessagingLogger } from './messaging.logger';

export type KafkaLogLevel = 'nothing' | 'error' | 'warn' | 'info' | 'debug';

/** How to reach Kafka. Use `127.0.0.1`, not `localhost` (Node may resolve it to ::1). */
export interface KafkaSettings {
  brokers: string[];
  clientId: string;
  /** Level of kafkajs' own logs; default `warn`. */
  logLevel?: KafkaLogLevel;
  /** Where kafkajs' own logs go; default stderr. */
  logger?: MessagingLogger;
  /**
   * How long KafkaRecordPublisher keeps retrying a publish the broker does not take (outage,
   * leader election) before it gives up with PublishGaveUpError; default 5 minutes.
   */
  publishRetryMs?: number;
}
