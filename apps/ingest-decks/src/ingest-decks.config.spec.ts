import { ConfigError, loadConfig } from '@app/config';
import { ingestDecksConfigSchema } from './ingest-decks.config';

describe('ingestDecksConfigSchema', () => {
  it('needs a declared User-Agent and defaults the rest', () => {
    expect(loadConfig(ingestDecksConfigSchema, { DECKS_USER_AGENT: 'Acme Data ops@acme.example' })).toMatchObject({
      DECKS_MAX_BYTES: 52_428_800,
      DECKS_FETCH_TIMEOUT_MS: 60_000,
      DECKS_FETCH_ATTEMPTS: 3,
      DECKS_ALLOW_PRIVATE_HOSTS: false,
      DECKS_GROUP_ID: 'ingest-decks',
      CONSUMER_BATCH_MAX_RECORDS: 1,
      KAFKA_TOPIC_NAMESPACE: '',
    });
    expect(() => loadConfig(ingestDecksConfigSchema, {})).toThrow(ConfigError);
    expect(loadConfig(ingestDecksConfigSchema, { DECKS_USER_AGENT: 'Acme Data ops@acme.example', CONSUMER_BATCH_MAX_RECORDS: '8' }).CONSUMER_BATCH_MAX_RECORDS).toBe(8);
    expect(loadConfig(ingestDecksConfigSchema, { DECKS_USER_AGENT: 'Acme Data ops@acme.example', DECKS_ALLOW_PRIVATE_HOSTS: 'true' }).DECKS_ALLOW_PRIVATE_HOSTS).toBe(true);
    expect(() => loadConfig(ingestDecksConfigSchema, { DECKS_USER_AGENT: 'Acme Data ops@acme.example', DECKS_ALLOW_PRIVATE_HOSTS: 'yes' })).toThrow(/DECKS_ALLOW_PRIVATE_HOSTS/);
    expect(() => loadConfig(ingestDecksConfigSchema, { DECKS_USER_AGENT: 'curl/8', DECKS_MAX_BYTES: '0' })).toThrow(/DECKS_USER_AGENT: must name the company[\s\S]*DECKS_MAX_BYTES/);
  });
});
