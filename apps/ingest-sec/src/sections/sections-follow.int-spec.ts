// sections.main --follow on the real broker: the worker reads the newest 10-K of each issuer among
// the filings topic's records (under its namespace) from the fixture EDGAR server and publishes
// tenk-section@1 records; amendments and other forms are not fetched.
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { namespacedTopic, recordId, TOPICS, type FilingData, type FilingRecordV1, type TenkSectionRecordV1 } from '@app/contracts';
import { loadConfig } from '@app/config';
import { consumerLag, ensureTopics, readTopic, RecordProducer, type KafkaSettings } from '@app/messaging';
import { createLogger } from '@app/observability';
import { kafkaBrokersForTests, startFixtureServer, uniqueGroupId, type FixtureServer } from '@app/testing';
import { sectionsConfigSchema } from './sections.config';
import { startSectionsFollow } from './sections.module';

jest.setTimeout(120_000);

const TSLA_10K = '/Archives/edgar/data/1318605/000162828025003063/tsla-20241231.htm';

/** A filing@1 record as the filings backfill publishes it for Tesla (fields it does not read left empty). */
function filingRecord(data: Pick<FilingData, 'accession' | 'form' | 'filed_date' | 'report_period' | 'primary_document_url'>): FilingRecordV1 {
  const full: FilingData = {
    cik: '0001318605',
    company_name: 'Tesla, Inc.',
    accepted_at: null,
    primary_doc_description: null,
    items: [],
    size: null,
    is_xbrl: null,
    is_inline_xbrl: null,
    is_amendment: data.form.endsWith('/A'),
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

describe('sections --follow (startWorker, fixture EDGAR server, real broker)', () => {
  let server: FixtureServer;
  let settings: KafkaSettings;
  beforeAll(async () => {
    server = await startFixtureServer();
    settings = { brokers: await kafkaBrokersForTests(), clientId: 'sections-follow-int', logLevel: 'nothing' };
  }, 600_000);
  afterAll(async () => {
    await server.close();
  });

  it('reads the 10-K of the filings topic with the filing\'s dates, skips an amendment and a 10-Q, and commits', async () => {
    const namespace = `test-sections-${randomBytes(4).toString('hex')}`;
    const filings = namespacedTopic(TOPICS.filings, namespace);
    await ensureTopics(settings, [filings]);
    const producer = new RecordProducer(settings);
    await producer.connect();
    try {
      await producer.publish(filings, [
        filingRecord({ accession: '0001628280-25-003063', form: '10-K', filed_date: '2025-01-30', report_period: '2024-12-31', primary_document_url: `https://www.sec.gov${TSLA_10K}` }),
        filingRecord({ accession: '0001564590-22-016871', form: '10-K/A', filed_date: '2022-05-02', report_period: '2021-12-31', primary_document_url: 'https://www.sec.gov/Archives/edgar/data/1318605/000156459022016871/tsla-10ka_20211231.htm' }),
        filingRecord({ accession: '0001628280-25-035806', form: '10-Q', filed_date: '2025-07-24', report_period: '2025-06-30', primary_document_url: 'https://www.sec.gov/Archives/edgar/data/1318605/000162828025035806/tsla-20250630.htm' }),
      ]);
    } finally {
      await producer.disconnect();
    }
    const groupId = uniqueGroupId('sections-follow');
    const config = loadConfig(sectionsConfigSchema, {
      EDGAR_USER_AGENT: 'Filings Platform Tests ops@filings.example',
      EDGAR_WWW_BASE_URL: server.url,
      EDGAR_DATA_BASE_URL: server.url,
      KAFKA_BROKERS: settings.brokers.join(','),
      KAFKA_TOPIC_NAMESPACE: namespace,
      SECTIONS_GROUP_ID: groupId,
      LOG_LEVEL: 'silent',
    });
    const worker = await startSectionsFollow(config, { logger: createLogger({ level: 'silent' }), runId: 'run_int_sections' });
    try {
      await worker.follow({ once: true, checkMs: 250 });
      expect(worker.runner.counters).toMatchObject({ processed: 3, dead_lettered: 0 });
    } finally {
      await worker.stop();
    }
    const messages = await readTopic(settings, namespacedTopic(TOPICS.tenkSections, namespace).name, { count: 3, timeoutMs: 30_000 });
    const records = messages.map((m) => JSON.parse(m.value!) as TenkSectionRecordV1).sort((a, b) => a.key.localeCompare(b.key));
    expect(records.map((r) => [r.key, r.data.status, r.data.filed_date, r.data.period_ended])).toEqual([
      ['0001628280-25-003063|1', 'extracted', '2025-01-30', '2024-12-31'],
      ['0001628280-25-003063|1A', 'extracted', '2025-01-30', '2024-12-31'],
      ['0001628280-25-003063|7', 'extracted', '2025-01-30', '2024-12-31'],
    ]);
    expect(records[0]!.data.description!.text).toMatch(/^We design, develop, manufacture, sell and lease high-performance fully electric vehicles/);
    expect(server.requests.filter((r) => r.path.startsWith('/Archives/')).map((r) => r.path)).toEqual([TSLA_10K]);
    expect((await consumerLag(settings, groupId, [filings])).every((p) => p.lag === 0)).toBe(true);
  });
});
