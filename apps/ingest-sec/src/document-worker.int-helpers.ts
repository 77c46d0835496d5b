// Shared setup of the sections and segments `--follow` integration tests: filing@1 records on the
// filings topic of a fresh namespace, the fixture EDGAR server and the worker's environment.
import { randomBytes } from 'node:crypto';
import { namespacedTopic, recordId, TOPICS, type FilingData, type FilingRecordV1, type TopicDefinition } from '@app/contracts';
import { ensureTopics, RecordProducer, type KafkaSettings } from '@app/messaging';
import { kafkaBrokersForTests, startFixtureServer, type FixtureServer } from '@app/testing';

/** A filing@1 record as the filings ingestors publish it (fields the document workers do not read left empty). */
export function filingRecord(
  data: Pick<FilingData, 'accession' | 'cik' | 'company_name' | 'form' | 'primary_document_url'> & Partial<Pick<FilingData, 'filed_date' | 'report_period' | 'items' | 'source'>>,
): FilingRecordV1 {
  const full: FilingData = {
    filed_date: '2025-05-02',
    report_period: null,
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
    origin: 'live',
    provenance: { src_id: 'src_int', source_provider: 'sec', source_url: null, accession: full.accession, quote: null, content_hash: null, extracted_at: null },
    data: full,
  };
}

/** The fixture EDGAR server (the caller closes it) and the broker settings of the tests. */
export async function startFollowInfra(clientId: string): Promise<{ server: FixtureServer; settings: KafkaSettings }> {
  const server = await startFixtureServer();
  return { server, settings: { brokers: await kafkaBrokersForTests(), clientId, logLevel: 'nothing' } };
}

/** Publishes the records on the filings topic of a new namespace `<prefix>-<random>`. */
export async function publishFilings(settings: KafkaSettings, prefix: string, records: FilingRecordV1[]): Promise<{ namespace: string; filings: TopicDefinition }> {
  const namespace = `${prefix}-${randomBytes(4).toString('hex')}`;
  const filings = namespacedTopic(TOPICS.filings, namespace);
  await ensureTopics(settings, [filings]);
  const producer = new RecordProducer(settings);
  await producer.connect();
  try {
    await producer.publish(filings, records);
  } finally {
    await producer.disconnect();
  }
  return { namespace, filings };
}

/** The environment of a follow worker reading the fixture server and the broker under `namespace`. */
export function followEnv(server: FixtureServer, settings: KafkaSettings, namespace: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    EDGAR_USER_AGENT: 'Filings Platform Tests ops@filings.example',
    EDGAR_WWW_BASE_URL: server.url,
    EDGAR_DATA_BASE_URL: server.url,
    KAFKA_BROKERS: settings.brokers.join(','),
    KAFKA_TOPIC_NAMESPACE: namespace,
    LOG_LEVEL: 'silent',
    ...extra,
  };
}
