// Real broker: requeueing dead letters moves each record back once (single offsets and --all
// remembered by the requeue group's commits), carrying its failure; group offsets are set as
// concrete positions and refused while the group has a member.
// @infra-path: the broker's admin API (group offsets, members): docker-compose.yml's Kafka in containers, scripts/kafka.sh's locally.
import { TOPICS } from '@app/contracts';
import { expectEventually, kafkaBrokersForTests, uniqueGroupId, uniqueTopic } from '@app/testing';
import {
  consumerLag,
  ConsumerRunner,
  deadLetterHeaders,
  deadLetterInfo,
  ensureTopics,
  GroupActiveError,
  groupState,
  groupsLag,
  previousErrors,
  readRanges,
  readTopic,
  RecordProducer,
  requeueDeadLetters,
  setGroupOffsets,
  topicDepths,
  type KafkaSettings,
} from './index';

jest.setTimeout(120_000);

let settings: KafkaSettings;
let producer: RecordProducer;

beforeAll(async () => {
  settings = { brokers: await kafkaBrokersForTests(), clientId: 'requeue-int-spec', logLevel: 'nothing' };
  producer = new RecordProducer(settings);
  await producer.connect();
});

afterAll(async () => {
  await producer.disconnect();
});

it('requeues a single offset, then --all the rest, then nothing; each carries its failure', async () => {
  const topic = { ...uniqueTopic(TOPICS.issuerDocuments, 'requeue'), partitions: 1 };
  await ensureTopics(settings, [topic]);
  for (const i of [0, 1, 2]) {
    const headers = deadLetterHeaders({ topic: topic.name, partition: 0, offset: String(10 + i) }, `permanent: failure ${i}`, new Date(), { 'record-id': `r${i}` });
    await producer.publishRaw(topic.dlq, `k${i}`, `v${i}`, headers);
  }
  const groupId = uniqueGroupId('requeue');
  const request = { dlq: topic.dlq, target: topic.name, groupId };

  const one = await requeueDeadLetters(settings, { ...request, select: { partition: 0, offset: '1' } });
  expect(one.requeued.map((r) => r.offset)).toEqual(['1']);
  const all = await requeueDeadLetters(settings, { ...request, select: { all: true } });
  expect(all.requeued.map((r) => r.offset)).toEqual(['0', '2']);
  expect(all.alreadyRequeued).toEqual([{ partition: 0, offset: '1' }]);
  const again = await requeueDeadLetters(settings, { ...request, select: { all: true } });
  expect(again).toEqual({ requeued: [], alreadyRequeued: [] });
  expect((await requeueDeadLetters(settings, { ...request, select: { partition: 0, offset: '0' } })).requeued).toEqual([]);
  expect((await consumerLag(settings, groupId, [{ ...topic, name: topic.dlq }]))[0]!.lag).toBe(0);

  const back = await readTopic(settings, topic.name, { count: 3, timeoutMs: 30_000 });
  expect(back.map((m) => [m.key, m.value, m.headers['record-id']])).toEqual([
    ['k1', 'v1', 'r1'],
    ['k0', 'v0', 'r0'],
    ['k2', 'v2', 'r2'],
  ]);
  expect(back[0]!.headers['dlq-reason']).toBeUndefined();
  expect(previousErrors(back[0]!.headers)).toEqual([expect.objectContaining({ reason: 'permanent: failure 1', source: `${topic.name}/0/11` })]);
  expect(deadLetterInfo(back[0]!.headers).requeuedFrom).toBe(`${topic.dlq}/0/1`);

  const [depth] = await topicDepths(settings, [topic.dlq]);
  expect(depth).toEqual({ topic: topic.dlq, partitions: [{ partition: 0, low: '0', high: '3' }], depth: 3 });
  expect((await readRanges(settings, topic.dlq, [{ partition: 0, from: '1', to: '3' }])).map((m) => m.key)).toEqual(['k1', 'k2']);
});

it('sets a group at the beginning or the end of topics; refuses while the group has a member', async () => {
  const a = { ...uniqueTopic(TOPICS.filings, 'offsets-a'), partitions: 1 };
  const b = { ...uniqueTopic(TOPICS.filings, 'offsets-b'), partitions: 1 };
  await ensureTopics(settings, [a, b]);
  await producer.publishRaw(a.name, 'x', 'not a record');
  await producer.publishRaw(b.name, 'y', 'not a record');
  const groupId = uniqueGroupId('offsets');
  await setGroupOffsets(settings, groupId, { earliest: [a.name], latest: [b.name] });
  const lag = (await groupsLag(settings, [groupId, uniqueGroupId('none')], [a.name, b.name])).get(groupId)!;
  expect(lag.map((p) => [p.topic, p.committed, p.lag])).toEqual([
    [a.name, '0', 1],
    [b.name, '1', 0],
  ]);

  const runner = new ConsumerRunner({ settings, groupId, topics: [a], handle: async () => undefined, logger: { info: () => undefined, warn: () => undefined, error: () => undefined } });
  await runner.start();
  try {
    // start() returns before the member has joined: wait until the broker counts it.
    await expectEventually(async () => expect((await groupState(settings, groupId)).members).toBe(1), { timeoutMs: 30_000 });
    await expect(setGroupOffsets(settings, groupId, { earliest: [a.name] })).rejects.toBeInstanceOf(GroupActiveError);
  } finally {
    await runner.stop();
  }
});
