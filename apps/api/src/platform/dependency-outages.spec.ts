import { DependencyOutages, unavailableDependency } from './dependency-outages';

describe('unavailableDependency', () => {
  it('names Postgres for socket errors, connection SQLSTATEs and TypeORM-wrapped ones; Redis for ioredis give-ups', () => {
    expect(unavailableDependency(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toBe('postgres');
    expect(unavailableDependency(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe('postgres');
    expect(unavailableDependency(new Error('Connection terminated unexpectedly'))).toBe('postgres');
    expect(unavailableDependency({ name: 'QueryFailedError', message: 'x', driverError: Object.assign(new Error('x'), { code: '08006' }) })).toBe('postgres');
    expect(unavailableDependency(Object.assign(new Error('Reached the max retries per request limit'), { name: 'MaxRetriesPerRequestError' }))).toBe('redis');
    expect(unavailableDependency(new Error("Stream isn't writeable and enableOfflineQueue options is false"))).toBe('redis');
  });

  it('leaves every other failure alone (a bug stays a 500)', () => {
    expect(unavailableDependency(Object.assign(new Error('syntax error at or near "SELEC"'), { code: '42601' }))).toBeUndefined();
    expect(unavailableDependency(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBeUndefined();
    expect(unavailableDependency('boom')).toBeUndefined();
  });
});

describe('DependencyOutages', () => {
  it('logs an outage once when it starts and once when the probe finds the dependency back', async () => {
    const lines: Array<[string, string]> = [];
    const logger = { error: (_o: object, msg: string) => void lines.push(['error', msg]), info: (_o: object, msg: string) => void lines.push(['info', msg]) };
    let up = false;
    const outages = new DependencyOutages({ postgres: () => (up ? Promise.resolve() : Promise.reject(new Error('down'))) }, logger as never, 10);
    for (let i = 0; i < 50; i += 1) outages.failed('postgres', new Error('connect ECONNREFUSED'));
    expect(outages.down).toEqual(['postgres']);
    await new Promise((r) => setTimeout(r, 50));
    expect(outages.down).toEqual(['postgres']);
    up = true;
    await new Promise((r) => setTimeout(r, 50));
    expect(outages.down).toEqual([]);
    expect(lines).toEqual([
      ['error', 'postgres unavailable: answering 503 until it is back'],
      ['info', 'postgres available again'],
    ]);
    outages.close();
  });
});
