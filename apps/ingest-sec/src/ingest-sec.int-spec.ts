import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { TOPICS, type CompanyRecordV1, type RecordEnvelope } from '@app/contracts';
import { loadConfig } from '@app/config';
import { ConsumerRunner, consumerLag } from '@app/messaging';
import { createLogger } from '@app/observability';
import { expectEventually, kafkaBrokersForTests, startFixtureServer, uniqueGroupId, uniqueTopic, type FixtureServer } from '@app/testing';
import { ingestSecConfigSchema } from './ingest-sec.config';
import { IngestSecModule } from './ingest-sec.module';
import { IngestSecService } from './ingest-sec.service';

const UA = 'Filings Platform Tests ops@filings.example';

describe('ingest-sec -> Kafka (fixture EDGAR server, real broker)', () => {
  let server: FixtureServer;
  let brokers: string[];
  beforeAll(async () => {
    server = await startFixtureServer();
    brokers = await kafkaBrokersForTests();
  }, 600_000);
  afterAll(async () => { await server.close(); });

  it('publishes one company@1 per symbol, MSFT with detail and provenance, with the declared User-Agent', async () => {
    const topic = uniqueTopic(TOPICS.companies, 'ingest-sec');
    const config = loadConfig(ingestSecConfigSchema, {
      EDGAR_USER_AGENT: UA,
      EDGAR_WWW_BASE_URL: server.url,
      EDGAR_DATA_BASE_URL: server.url,
      KAFKA_BROKERS: brokers.join(','),
      SEC_COVERAGE: 'all',
      SEC_SUBMISSIONS: 'MSFT,MUR,TSLA,AAPL',
      LOG_LEVEL: 'silent',
    });
    const app = await NestFactory.createApplicationContext(
      IngestSecModule.forRoot({ config, topic, logger: createLogger({ level: 'silent' }) }),
      { logger: false },
    );
    let summary;
    try {
      summary = await app.get(IngestSecService).execute({ runId: 'run_int' });
    } finally {
      await app.close();
    }
    expect(summary).toMatchObject({ published: 9441, withDetail: 3, submissionsNotFound: 1, errors: 0 });

    // Every record is on the topic: the high watermarks of a fresh topic add up to the count.
    const settings = { brokers, clientId: 'ingest-sec-int', logLevel: 'nothing' as const };
    const groupId = uniqueGroupId('ingest-sec');
    const partitions = await consumerLag(settings, groupId, [topic]);
    expect(partitions.reduce((n, p) => n + Number(p.high), 0)).toBe(9441);

    // Read back until the records asserted below have arrived (MSFT and BRK-B are early rows).
    const seen = new Map<string, RecordEnvelope>();
    const consumer = new ConsumerRunner({
      settings,
      groupId,
      topics: [topic],
      fromBeginning: true,
      handle: async (batch) => {
        for (const { envelope } of batch.records) seen.set(envelope.key, envelope);
      },
    });
    await consumer.start();
    try {
      await expectEventually(() => expect(['MSFT:US', 'BRK-B:US'].filter((k) => seen.has(k))).toHaveLength(2), { timeoutMs: 60_000, intervalMs: 100 });
    } finally {
      await consumer.stop();
    }

    const msft = seen.get('MSFT:US') as CompanyRecordV1;
    expect(msft).toMatchObject({
      schema: 'company@1',
      produced_by: 'ingest-sec',
      correlation_id: 'run_int',
      provenance: {
        source_provider: 'sec',
        source_url: `${server.url}/submissions/CIK0000789019.json`,
        quote: '"name": "MICROSOFT CORP"',
        accession: null,
      },
      data: { cik: '0000789019', listing_exchange: 'Nasdaq', detail: { sec_name: 'MICROSOFT CORP', country: 'US', fiscal_year_end: '0630' } },
    });
    expect((seen.get('BRK-B:US') as CompanyRecordV1).data.detail).toBeNull();

    const edgarRequests = server.requests.filter((r) => r.path.startsWith('/files/') || r.path.startsWith('/submissions/'));
    expect(edgarRequests.length).toBeGreaterThanOrEqual(5);
    expect(edgarRequests.every((r) => r.userAgent === UA && r.acceptEncoding === 'gzip, deflate')).toBe(true);
  }, 120_000);
});
