import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentHash, TOPICS, type FilingData, type RecordEnvelope, type TopicDefinition, type XbrlFactsRecordV1 } from '@app/contracts';
import { extractFacts, type EdgarClient, type EdgarFetchResult } from '@app/edgar';
import { PublishGaveUpError } from '@app/messaging';
import { createLogger } from '@app/observability';
import { defaultFixturesDir } from '@app/testing';
import type { RecordPublisher } from '../ingest.providers';
import { RunStoppedError } from '../run-stopped.error';
import { SegmentsService } from './segments.service';

const AAPL = '/Archives/edgar/data/320193/000032019325000057/aapl-20250329.htm';
const bytes = readFileSync(join(defaultFixturesDir(), 'xbrl', 'AAPL-aapl-20250329.htm'));

function setup(documents: Record<string, Buffer>, acceptedPublishes = Infinity) {
  const paths: string[] = [];
  const edgar = {
    getWww: (path: string): Promise<EdgarFetchResult> => {
      paths.push(path);
      const body = documents[path];
      const url = `https://www.sec.gov${path}`;
      return Promise.resolve(body ? { kind: 'ok', url, status: 200, bytes: body, fetchedAt: '2025-05-02T12:00:00.000Z' } : { kind: 'not_found', url, status: 404, fetchedAt: '2025-05-02T12:00:00.000Z' });
    },
  } as unknown as EdgarClient;
  const published: Array<{ topic: TopicDefinition; records: readonly RecordEnvelope[] }> = [];
  const publisher: RecordPublisher = {
    publish: (topic, records) =>
      published.length < acceptedPublishes
        ? Promise.resolve(void published.push({ topic, records }))
        : Promise.reject(new PublishGaveUpError(topic.name, records.length, 300_000, new Error('ECONNREFUSED'))),
  };
  const service = new SegmentsService(edgar, publisher, TOPICS.segments, TOPICS.xbrlFacts, createLogger({ level: 'silent' }));
  return { service, paths, published };
}

describe('SegmentsService', () => {
  it('fetches the primary document once, publishes its segment@1 and xbrl-facts@1 records; a 404 is counted and skipped', async () => {
    const { service, paths, published } = setup({ [AAPL]: bytes });
    const summary = await service.execute({
      runId: 'run_test',
      filings: [
        { cik: '320193', accession: '0000320193-25-000057', form: '10-Q', filedDate: '2025-05-02', document: `https://www.sec.gov${AAPL}` },
        { cik: '320193', accession: '0000320193-25-000099', form: '10-Q', filedDate: '2025-05-02', document: '/Archives/edgar/data/320193/000032019325000099/missing.htm' },
      ],
    });
    expect(paths).toEqual([AAPL, '/Archives/edgar/data/320193/000032019325000099/missing.htm']);
    const concepts = new Set(extractFacts(bytes).facts.map((f) => f.concept)).size;
    expect(summary).toMatchObject({ filings: 2, published: 64, factRecords: concepts, notFound: 1, unreadable: 0 });
    expect(published.map((p) => [p.topic.name, p.records.length])).toEqual([
      ['edgar.segments.v1', 64],
      ['edgar.xbrl-facts.v1', concepts],
    ]);
    expect(published[0]!.records.every((r) => r.schema === 'segment@1' && r.correlation_id === 'run_test')).toBe(true);
    const facts = published[1]!.records as XbrlFactsRecordV1[];
    expect(facts.every((r) => r.schema === 'xbrl-facts@1' && r.correlation_id === 'run_test' && r.data.facts.every((f) => f.filed === '2025-05-02'))).toBe(true);
    // Both from the same bytes.
    expect(new Set([...published[0]!.records, ...facts].map((r) => r.provenance.content_hash))).toEqual(new Set([contentHash(bytes)]));
  });

  it('publishes segments only when the filing day is unknown (a one-off --filing run)', async () => {
    const { service, published } = setup({ [AAPL]: bytes });
    const summary = await service.execute({ filings: [{ cik: '320193', accession: '0000320193-25-000057', form: '10-Q', filedDate: null, document: AAPL }] });
    expect(summary).toMatchObject({ published: 64, factRecords: 0 });
    expect(published.map((p) => p.topic.name)).toEqual(['edgar.segments.v1']);
  });

  it('stops at a broker outage, saying what was published before it', async () => {
    const { service } = setup({ [AAPL]: bytes, '/b.htm': bytes, '/c.htm': bytes }, 1);
    const filing = (accession: string, document: string) => ({ cik: '320193', accession, form: '10-Q', filedDate: null, document });
    const run = service.execute({ runId: 'run_test', filings: [filing('0000320193-25-000057', AAPL), filing('0000320193-25-000058', '/b.htm'), filing('0000320193-25-000059', '/c.htm')] });
    const error = (await run.catch((e: unknown) => e)) as RunStoppedError;
    expect(error).toBeInstanceOf(RunStoppedError);
    expect(error.message).toMatch(/^stopped after 1 of 3 filings done \(64 records published\): gave up publishing 64 records to edgar\.segments\.v1/);
    expect(error.stop.done).toMatchObject({ runId: 'run_test', filings: 3, published: 64, stoppedAt: '0000320193-25-000058' });
  });

  it('counts a document without inline XBRL as unreadable', async () => {
    const { service } = setup({ '/x.htm': Buffer.from('<html><body><table><tr><td>Net sales</td></tr></table></body></html>') });
    expect(await service.execute({ filings: [{ cik: '1', accession: '0000000001-25-000001', form: '10-Q', filedDate: null, document: '/x.htm' }] })).toMatchObject({ unreadable: 1, published: 0 });
  });

  it('takes 10-Q and 10-K filing records naming a primary document or (live rows) the index page, nothing else', () => {
    const record = (form: string, url: string | null) => ({ data: { cik: '0000320193', accession: '0000320193-25-000057', form, filed_date: '2025-05-02', primary_document_url: url } }) as unknown as RecordEnvelope<FilingData>;
    expect(SegmentsService.commandOf(record('10-Q', `https://www.sec.gov${AAPL}`))).toEqual({ cik: '0000320193', accession: '0000320193-25-000057', form: '10-Q', filedDate: '2025-05-02', document: `https://www.sec.gov${AAPL}` });
    expect(SegmentsService.commandOf(record('10-K/A', `https://www.sec.gov${AAPL}`))).not.toBeNull();
    expect(SegmentsService.commandOf(record('8-K', `https://www.sec.gov${AAPL}`))).toBeNull();
    expect(SegmentsService.commandOf(record('10-Q', null))).toBeNull();
    // The index page is resolved to the primary document when the filing is read (primary-document.resolver).
    expect(SegmentsService.commandOf(record('10-Q', 'https://www.sec.gov/Archives/edgar/data/320193/000032019325000057/0000320193-25-000057-index.htm'))).not.toBeNull();
  });
});
