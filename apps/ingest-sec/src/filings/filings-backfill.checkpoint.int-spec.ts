// A filings backfill stopped by a broker outage (the publisher gave up) leaves a checkpoint of the
// companies it finished; the same command resumes after them and publishes the rest. Here the
// publisher port gives up on its first publish for a given company, as KafkaRecordPublisher does;
// the last test gives the real publisher a broker address nothing listens on.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TOPICS, validateRecord, type RecordEnvelope, type TopicDefinition } from '@app/contracts';
import { EdgarClient, RequestLimiter } from '@app/edgar';
import { KafkaRecordPublisher, PublishGaveUpError } from '@app/messaging';
import { createLogger } from '@app/observability';
import { startFixtureServer, type FixtureServer } from '@app/testing';
import type { RecordPublisher } from '../ingest.providers';
import { RunStoppedError } from '../run-stopped.error';
import { FilingsBackfillService } from './filings-backfill.service';

const UA = 'Filings Platform tests ops@filings.example';

/** Keeps what it is given; from the first publish of company `failOnCik` on, gives up as KafkaRecordPublisher does after an outage. */
class OutagePublisher implements RecordPublisher {
  readonly records: RecordEnvelope[] = [];
  down = false;

  constructor(private readonly failOnCik: string | null) {}

  publish(topic: TopicDefinition, records: readonly RecordEnvelope[]): Promise<void> {
    if (this.failOnCik && records.some((r) => (r.data as { cik?: string }).cik === this.failOnCik)) this.down = true;
    if (this.down) return Promise.reject(new PublishGaveUpError(topic.name, records.length, 300_000, new Error('Connection error: connect ECONNREFUSED')));
    for (const r of records) {
      const v = validateRecord(topic, r);
      if (!v.ok) throw new Error(v.error);
    }
    this.records.push(...records);
    return Promise.resolve();
  }
}

let fixtures: FixtureServer;
let edgar: EdgarClient;
let dir: string;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  edgar = new EdgarClient({ userAgent: UA, wwwBaseUrl: fixtures.url, dataBaseUrl: fixtures.url, maxRps: 10, budget: new RequestLimiter(10), maxAttempts: 1 });
  dir = mkdtempSync(join(tmpdir(), 'filings-checkpoint-'));
});

afterAll(async () => {
  await fixtures?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('stops with a checkpoint of the companies done; the same command resumes after them', async () => {
  const logger = createLogger({ level: 'silent' });
  const checkpoint = join(dir, 'filings.json');
  const command = { companies: ['MSFT', '1318605'], from: '2019-01-01', to: '2025-12-31', checkpoint };

  const first = new OutagePublisher('0001318605');
  const stopped = await new FilingsBackfillService(edgar, first, TOPICS.filings, logger).execute(command).catch((e: unknown) => e);
  expect(stopped).toBeInstanceOf(RunStoppedError);
  expect((stopped as RunStoppedError).message).toMatch(/^stopped after 1 of 2 companies done \(1010 filings published in this run\).*run the same command again/);
  expect(JSON.parse(readFileSync(checkpoint, 'utf8'))).toMatchObject({ kind: 'sec-filings-backfill', done: ['0000789019'], records_published: 1010 });
  expect(first.records).toHaveLength(1010);

  // Another command (other range) does not use it.
  const other = await new FilingsBackfillService(edgar, new OutagePublisher(null), TOPICS.filings, logger).execute({ ...command, from: '2018-01-01', checkpoint: join(dir, 'other.json') });
  expect(other.companies.map((c) => c.status)).toEqual(['ok', 'ok']);

  const second = new OutagePublisher(null);
  const summary = await new FilingsBackfillService(edgar, second, TOPICS.filings, logger).execute(command);
  expect(summary.companies.map((c) => [c.company, c.status, c.published])).toEqual([
    ['MSFT', 'done_before', 0],
    ['1318605', 'ok', 536],
  ]);
  expect(second.records).toHaveLength(536);
  expect(existsSync(checkpoint)).toBe(false);
});

it('counts every company asked for when it stops at the first of three (issue 38: it said "0 of 1")', async () => {
  const logger = createLogger({ level: 'silent' });
  const command = { companies: ['MSFT', '1318605', 'NOPE'], from: '2019-01-01', to: '2025-12-31', checkpoint: join(dir, 'first-of-three.json') };
  const stopped = await new FilingsBackfillService(edgar, new OutagePublisher('0000789019'), TOPICS.filings, logger).execute(command).catch((e: unknown) => e);
  expect(stopped).toBeInstanceOf(RunStoppedError);
  const { message, stop } = stopped as RunStoppedError;
  expect(message).toMatch(/^stopped after 0 of 3 companies done \(0 filings published in this run\): gave up publishing/);
  expect(stop.done).toMatchObject({ published: 0, companies: [{ company: 'MSFT', status: 'error' }] });
});

it('through the real publisher, a broker that does not answer: the same count (the unknown ticker before it done), and a checkpoint', async () => {
  const logger = createLogger({ level: 'silent' });
  const checkpoint = join(dir, 'no-broker.json');
  const command = { companies: ['NOPE', 'MSFT', '1318605'], from: '2019-01-01', to: '2025-12-31', checkpoint };
  const publisher = new KafkaRecordPublisher({ brokers: ['127.0.0.1:1'], clientId: 'filings-checkpoint-int', logLevel: 'nothing', logger, publishRetryMs: 1_000 });
  try {
    const stopped = await new FilingsBackfillService(edgar, publisher, TOPICS.filings, logger).execute(command).catch((e: unknown) => e);
    expect(stopped).toBeInstanceOf(RunStoppedError);
    expect((stopped as RunStoppedError).message).toMatch(/^stopped after 1 of 3 companies done \(0 filings published in this run\): gave up publishing 500 records to edgar\.filings\.v1 .*; checkpoint .*no-broker\.json: run the same command again to resume$/);
    expect(JSON.parse(readFileSync(checkpoint, 'utf8'))).toMatchObject({ kind: 'sec-filings-backfill', done: [], records_published: 0 });
  } finally {
    await publisher.close();
  }
}, 30_000);
