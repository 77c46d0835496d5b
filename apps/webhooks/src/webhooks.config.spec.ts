import { loadConfig } from '@app/config';
import { deliveryUserAgent, webhooksConfigSchema } from './webhooks.config';

const base = { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/postgres', WEBHOOK_SECRETS_KEY: 'ab'.repeat(32) };

describe('webhooks config', () => {
  it('defaults: https only, public hosts only, 15 s timeout, the standard schedule, disabled after 5 days', () => {
    const c = loadConfig(webhooksConfigSchema, base);
    expect(c).toMatchObject({
      WEBHOOKS_ALLOW_HTTP: false,
      WEBHOOKS_ALLOW_PRIVATE_HOSTS: false,
      WEBHOOKS_TIMEOUT_MS: 15_000,
      WEBHOOKS_CONCURRENCY: 16,
      WEBHOOKS_DISABLE_AFTER_MS: 5 * 86_400_000,
      WEBHOOKS_LEASE_SLACK_MS: 30_000,
    });
    // The dispatcher consumes no topic: no Kafka or consumer-group settings.
    expect(Object.keys(c).filter((k) => k.startsWith('KAFKA_') || k === 'WEBHOOKS_GROUP_ID' || k === 'WEBHOOKS_PROJECTION_WAIT_MS')).toEqual([]);
    expect(c.WEBHOOKS_RETRY_SCHEDULE).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
  });

  it("names the api's /docs/webhooks page in the delivery User-Agent, unless one is set", () => {
    expect(deliveryUserAgent(loadConfig(webhooksConfigSchema, base))).toBe('filings-platform-webhooks/1.0 (+http://localhost:3000/docs/webhooks)');
    expect(deliveryUserAgent(loadConfig(webhooksConfigSchema, { ...base, PUBLIC_BASE_URL: 'https://api.filings.example/' }))).toBe(
      'filings-platform-webhooks/1.0 (+https://api.filings.example/docs/webhooks)',
    );
    expect(deliveryUserAgent(loadConfig(webhooksConfigSchema, { ...base, WEBHOOKS_USER_AGENT: 'acme-hooks/2' }))).toBe('acme-hooks/2');
  });

  it('reads a compressed schedule and durations in ms or with a unit', () => {
    const c = loadConfig(webhooksConfigSchema, { ...base, WEBHOOKS_RETRY_SCHEDULE: '100ms,200ms,300ms', WEBHOOKS_DISABLE_AFTER_MS: '60000', WEBHOOKS_ALLOW_HTTP: 'true' });
    expect(c.WEBHOOKS_RETRY_SCHEDULE).toEqual([100, 200, 300]);
    expect(c.WEBHOOKS_DISABLE_AFTER_MS).toBe(60_000);
    expect(c.WEBHOOKS_ALLOW_HTTP).toBe(true);
  });

  it('reports every invalid variable at once; the secrets key is required', () => {
    expect(() => loadConfig(webhooksConfigSchema, { DATABASE_URL: base.DATABASE_URL, WEBHOOKS_RETRY_SCHEDULE: '5s,later', WEBHOOKS_ALLOW_HTTP: 'yes' })).toThrow(
      /WEBHOOK_SECRETS_KEY[\s\S]*WEBHOOKS_ALLOW_HTTP[\s\S]*WEBHOOKS_RETRY_SCHEDULE: invalid duration "later"/,
    );
  });

  it('serves the ops port only when OPS_PORT is set: unset or empty is none; a bad port is an error', () => {
    expect(loadConfig(webhooksConfigSchema, base).OPS_PORT).toBeUndefined();
    expect(loadConfig(webhooksConfigSchema, { ...base, OPS_PORT: '' }).OPS_PORT).toBeUndefined();
    expect(loadConfig(webhooksConfigSchema, { ...base, OPS_PORT: '9102' })).toMatchObject({ OPS_PORT: 9102, OPS_HOST: '127.0.0.1' });
    expect(() => loadConfig(webhooksConfigSchema, { ...base, OPS_PORT: '70000' })).toThrow(/OPS_PORT/);
    expect(() => loadConfig(webhooksConfigSchema, { ...base, OPS_PORT: 'abc' })).toThrow(/OPS_PORT/);
  });
});
