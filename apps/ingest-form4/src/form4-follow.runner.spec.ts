import { TOPICS } from '@app/contracts';
import type { PartitionLag } from '@app/messaging';
import { createLogger } from '@app/observability';
import type { Form4IngestService } from './form4-ingest.service';
import { followFilings } from './form4-follow.runner';

/** A stand-in for the Kafka consumer runner: no broker in unit tests. */
class FakeRunner {
  static last: FakeRunner | undefined;
  healthy = false;
  lagLeft = 5;
  stopped = false;
  readonly counters = { processed: 0, dead_lettered: 0, retries: 0 };
  constructor() {
    FakeRunner.last = this;
  }
  start(): Promise<void> {
    this.healthy = true;
    return Promise.resolve();
  }
  stop(): Promise<void> {
    this.stopped = true;
    this.healthy = false;
    return Promise.resolve();
  }
  lag(): Promise<PartitionLag[]> {
    return Promise.resolve([{ topic: 't', partition: 0, lag: this.lagLeft } as PartitionLag]);
  }
}

// jest.mock is hoisted above FakeRunner: the constructor refers to it lazily (`new` returns the object).
jest.mock('@app/messaging', () => ({
  ...jest.requireActual<object>('@app/messaging'),
  ConsumerRunner: function ConsumerRunner() {
    return new FakeRunner();
  },
  ensureTopics: () => Promise.resolve(),
}));

const options = (once: boolean, signal = new AbortController().signal) => ({
  settings: { brokers: ['127.0.0.1:1'], clientId: 'test' },
  groupId: 'g-test',
  filingsTopic: TOPICS.filings,
  once,
  signal,
  logger: createLogger({ level: 'silent' }),
  lagCheckMs: 5,
  runId: 'run_t',
});
const service = {} as Form4IngestService;

describe('followFilings', () => {
  it('--once stops when the group has caught up', async () => {
    const run = followFilings(service, options(true));
    await new Promise((r) => setTimeout(r, 20));
    FakeRunner.last!.lagLeft = 0;
    await expect(run).resolves.toMatchObject({ runId: 'run_t', published: 0, ignored: 0 });
    expect(FakeRunner.last!.stopped).toBe(true);
  });

  it('--once fails instead of waiting forever when the consumer crashed with lag left', async () => {
    const run = followFilings(service, options(true));
    await new Promise((r) => setTimeout(r, 20));
    FakeRunner.last!.healthy = false;
    await expect(run).rejects.toThrow(/consumer g-test is not running/);
    expect(FakeRunner.last!.stopped).toBe(true);
  });

  it('follow (without --once) fails too when the consumer crashed, and stops on the signal otherwise', async () => {
    const crashed = followFilings(service, options(false));
    await new Promise((r) => setTimeout(r, 20));
    FakeRunner.last!.healthy = false;
    await expect(crashed).rejects.toThrow(/not running/);

    const stop = new AbortController();
    const running = followFilings(service, options(false, stop.signal));
    await new Promise((r) => setTimeout(r, 20));
    stop.abort();
    await expect(running).resolves.toMatchObject({ runId: 'run_t' });
  });
});
