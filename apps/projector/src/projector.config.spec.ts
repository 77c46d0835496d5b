import { projectorConfigSchema } from './projector.config';

const base = { DATABASE_URL: 'postgres://127.0.0.1/filings', KAFKA_BROKERS: '127.0.0.1:9092' };

describe('projector config', () => {
  it('PROJECTOR_EVENTS is live unless told log', () => {
    expect(projectorConfigSchema.parse(base).PROJECTOR_EVENTS).toBe('live');
    expect(projectorConfigSchema.parse({ ...base, PROJECTOR_EVENTS: 'log' }).PROJECTOR_EVENTS).toBe('log');
  });

  it('any other PROJECTOR_EVENTS is refused, saying what the two values do', () => {
    const bad = projectorConfigSchema.safeParse({ ...base, PROJECTOR_EVENTS: 'replay' });
    expect(bad.success ? 'ok' : bad.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([
      "PROJECTOR_EVENTS: must be 'live' (make webhook events and relay them to the log) or 'log' (a replay: insert the logged events, make none)",
    ]);
  });
});
