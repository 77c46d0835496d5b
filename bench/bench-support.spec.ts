import { cpuSecondsOf, memoryOf, projectorEnv } from './bench-support';

// Read from this process's own /proc entries and compared with what Node reports of itself.
describe('memoryOf / cpuSecondsOf', () => {
  it('reads the peak and current resident set as the kernel counts them', () => {
    const m = memoryOf(process.pid)!;
    const maxRssMiB = process.resourceUsage().maxRSS / 1024;
    expect(m.rss).toBeGreaterThan(0);
    expect(m.hwm).toBeGreaterThanOrEqual(m.rss);
    expect(Math.abs(m.hwm - maxRssMiB)).toBeLessThan(maxRssMiB * 0.05);
  });

  it('reads user + system CPU seconds', () => {
    const until = Date.now() + 200;
    while (Date.now() < until); // burn some CPU so the counters are well above their 10 ms tick
    const usage = process.cpuUsage();
    const cpu = cpuSecondsOf(process.pid)!;
    expect(cpu).toBeGreaterThan(0.15);
    expect(Math.abs(cpu - (usage.user + usage.system) / 1e6)).toBeLessThan(0.1);
  });

  it('answers null for a process that is not there', () => {
    const beyondPidMax = 2 ** 22 + 1;
    expect(memoryOf(beyondPidMax)).toBeNull();
    expect(cpuSecondsOf(beyondPidMax)).toBeNull();
  });
});

describe('projectorEnv', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it("passes the projector's knobs on, not the rest of the bench's environment, and the bench's settings win", () => {
    process.env.PROJECTOR_GROUP_ID = 'from-env';
    process.env.CONSUMER_BATCH_MAX_RECORDS = '900';
    process.env.BENCH_SCALE_PARTS = 'bulk';
    const env = projectorEnv({ PROJECTOR_GROUP_ID: 'bench-group', DATABASE_URL: 'postgres://x/y' });
    expect(env).toMatchObject({ LOG_LEVEL: 'warn', PROJECTOR_GROUP_ID: 'bench-group', CONSUMER_BATCH_MAX_RECORDS: '900', DATABASE_URL: 'postgres://x/y' });
    expect(env.BENCH_SCALE_PARTS).toBeUndefined();
  });
});
