// A filings backfill stopped by a broker outage (the publisher gave up) leaves a checkpoint of the
// companies it finished; the same command resumes after them and publishes the rest. The outage
// itself, through the real Kafka client, is test/broker-outage.e2e-spec.ts; here the publisher
// port gives up on its first publish for the second company, as KafkaRecordPublisher does.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TOPICS, validateRecord, type RecordEnvelope, type TopicDefinition } from '@app/contracts';
import { EdgarClient, RequestLimiter } from '@app/edgar';
import { PublishGaveUpError } from '@app/messaging';
import { createLogger } from '@app/observability';
import { startFixtureServer, type FixtureServer } from '@app/testing';
import type { RecordPublisher } from '../ingest.providers';
import { FilingsBackfillService, FilingsBackfillStoppedError } from './filings-backfill.service';

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
  expect(stopped).toBeInstanceOf(FilingsBackfillStoppedError);
  expect((stopped as FilingsBackfillStoppedError).message).toMatch(/stopped after 1 of 2 companies \(1010 filings published in this run\).*run the same command again/);
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
