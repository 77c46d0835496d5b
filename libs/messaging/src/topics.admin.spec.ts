import * as kafkajs from 'kafkajs';
import type { TopicDefinition } from '@app/contracts';
import { createdButNotVisibleYet, onlyAlreadyExists, replicationFor, topicConfigs, waitForMetadata } from './topics.admin';

// kafkajs's real error classes; its typings omit some and type the broker-error constructor loosely.
type BrokerError = { type: string; code: number; retriable: boolean; message: string };
const { KafkaJSAggregateError, KafkaJSCreateTopicError, KafkaJSProtocolError } = kafkajs as unknown as {
  KafkaJSAggregateError: new (message: string, errors: Error[]) => Error;
  KafkaJSCreateTopicError: new (cause: Error, topic: string) => Error;
  KafkaJSProtocolError: new (e: BrokerError) => Error;
};

// kafkajs error objects as its admin client builds them from broker answers (error codes 36, 3, 37).
const alreadyExists = (topic: string) => new KafkaJSCreateTopicError(new KafkaJSProtocolError({ type: 'TOPIC_ALREADY_EXISTS', code: 36, retriable: false, message: 'Topic with this name already exists' }), topic);
const unknownTopic = () => new KafkaJSProtocolError({ type: 'UNKNOWN_TOPIC_OR_PARTITION', code: 3, retriable: true, message: 'This server does not host this topic-partition' });

describe('ensureTopics helpers', () => {
  it('treats a lost creation race (every topic already exists) as success, and nothing else', () => {
    expect(onlyAlreadyExists(new KafkaJSAggregateError('Topic creation errors', [alreadyExists('a'), alreadyExists('b')]))).toBe(true);
    const invalid = new KafkaJSCreateTopicError(new KafkaJSProtocolError({ type: 'INVALID_PARTITIONS', code: 37, retriable: false, message: 'Number of partitions is invalid' }), 'c');
    expect(onlyAlreadyExists(new KafkaJSAggregateError('Topic creation errors', [alreadyExists('a'), invalid]))).toBe(false);
    expect(onlyAlreadyExists(new KafkaJSAggregateError('Topic creation errors', []))).toBe(false);
    expect(onlyAlreadyExists(new Error('connection refused'))).toBe(false);
  });

  it('takes an unknown topic in the wait for leaders as created, not visible yet, and nothing else', () => {
    expect(createdButNotVisibleYet(unknownTopic())).toBe(true);
    expect(createdButNotVisibleYet(alreadyExists('a'))).toBe(false);
    expect(createdButNotVisibleYet(new Error('connection refused'))).toBe(false);
  });

  it('waits while the metadata of new topics is not there yet (retriable), up to its timeout', async () => {
    let calls = 0;
    await waitForMetadata(async () => {
      calls += 1;
      if (calls < 3) throw unknownTopic();
    });
    expect(calls).toBe(3);
    await expect(waitForMetadata(() => Promise.reject(unknownTopic()), 250)).rejects.toThrow('does not host');
    const fatal = new KafkaJSProtocolError({ type: 'TOPIC_AUTHORIZATION_FAILED', code: 29, retriable: false, message: 'Not authorized' });
    let fatalCalls = 0;
    await expect(waitForMetadata(() => ((fatalCalls += 1), Promise.reject(fatal)))).rejects.toBe(fatal);
    expect(fatalCalls).toBe(1);
  });
});

describe('replication of new topics', () => {
  const configured = (rf: string, isr: string) => [
    { configName: 'default.replication.factor', configValue: rf },
    { configName: 'min.insync.replicas', configValue: isr },
  ];

  it('is at least min(3, brokers answering), with min.insync.replicas 2 from three replicas', () => {
    expect(replicationFor([], 1)).toEqual({ replicationFactor: 1, minInsyncReplicas: 1 });
    expect(replicationFor([], 2)).toEqual({ replicationFactor: 2, minInsyncReplicas: 1 });
    // Three brokers left at Kafka's defaults (1 and 1) still get three replicas.
    expect(replicationFor(configured('1', '1'), 3)).toEqual({ replicationFactor: 3, minInsyncReplicas: 2 });
    expect(replicationFor([{ configName: 'default.replication.factor', configValue: null }], 5)).toEqual({ replicationFactor: 3, minInsyncReplicas: 2 });
  });

  it("is at least what the brokers are configured for, so a broker down does not make a thinner topic", () => {
    // Configured for 3, one of three down: still 3 (ensureTopics then refuses to create).
    expect(replicationFor(configured('3', '2'), 2)).toEqual({ replicationFactor: 3, minInsyncReplicas: 2 });
    expect(replicationFor(configured('5', '3'), 5)).toEqual({ replicationFactor: 5, minInsyncReplicas: 3 });
    const [main, dlq] = topicConfigs({ name: 't', dlq: 't.dlq', partitions: 3, compacted: true } as TopicDefinition, replicationFor(configured('3', '2'), 3));
    expect(main).toMatchObject({ replicationFactor: 3, configEntries: [{ name: 'cleanup.policy', value: 'compact' }, { name: 'min.insync.replicas', value: '2' }] });
    expect(dlq).toMatchObject({ replicationFactor: 3, configEntries: [{ name: 'min.insync.replicas', value: '2' }] });
  });
});
