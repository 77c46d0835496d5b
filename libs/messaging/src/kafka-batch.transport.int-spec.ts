// The Nest microservice transport on the real broker: @EventPattern handlers receive validated
// batches under the topic namespace; a PermanentError reaches the runner through Nest's exception
// layer (isolated to the DLQ), any other error is retried, and stop() commits what was applied.
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { Controller, Module } from '@nestjs/common';
import { EventPattern, Payload, Ctx } from '@nestjs/microservices';
import { contentHash, namespacedTopic, recordId, sourceId, TOPICS, type CompanyRecordV1 } from '@app/contracts';
import { expectEventually, kafkaBrokersForTests, uniqueGroupId } from '@app/testing';
import { consumerLag, KafkaBatchContext, PermanentError, readTopic, RecordProducer, startWorker, type KafkaSettings, type RecordBatch, type RunningWorker } from './index';

jest.setTimeout(120_000);

const quietLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

function company(ticker: string): CompanyRecordV1 {
  const url = 'https://www.sec.gov/files/company_tickers_exchange.json';
  const hash = contentHash(ticker);
  const key = `symbol ${ticker}:US`;
  return {
    schema: 'company@1',
    key,
    id: recordId(key, hash),
    observed_at: '2025-01-02T03:04:05.000Z',
    produced_by: 'transport-int-spec',
    correlation_id: 'run_test',
    origin: 'live',
    provenance: { src_id: sourceId(url, hash), source_provider: 'sec', source_url: url, accession: null, quote: null, content_hash: hash, extracted_at: '2025-01-02T03:04:05.000Z' },
    data: { cik: '0000320193', ticker, market: 'US', name: `${ticker} Inc.`, listing_exchange: 'Nasdaq', reference_source: { source_url: url, content_hash: hash }, detail: null },
  };
}

/** What the handler saw, shared with the test. */
const seen = { applied: [] as string[], contexts: [] as string[], failTransiently: 0 };

@Controller()
class CompaniesHandler {
  @EventPattern([TOPICS.companies.name])
  async onCompanies(@Payload() batch: RecordBatch, @Ctx() ctx: KafkaBatchContext): Promise<void> {
    seen.contexts.push(`${ctx.topic}[${ctx.partition}]`);
    if (seen.failTransiently > 0) {
      seen.failTransiently -= 1;
      throw new Error('database unavailable');
    }
    if (batch.records.some((r) => r.envelope.key === 'symbol POISON:US')) throw new PermanentError('POISON is not a company');
    seen.applied.push(...batch.records.map((r) => r.envelope.key));
  }
}

@Module({ controllers: [CompaniesHandler] })
class CompaniesModule {}

let settings: KafkaSettings;
let producer: RecordProducer;
let worker: RunningWorker | undefined;

beforeAll(async () => {
  settings = { brokers: await kafkaBrokersForTests(), clientId: 'transport-int-spec', logLevel: 'nothing' };
  producer = new RecordProducer(settings);
  await producer.connect();
});

afterAll(async () => {
  await worker?.stop();
  await producer.disconnect();
});

describe('KafkaBatchTransport (Nest microservice)', () => {
  it('hands batches to @EventPattern handlers, dead-letters a PermanentError, retries other errors, and commits on stop', async () => {
    const namespace = `t${randomBytes(4).toString('hex')}`;
    const topic = namespacedTopic(TOPICS.companies, namespace);
    const groupId = uniqueGroupId('transport');
    seen.failTransiently = 2;
    worker = await startWorker(CompaniesModule, { settings, groupId, namespace, logger: quietLogger, retry: { initialMs: 20, maxMs: 50 } });
    expect(worker.runner.topics.map((t) => t.name)).toEqual([topic.name]);

    const good = ['AAA', 'BBB', 'CCC'].map(company);
    const poison = company('POISON');
    await producer.publish(topic, [...good, poison]);
    await expectEventually(() => expect([...seen.applied].sort()).toEqual(good.map((c) => c.key).sort()), { timeoutMs: 60_000 });
    await expectEventually(() => expect(worker!.runner.counters).toMatchObject({ processed: 3, dead_lettered: 1 }));
    expect(worker.runner.counters.retries).toBeGreaterThanOrEqual(2);
    expect(seen.contexts.every((c) => c.startsWith(`${topic.name}[`))).toBe(true);

    const dead = await readTopic(settings, topic.dlq, { count: 1, timeoutMs: 30_000 });
    expect(dead[0]!.headers['dlq-reason']).toBe('permanent: POISON is not a company');

    await worker.follow({ once: true, checkMs: 100 });
    await worker.stop();
    const lag = await consumerLag(settings, groupId, [topic]);
    expect(lag.reduce((n, p) => n + p.lag, 0)).toBe(0);
  });
});
