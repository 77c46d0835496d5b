// segments.main --follow on the real broker: the worker reads every 10-Q / 10-K of the filings
// topic (under its namespace) from the fixture EDGAR server and publishes segment@1 records.
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { namespacedTopic, recordId, TOPICS, type FilingData, type FilingRecordV1, type SegmentRecordV1 } from '@app/contracts';
import { loadConfig } from '@app/config';
import { consumerLag, ensureTopics, readTopic, RecordProducer, type KafkaSettings } from '@app/messaging';
import { createLogger } from '@app/observability';
import { kafkaBrokersForTests, startFixtureServer, uniqueGroupId, type FixtureServer } from '@app/testing';
import { segmentsConfigSchema } from './segments.config';
import { startSegmentsFollow } from './segments-follow.runner';

jest.setTimeout(120_000);

const AAPL = '/Archives/edgar/data/320193/000032019325000057/aapl-20250329.htm';

function filingRecord(data: Pick<FilingData, 'accession' | 'cik' | 'form' | 'primary_document_url'>): FilingRecordV1 {
  const full: FilingData = {
    company_name: 'Apple Inc.',
    filed_date: '2025-05-02',
    accepted_at: null,
    report_period: null,
    primary_doc_description: null,
    items: [],
    size: null,
    is_xbrl: null,
    is_inline_xbrl: null,
    is_amendment: false,
    amends_accession: null,
    act: null,
    file_number: null,
    film_number: null,
    source: 'submissions',
    ...data,
  };
  return {
    schema: 'filing@1',
    key: full.accession,
    id: recordId(full.accession, `sha256:${'0'.repeat(64)}`),
    observed_at: '2025-08-02T12:00:00.000Z',
    produced_by: 'ingest-sec',
    correlation_id: 'run_int',
    provenance: { src_id: 'src_int', source_provider: 'sec', source_url: null, accession: full.accession, quote: null, content_hash: null, extracted_at: null },
    data: full,
  };
}

describe('segments --follow (startWorker, fixture EDGAR server, real broker)', () => {
  let server: FixtureServer;
  let settings: KafkaSettings;
  beforeAll(async () => {
    server = await startFixtureServer();
    settings = { brokers: await kafkaBrokersForTests(), clientId: 'segments-follow-int', logLevel: 'nothing' };
  }, 600_000);
  afterAll(async () => {
    await server.close();
  });

  it('reads the 10-Q of the filings topic, skips other forms, and commits', async () => {
    const namespace = `test-segments-${randomBytes(4).toString('hex')}`;
    const filings = namespacedTopic(TOPICS.filings, namespace);
    await ensureTopics(settings, [filings]);
    const producer = new RecordProducer(settings);
    await producer.connect();
    try {
      await producer.publish(filings, [
        filingRecord({ accession: '0000320193-25-000057', cik: '0000320193', form: '10-Q', primary_document_url: `https://www.sec.gov${AAPL}` }),
        filingRecord({ accession: '0000320193-25-000058', cik: '0000320193', form: '8-K', primary_document_url: 'https://www.sec.gov/Archives/edgar/data/320193/000032019325000058/x8k.htm' }),
      ]);
    } finally {
      await producer.disconnect();
    }
    const groupId = uniqueGroupId('segments-follow');
    const config = loadConfig(segmentsConfigSchema, {
      EDGAR_USER_AGENT: 'Filings Platform Tests ops@filings.example',
      EDGAR_WWW_BASE_URL: server.url,
      EDGAR_DATA_BASE_URL: server.url,
      KAFKA_BROKERS: settings.brokers.join(','),
      KAFKA_TOPIC_NAMESPACE: namespace,
      SEGMENTS_GROUP_ID: groupId,
      LOG_LEVEL: 'silent',
    });
    const worker = await startSegmentsFollow(config, { logger: createLogger({ level: 'silent' }), runId: 'run_int_segments' });
    try {
      await worker.follow({ once: true, checkMs: 250 });
      expect(worker.runner.counters).toMatchObject({ processed: 2, dead_lettered: 0 });
    } finally {
      await worker.stop();
    }
    const segments = await readTopic(settings, namespacedTopic(TOPICS.segments, namespace).name, { count: 1, timeoutMs: 30_000 });
    const record = JSON.parse(segments[0]!.value!) as SegmentRecordV1;
    expect(record).toMatchObject({ schema: 'segment@1', correlation_id: 'run_int_segments' });
    expect(server.requests.filter((r) => r.path.startsWith('/Archives/')).map((r) => r.path)).toEqual([AAPL]);
    expect((await consumerLag(settings, groupId, [filings])).every((p) => p.lag === 0)).toBe(true);
  });
});
