import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contentHash, TOPICS, validateRecord, type TopicDefinition, type XbrlFactsRecordV1 } from '@app/contracts';
import { parseCompanyFacts, RequestLimiter } from '@app/edgar';
import { ensureTopics, KafkaRecordPublisher, readTopic, type KafkaSettings } from '@app/messaging';
import { createLogger } from '@app/observability';
import {
  COMPANY_FACTS_ZIP_PATH,
  companyFactsConcepts,
  fixtureCompanyFactsEntries,
  kafkaBrokersForTests,
  startFixtureServer,
  uniqueTopic,
  writeZip,
  type FixtureServer,
  type SubmissionsZipEntry,
} from '@app/testing';
import { companyFactsEntryUrl, companyFactsRecords } from '../facts/companyfacts.mapper';
import type { RecordPublisher } from '../ingest.providers';
import { companyFactsBulkCheckpointSchema, type CompanyFactsBulkCheckpoint } from './bulk.checkpoint';
import { bulkConfigSchema } from './bulk.config';
import { CompanyFactsBulkService, type CompanyFactsBulkCommand } from './companyfacts-bulk.service';

const UA = 'Filings Platform tests ops@filings.example';
const logger = createLogger({ level: 'silent' });

let dir: string;
let zipPath: string;
let zipUrl: string;
let entries: SubmissionsZipEntry[];
/** `<cik>|<concept>` of every concept with a report, over the four real files: what the load must publish, once each. */
let expectedKeys: string[];
let fixtures: FixtureServer;
let kafka: KafkaSettings;

function service(publisher: RecordPublisher, topic: TopicDefinition = TOPICS.xbrlFacts, env: Record<string, string> = {}): CompanyFactsBulkService {
  const config = bulkConfigSchema.parse({ EDGAR_USER_AGENT: UA, KAFKA_BROKERS: kafka.brokers.join(','), LOG_LEVEL: 'silent', ...env });
  return new CompanyFactsBulkService(config, publisher, topic, logger);
}

const run = (s: CompanyFactsBulkService, command: Partial<CompanyFactsBulkCommand> & { checkpointPath: string }) =>
  s.execute({ source: zipPath, budget: new RequestLimiter(10), ...command });

const checkpointAt = (path: string): CompanyFactsBulkCheckpoint => companyFactsBulkCheckpointSchema.parse(JSON.parse(readFileSync(path, 'utf8')));

async function publishedOn(topicName: string, atLeast: number): Promise<XbrlFactsRecordV1[]> {
  // One more than expected, within the wait: a record published twice would show.
  const messages = await readTopic(kafka, topicName, { count: atLeast + 1, timeoutMs: 10_000 });
  return messages.map((m) => JSON.parse(m.value!) as XbrlFactsRecordV1);
}

beforeAll(async () => {
  kafka = { brokers: await kafkaBrokersForTests(), clientId: 'facts-bulk-int', logLevel: 'warn' };
  dir = mkdtempSync(join(tmpdir(), 'facts-bulk-int-'));
  entries = fixtureCompanyFactsEntries();
  zipPath = join(dir, 'companyfacts.zip');
  await writeZip(zipPath, entries);
  fixtures = await startFixtureServer({ routes: [{ path: COMPANY_FACTS_ZIP_PATH, file: zipPath, contentType: 'application/zip' }] });
  zipUrl = `${fixtures.url}${COMPANY_FACTS_ZIP_PATH}`;
  expectedKeys = entries.flatMap((e) => companyFactsConcepts(e.bytes).map((c) => `${e.name.slice(3, 13)}|${c}`)).sort();
});

afterAll(async () => {
  await fixtures?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('facts-bulk: companyfacts.zip', () => {
  it('over HTTP ranges, stopped after two acknowledged batches and resumed: every concept of every company arrives on the broker once', async () => {
    expect(entries.map((e) => e.name)).toEqual(['CIK0000320193.json', 'CIK0001640147.json', 'CIK0001652044.json', 'CIK0001997711.json']);
    const topic = uniqueTopic(TOPICS.xbrlFacts, 'facts-bulk');
    await ensureTopics(kafka, [topic]);
    const checkpointPath = join(dir, 'resume', 'checkpoint.json');
    const env = { BULK_PUBLISH_BATCH: '300', BULK_HTTP_BLOCK_BYTES: String(256 * 1024) };
    const publisher = new KafkaRecordPublisher({ brokers: kafka.brokers, clientId: 'facts-bulk-int' });
    try {
      const stop = new AbortController();
      const stopped = await run(service(publisher, topic, env), {
        source: zipUrl,
        checkpointPath,
        signal: stop.signal,
        onCheckpoint: (c) => {
          if (c.entries_done >= 2) stop.abort();
        },
      });
      expect(stopped.status).toBe('stopped');
      const checkpoint = checkpointAt(checkpointPath);
      expect(checkpoint).toMatchObject({ kind: 'bulk-companyfacts', source: zipUrl, entries_total: 4, finished_at: null });
      expect(checkpoint.entries_done).toBeGreaterThanOrEqual(2);
      expect(checkpoint.entries_done).toBeLessThan(4);
      expect(checkpoint.records_published).toBe(stopped.records_published);
      expect(checkpoint.last_done).toBe(entries[checkpoint.entries_done - 1]!.name);

      const resumed = await run(service(publisher, topic, env), { source: zipUrl, checkpointPath });
      expect(resumed).toMatchObject({ status: 'finished', entries_total: 4, entries_done: 4, entries_skipped: checkpoint.entries_done, entries_read: 4 - checkpoint.entries_done, unreadable_entries: 0, concepts_too_large: [], companies_without_facts: 0 });
      expect(stopped.records_published + resumed.records_published).toBe(expectedKeys.length);
      expect(checkpointAt(checkpointPath)).toMatchObject({ entries_done: 4, records_published: expectedKeys.length, companies_published: 4, finished_at: expect.any(String) });
      // The finished archive is not read again.
      expect(await run(service(publisher, topic, env), { source: zipUrl, checkpointPath })).toMatchObject({ status: 'already_finished', entries_read: 0, records_published: 0 });
    } finally {
      await publisher.close();
    }

    const records = await publishedOn(topic.name, expectedKeys.length);
    expect(records.map((r) => r.key).sort()).toEqual(expectedKeys);
    for (const r of records) expect(validateRecord(topic, r)).toMatchObject({ ok: true });
    // Each company's records in one partition (by CIK), as the projector needs them in order.
    const messages = await readTopic(kafka, topic.name, { count: expectedKeys.length, timeoutMs: 10_000 });
    const partitions = new Map<string, Set<number>>();
    for (const m of messages) {
      const cik = m.key!.slice(0, 10);
      partitions.set(cik, (partitions.get(cik) ?? new Set()).add(m.partition));
    }
    expect([...partitions.values()].every((p) => p.size === 1)).toBe(true);
    // Range requests of the fixture server: a HEAD, then each block at most once, with the declared User-Agent.
    const zipRequests = fixtures.requests.filter((r) => r.path === COMPANY_FACTS_ZIP_PATH);
    expect(zipRequests.every((r) => r.userAgent === UA && (r.status === 206 || r.method === 'HEAD'))).toBe(true);
  });

  it("publishes the same records (ids and data) `ingest-sec facts` makes of the same files, citing each entry's data.sec.gov URL", async () => {
    const records: XbrlFactsRecordV1[] = [];
    const publisher: RecordPublisher = {
      publish: (topic, batch) => {
        for (const r of batch) {
          const v = validateRecord(topic, r);
          if (!v.ok) throw new Error(v.error);
        }
        records.push(...(batch as XbrlFactsRecordV1[]));
        return Promise.resolve();
      },
    };
    const summary = await run(service(publisher), { checkpointPath: join(dir, 'file', 'checkpoint.json') });
    expect(summary).toMatchObject({ status: 'finished', entries_read: 4, records_published: expectedKeys.length, companies_published: 4, http_requests: 0 });
    for (const entry of entries) {
      const url = companyFactsEntryUrl('https://data.sec.gov', entry.name);
      const source = { url, contentHash: contentHash(entry.bytes), fetchedAt: '2026-07-09T12:00:00.000Z' };
      const direct = companyFactsRecords(parseCompanyFacts(entry.bytes), source, { runId: 'run_x', origin: 'live', extractedAt: '2026-07-09T12:00:01.000Z' }).records;
      const fromZip = records.filter((r) => r.provenance.source_url === url);
      expect(fromZip.map((r) => [r.key, r.id, r.provenance.content_hash])).toEqual(direct.map((r) => [r.key, r.id, r.provenance.content_hash]));
    }
    expect(summary.facts_published).toBe(records.reduce((n, r) => n + r.data.facts.length, 0));
  });
});
