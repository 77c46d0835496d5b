import { followerGroups, operatorConfigSchema } from './ops.config';

describe('followerGroups', () => {
  const parse = (env: Record<string, string>) => operatorConfigSchema.parse({ KAFKA_BROKERS: '127.0.0.1:9092', ...env });

  it('names only the followers whose group is set, on the topic each reads', () => {
    expect(followerGroups(parse({}))).toEqual([]);
    const groups = followerGroups(parse({ KAFKA_TOPIC_NAMESPACE: 'day1', SEGMENTS_GROUP_ID: 'seg', FORM4_GROUP_ID: 'f4', DECKS_GROUP_ID: 'decks' }));
    expect(groups).toEqual([
      { group: 'seg', topic: 'day1.edgar.filings.v1' },
      { group: 'f4', topic: 'day1.edgar.filings.v1' },
      // ingest-decks puts its group under the namespace itself.
      { group: 'day1.decks', topic: 'day1.ir.documents.v1' },
    ]);
  });
});
