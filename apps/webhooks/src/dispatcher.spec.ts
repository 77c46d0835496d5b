import type { AttemptResult, ClaimedDelivery, WebhookDispatchRepository } from '@app/persistence';
import { generateSigningSecret, SecretBox } from '@app/webhooks';
import { Dispatcher, type DispatcherOptions } from './dispatcher';
import type { SendResult, WebhookSender } from './webhook.sender';

const box = new SecretBox('cd'.repeat(32));
const sealed = box.seal(generateSigningSecret());
const logger = { info: () => undefined, warn: () => undefined, debug: () => undefined };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function delivery(i: number): ClaimedDelivery {
  return {
    id: `del_${i}`,
    attempts: 0,
    eventId: `evt_${i}`,
    type: 'filing.created',
    eventCreatedAt: new Date(),
    data: '{}',
    isTest: false,
    endpointId: 'we_1',
    url: 'https://receiver.example/hook',
    sealedSecrets: [sealed],
    leaseToken: `lease_${i}`,
    filingAcceptedAt: null,
  };
}

/** Deliveries due in memory; every claim and every recordAttempts call is kept. */
class FakeRepo {
  due: ClaimedDelivery[] = [];
  claims: number[] = [];
  writes: AttemptResult[][] = [];
  failNextWrite = false;
  async claim(limit: number): Promise<ClaimedDelivery[]> {
    this.claims.push(limit);
    return this.due.splice(0, limit);
  }
  async recordAttempts(records: readonly AttemptResult[]): Promise<Map<string, string>> {
    await sleep(2);
    if (this.failNextWrite) {
      this.failNextWrite = false;
      throw new Error('connection lost');
    }
    this.writes.push([...records]);
    return new Map();
  }
  async release(): Promise<void> {}
}

function dispatcher(repo: FakeRepo, sendMs: number, options: Partial<DispatcherOptions> = {}): Dispatcher {
  const sender = {
    send: async (): Promise<SendResult> => {
      await sleep(sendMs);
      return { statusCode: 204, body: Buffer.alloc(0), retryAfter: null, durationMs: sendMs, error: null };
    },
  } as unknown as WebhookSender;
  const d = new Dispatcher(
    repo as unknown as WebhookDispatchRepository,
    sender,
    box,
    { concurrency: 4, pollMs: 5, timeoutMs: 2_000, retrySchedule: [100], disableAfterMs: 60_000, leaseSlackMs: 1_000, userAgent: 'test', ...options },
    logger,
  );
  return d;
}

const written = (repo: FakeRepo) => repo.writes.flat().map((r) => r.deliveryId);

describe('Dispatcher (fake repository and sender)', () => {
  it('writes a lone result after a short wait, not at once, and exactly once', async () => {
    const repo = new FakeRepo();
    repo.due = [delivery(1)];
    const d = dispatcher(repo, 0);
    d.start();
    await sleep(3);
    expect(repo.writes).toHaveLength(0); // waiting for others to share its statement
    await sleep(40);
    expect(written(repo)).toEqual(['del_1']);
    await d.stop();
    expect(written(repo)).toEqual(['del_1']);
    expect(d.counts).toMatchObject({ claimed: 1, succeeded: 1, errors: 0 });
  });

  it('observes the freshness of deliveries of filings live discovery found (first attempt, delivered), and of no others', async () => {
    const repo = new FakeRepo();
    const acceptedAt = new Date(Date.now() - 2_000);
    repo.due = [{ ...delivery(1), filingAcceptedAt: acceptedAt }, delivery(2)];
    const d = dispatcher(repo, 0);
    d.start();
    await sleep(60);
    await d.stop();
    expect(written(repo)).toEqual(['del_1', 'del_2']);
    const values = (await d.freshness.get()).values;
    const count = (stage: string) => values.find((v) => v.metricName === 'filing_freshness_seconds_count' && v.labels.stage === stage);
    expect(count('first_attempt')).toMatchObject({ value: 1, labels: { event_type: 'filing.created' } });
    expect(count('delivered')).toMatchObject({ value: 1, labels: { event_type: 'filing.created' } });
    // About 2 s from acceptance: above the 1 s bucket, within the 3 s one.
    const bucket = (le: number) => values.find((v) => v.metricName === 'filing_freshness_seconds_bucket' && v.labels.stage === 'delivered' && (v.labels as { le?: number }).le === le)?.value;
    expect([bucket(1), bucket(3)]).toEqual([0, 1]);
  });

  it('records many results in few statements, each once', async () => {
    const repo = new FakeRepo();
    repo.due = Array.from({ length: 200 }, (_, i) => delivery(i));
    const d = dispatcher(repo, 1, { concurrency: 16 });
    d.start();
    for (let i = 0; i < 200 && d.counts.succeeded < 200; i += 1) await sleep(10);
    await d.stop();
    expect(written(repo).sort()).toEqual(Array.from({ length: 200 }, (_, i) => `del_${i}`).sort());
    expect(repo.writes.length).toBeLessThan(50);
  });

  it('stop() writes the results still waiting to share a statement', async () => {
    const repo = new FakeRepo();
    repo.due = [delivery(1), delivery(2)];
    const d = dispatcher(repo, 0);
    d.start();
    await sleep(2);
    await d.stop();
    expect(written(repo).sort()).toEqual(['del_1', 'del_2']);
  });

  it('a failed write fails its own batch only (left to the lease), and later results are written', async () => {
    const repo = new FakeRepo();
    repo.failNextWrite = true;
    repo.due = [delivery(1)];
    const d = dispatcher(repo, 0);
    d.start();
    await sleep(40);
    expect(d.counts).toMatchObject({ succeeded: 0, errors: 1 });
    repo.due = [delivery(2)];
    d.wake();
    await sleep(40);
    await d.stop();
    expect(written(repo)).toEqual(['del_2']);
    expect(d.counts).toMatchObject({ succeeded: 1, errors: 1 });
  });

  it('with slow receivers, claims no more ahead than the slots can start within the queue wait', async () => {
    const repo = new FakeRepo();
    repo.due = Array.from({ length: 400 }, (_, i) => delivery(i));
    const d = dispatcher(repo, 400);
    d.start();
    await sleep(1_500);
    await d.stop();
    // Before any attempt finished the dispatcher knew no better (8 per slot); once attempts
    // took 400 ms, a claim asked for what 4 slots start in 1 s at most, minus what was queued.
    expect(repo.claims[0]).toBe(32);
    expect(repo.claims.length).toBeGreaterThan(1);
    expect(repo.claims.slice(1).every((limit) => limit <= 8)).toBe(true);
  });
});
