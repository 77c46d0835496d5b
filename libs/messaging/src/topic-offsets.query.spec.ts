import { KafkaJSProtocolError } from 'kafkajs';
import { topicOffsets, whileLeaderMoves } from './topic-offsets.query';

const notLeader = () => new KafkaJSProtocolError({ type: 'NOT_LEADER_FOR_PARTITION', code: 6, retriable: true, message: 'This server is not the leader for that topic-partition' } as unknown as Error);

describe('whileLeaderMoves', () => {
  it('reads again while the partition leader is moving, then answers', async () => {
    let calls = 0;
    const read = () => (++calls < 3 ? Promise.reject(notLeader()) : Promise.resolve('offsets'));
    await expect(whileLeaderMoves(read, 5, 1)).resolves.toBe('offsets');
    expect(calls).toBe(3);
  });

  it('gives up after its attempts, and at once on any other error', async () => {
    let calls = 0;
    await expect(whileLeaderMoves(() => (calls++, Promise.reject(notLeader())), 4, 1)).rejects.toThrow('not the leader');
    expect(calls).toBe(4);
    calls = 0;
    await expect(whileLeaderMoves(() => (calls++, Promise.reject(new Error('socket hang up'))), 4, 1)).rejects.toThrow('socket hang up');
    expect(calls).toBe(1);
  });
});

describe('topicOffsets', () => {
  it("reads the topic's offsets again while its leader moves", async () => {
    const asked: string[] = [];
    const ends = [{ partition: 0, offset: '5', low: '2', high: '5' }];
    const admin = { fetchTopicOffsets: (topic: string) => (asked.push(topic) < 2 ? Promise.reject(notLeader()) : Promise.resolve(ends)) };
    await expect(topicOffsets(admin, 'filings')).resolves.toEqual(ends);
    expect(asked).toEqual(['filings', 'filings']);
  });
});
