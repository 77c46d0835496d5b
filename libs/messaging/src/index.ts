// The only place that imports kafkajs. Everything else talks to Kafka through these exports.
export type { KafkaSettings, KafkaLogLevel } from './kafka.settings';
export type { MessagingLogger } from './messaging.logger';
export { ensureTopics, topicConfigs } from './topics.admin';
export { RecordProducer, recordHeaders, PUBLISH_BATCH_SIZE } from './record.producer';
export { KafkaRecordPublisher } from './record.publisher';
export type { RecordPublisher } from './record.publisher';
export { ConsumerRunner } from './consumer.runner';
export type { ConsumerRunnerOptions, ConsumerCounters, MessageMeta, RecordHandler } from './consumer.runner';
export { PermanentError, InvalidRecordError } from './permanent.error';
export { backoffDelay, DEFAULT_RETRY } from './backoff.policy';
export type { RetryPolicy } from './backoff.policy';
export { deadLetterHeaders } from './dead-letter.headers';
export type { DeadLetterSource } from './dead-letter.headers';
export { decodeRecord } from './record.decoder';
export { consumerLag } from './consumer-lag.query';
export type { PartitionLag } from './consumer-lag.query';
export { readTopic } from './topic.reader';
export type { RawMessage } from './topic.reader';
