import { KafkaJSProtocolError } from 'kafkajs';
import { whileLeaderMoves } from './group.admin';

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
