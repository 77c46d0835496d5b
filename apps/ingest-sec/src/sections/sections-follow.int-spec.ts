// sections.main --follow on the real broker: the worker reads the newest 10-K of each issuer among
// the filings topic's records (under its namespace) from the fixture EDGAR server and publishes
// tenk-section@1 records; amendments and other forms are not fetched.
import 'reflect-metadata';
import { namespacedTopic, TOPICS, type TenkSectionRecordV1 } from '@app/contracts';
import { loadConfig } from '@app/config';
import { consumerLag, readTopic, type KafkaSettings } from '@app/messaging';
import { createLogger } from '@app/observability';
import { uniqueGroupId, type FixtureServer } from '@app/testing';
import { filingRecord, followEnv, publishFilings, startFollowInfra } from '../document-worker.int-helpers';
import { sectionsConfigSchema } from './sections.config';
import { startSectionsFollow } from './sections.module';

jest.setTimeout(120_000);

const TSLA_10K = '/Archives/edgar/data/1318605/000162828025003063/tsla-20241231.htm';
const TSLA = { cik: '0001318605', company_name: 'Tesla, Inc.' };

describe('sections --follow (startWorker, fixture EDGAR server, real broker)', () => {
  let server: FixtureServer;
  let settings: KafkaSettings;
  beforeAll(async () => {
    ({ server, settings } = await startFollowInfra('sections-follow-int'));
  }, 600_000);
  afterAll(async () => {
    await server.close();
  });

  it('reads the 10-K of the filings topic with the filing\'s dates, skips an amendment and a 10-Q, and commits', async () => {
    const { namespace, filings } = await publishFilings(settings, 'test-sections', [
      filingRecord({ ...TSLA, accession: '0001628280-25-003063', form: '10-K', filed_date: '2025-01-30', report_period: '2024-12-31', primary_document_url: `https://www.sec.gov${TSLA_10K}` }),
      filingRecord({ ...TSLA, accession: '0001564590-22-016871', form: '10-K/A', filed_date: '2022-05-02', report_period: '2021-12-31', primary_document_url: 'https://www.sec.gov/Archives/edgar/data/1318605/000156459022016871/tsla-10ka_20211231.htm' }),
      filingRecord({ ...TSLA, accession: '0001628280-25-035806', form: '10-Q', filed_date: '2025-07-24', report_period: '2025-06-30', primary_document_url: 'https://www.sec.gov/Archives/edgar/data/1318605/000162828025035806/tsla-20250630.htm' }),
    ]);
    const groupId = uniqueGroupId('sections-follow');
    const config = loadConfig(sectionsConfigSchema, followEnv(server, settings, namespace, { SECTIONS_GROUP_ID: groupId }));
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
