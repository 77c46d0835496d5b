// segments.main --follow on the real broker: the worker reads every 10-Q / 10-K of the filings
// topic (under its namespace) from the fixture EDGAR server and publishes segment@1 records and,
// from the same fetched bytes, the document's xbrl-facts@1 records.
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentHash, namespacedTopic, TOPICS, xbrlFactsKey, type SegmentRecordV1, type XbrlFactsRecordV1 } from '@app/contracts';
import { loadConfig } from '@app/config';
import { extractFacts } from '@app/edgar';
import { consumerLag, readTopic, type KafkaSettings } from '@app/messaging';
import { createLogger } from '@app/observability';
import { defaultFixturesDir, uniqueGroupId, type FixtureServer } from '@app/testing';
import { filingRecord, followEnv, publishFilings, startFollowInfra } from '../document-worker.int-helpers';
import { segmentsConfigSchema } from './segments.config';
import { startSegmentsFollow } from './segments-follow.runner';

jest.setTimeout(120_000);

const AAPL = '/Archives/edgar/data/320193/000032019325000057/aapl-20250329.htm';
const APPLE = { cik: '0000320193', company_name: 'Apple Inc.' };

describe('segments --follow (startWorker, fixture EDGAR server, real broker)', () => {
  let server: FixtureServer;
  let settings: KafkaSettings;
  beforeAll(async () => {
    ({ server, settings } = await startFollowInfra('segments-follow-int'));
  }, 600_000);
  afterAll(async () => {
    await server.close();
  });

  it('reads the 10-Q of the filings topic once for its segments and facts, skips other forms, and commits', async () => {
    const { namespace, filings } = await publishFilings(settings, 'test-segments', [
      filingRecord({ ...APPLE, accession: '0000320193-25-000057', form: '10-Q', filed_date: '2025-05-02', primary_document_url: `https://www.sec.gov${AAPL}` }),
      filingRecord({ ...APPLE, accession: '0000320193-25-000058', form: '8-K', primary_document_url: 'https://www.sec.gov/Archives/edgar/data/320193/000032019325000058/x8k.htm' }),
    ]);
    const groupId = uniqueGroupId('segments-follow');
    const config = loadConfig(segmentsConfigSchema, followEnv(server, settings, namespace, { SEGMENTS_GROUP_ID: groupId }));
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
    // Every concept of the document arrives, one record each, stamped with the filing and its day.
    const bytes = readFileSync(join(defaultFixturesDir(), 'xbrl', 'AAPL-aapl-20250329.htm'));
    const concepts = new Set(extractFacts(bytes).facts.map((f) => f.concept));
    const facts = (await readTopic(settings, namespacedTopic(TOPICS.xbrlFacts, namespace).name, { count: concepts.size, timeoutMs: 30_000 })).map((m) => JSON.parse(m.value!) as XbrlFactsRecordV1);
    expect(new Set(facts.map((r) => r.key))).toEqual(new Set([...concepts].map((concept) => xbrlFactsKey({ source: 'inline_xbrl', cik: APPLE.cik, accession: '0000320193-25-000057', concept }))));
    expect(facts.every((r) => r.correlation_id === 'run_int_segments' && r.provenance.content_hash === contentHash(bytes) && r.data.facts.every((f) => f.filed === '2025-05-02' && f.form === '10-Q'))).toBe(true);
    expect(server.requests.filter((r) => r.path.startsWith('/Archives/')).map((r) => r.path)).toEqual([AAPL]);
    expect((await consumerLag(settings, groupId, [filings])).every((p) => p.lag === 0)).toBe(true);
  });
});
