import { consumerConfig } from './config';

describe('consumerConfig', () => {
  it('leaves the session timeout to the consumer runner (10 s) when unset', () => {
    expect(consumerConfig.parse({}).CONSUMER_SESSION_TIMEOUT_MS).toBeUndefined();
    expect(consumerConfig.parse({ CONSUMER_SESSION_TIMEOUT_MS: '30000' }).CONSUMER_SESSION_TIMEOUT_MS).toBe(30_000);
  });

  it('refuses a session timeout below the broker\'s minimum (group.min.session.timeout.ms, 6 s by default)', () => {
    expect(consumerConfig.safeParse({ CONSUMER_SESSION_TIMEOUT_MS: '5000' }).success).toBe(false);
  });
});
