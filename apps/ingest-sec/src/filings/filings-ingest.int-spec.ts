import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TOPICS, validateRecord, type RecordEnvelope, type TopicDefinition } from '@app/contracts';
import { EdgarClient, RequestLimiter } from '@app/edgar';
import { createLogger } from '@app/observability';
import { defaultFixturesDir, startFixtureServer, type FixtureServer } from '@app/testing';
import type { RecordPublisher } from '../ingest.providers';
import { FilingsBackfillService } from './filings-backfill.service';
import { FilingsLiveService } from './filings-live.service';
import { parseFilingsArgs, parseFilingsConfig } from './filings.config';

const UA = 'Filings Platform tests ops@filings.example';
const logger = createLogger({ level: 'silent' });

class ArrayPublisher implements RecordPublisher {
  readonly records: RecordEnvelope[] = [];
  publish(topic: TopicDefinition, records: readonly RecordEnvelope[]): Promise<void> {
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

function config(coverage: string) {
  return parseFilingsConfig({
    EDGAR_USER_AGENT: UA,
    EDGAR_WWW_BASE_URL: fixtures.url,
    EDGAR_DATA_BASE_URL: fixtures.url,
    KAFKA_BROKERS: '127.0.0.1:1',
    SEC_COVERAGE: coverage,
    FILINGS_CURRENT_FORMS: '10-K,10-Q',
    LOG_LEVEL: 'silent',
  });
}

beforeAll(async () => {
  fixtures = await startFixtureServer();
  edgar = new EdgarClient({ userAgent: UA, wwwBaseUrl: fixtures.url, dataBaseUrl: fixtures.url, maxRps: 10, budget: new RequestLimiter(10), maxAttempts: 1 });
});

afterAll(async () => {
  await fixtures?.close();
});

describe('filings backfill', () => {
  it('publishes MSFT and TSLA filings of the range; fetches only overflow files whose span meets it (absent here: 404)', async () => {
    const publisher = new ArrayPublisher();
    const service = new FilingsBackfillService(edgar, publisher, TOPICS.filings, logger);
    const summary = await service.execute({ companies: ['MSFT', '1318605', 'NOPE'], from: '2019-01-01', to: '2025-12-31', runId: 'run_t' });
    expect(summary.companies).toEqual([
      // MSFT's overflow file 001 spans 2007-07-19..2019-01-30 (asked for, 404 here); 002 ends in 2007 (not asked for).
      { company: 'MSFT', cik: '0000789019', status: 'ok', published: 1010, overflowFetched: 0, overflowNotAvailable: 1 },
      { company: '1318605', cik: '0001318605', status: 'ok', published: 536, overflowFetched: 0, overflowNotAvailable: 0 },
      { company: 'NOPE', cik: null, status: 'unknown_ticker', published: 0, overflowFetched: 0, overflowNotAvailable: 0 },
    ]);
    expect(publisher.records).toHaveLength(1546);
    const tenK = publisher.records.find((r) => r.key === '0000950170-25-100235')!;
    expect(tenK.data).toMatchObject({ form: '10-K', filed_date: '2025-07-30', cik: '0000789019', source: 'submissions' });
    const bytes = readFileSync(join(defaultFixturesDir(), 'submissions', 'CIK0000789019.json'));
    expect(tenK.provenance.source_url).toBe(`${fixtures.url}/submissions/CIK0000789019.json`);
    expect(bytes.toString('utf8')).toContain(tenK.provenance.quote);
  });

  it('treats a listed overflow file that answers 404 as not available', async () => {
    const publisher = new ArrayPublisher();
    const summary = await new FilingsBackfillService(edgar, publisher, TOPICS.filings, logger).execute({ companies: ['MSFT'], from: '2018-01-01', to: '2018-12-31' });
    expect(summary.companies[0]).toMatchObject({ status: 'ok', published: 0, overflowFetched: 0, overflowNotAvailable: 1 });
    expect(fixtures.requests.some((r) => r.path === '/submissions/CIK0000789019-submissions-001.json' && r.status === 404)).toBe(true);
  });
});

describe('filings live', () => {
  it('publishes covered companies (and every N-PORT report) from the daily index once, and dedupes the next poll', async () => {
    const publisher = new ArrayPublisher();
    const live = new FilingsLiveService(config('MSFT,MUR'), edgar, publisher, TOPICS.filings, logger);
    const [first] = await live.run({ once: true, date: '2020-03-18' });
    // MSFT's and MUR's 3 filings, and the day's 30 NPORT-P and 1 NPORT-P/A of fund registrants no list names.
    expect(first).toMatchObject({ date: '2020-03-18', dailyIndex: 'ok', currentEvents: { '10-K': 'ok', '10-Q': 'ok' }, published: 34, duplicates: 0 });
    const data = publisher.records.map((r) => ({ key: r.key, ...(r.data as { cik: string; form: string }) }));
    expect(data.filter((d) => !d.form.startsWith('NPORT-P')).map((d) => `${d.cik} ${d.key}`).sort()).toEqual([
      '0000717423 0001127602-20-011298',
      '0000717423 0001127602-20-011300',
      '0000789019 0001626431-20-000031',
    ]);
    expect(data.filter((d) => d.form === 'NPORT-P')).toHaveLength(30);
    expect(data.filter((d) => d.form === 'NPORT-P/A').map((d) => d.cik)).toEqual(['0001356115']);
    const idx = readFileSync(join(defaultFixturesDir(), 'feeds', 'form.20200318.idx')).toString('latin1');
    for (const r of publisher.records) expect(idx).toContain(r.provenance.quote);
    const again = await live.poll({ date: '2020-03-18' });
    expect(again).toMatchObject({ published: 0, duplicates: 34 });
    expect(fixtures.requests.some((r) => r.path === '/cgi-bin/current')).toBe(true);
  });

  it('with coverage all publishes every accession of both feeds once; a day not yet indexed is not an error', async () => {
    const publisher = new ArrayPublisher();
    const live = new FilingsLiveService(config('all'), edgar, publisher, TOPICS.filings, logger);
    const summary = await live.poll({ date: '2020-03-18' });
    expect(summary).toMatchObject({ seen: 4084 + 48, published: 2689 });
    expect(new Set(publisher.records.map((r) => r.key)).size).toBe(2689);
    const next = await live.poll({ date: '2020-03-19' });
    expect(next).toMatchObject({ dailyIndex: 'not_published', published: 0 });
  });

  it("without a date reads today's and yesterday's daily index", async () => {
    const live = new FilingsLiveService(config('MSFT'), edgar, new ArrayPublisher(), TOPICS.filings, logger);
    const summary = await live.poll();
    expect(summary).toMatchObject({ dailyIndex: 'not_published', previousDailyIndex: 'not_published', published: 0 });
    const today = new Date().toISOString().slice(0, 10).replace(/-/g, '');
    expect(fixtures.requests.some((r) => r.path.endsWith(`/form.${today}.idx`))).toBe(true);
  });
});

describe('command line', () => {
  it('parses backfill and live', () => {
    expect(parseFilingsArgs(['backfill', '--companies', 'MSFT,TSLA', '--from', '2024-01-01', '--to', '2025-12-31'])).toEqual({ mode: 'backfill', companies: ['MSFT', 'TSLA'], from: '2024-01-01', to: '2025-12-31' });
    expect(parseFilingsArgs(['live', '--once'])).toEqual({ mode: 'live', once: true });
    expect(parseFilingsArgs(['backfill', '--from', '2025-01-01', '--to', '2024-01-01'])).toHaveProperty('error');
    expect(parseFilingsArgs(['nope'])).toHaveProperty('error');
  });
});

describe('EDGAR budget priorities', () => {
  it('the live poll asks the budget as discovery, the backfill as backfill, whatever the shared client says', async () => {
    const budget = new RequestLimiter(10);
    const client = new EdgarClient({ userAgent: UA, wwwBaseUrl: fixtures.url, dataBaseUrl: fixtures.url, maxRps: 10, budget, priority: 'documents', maxAttempts: 1 });
    await new FilingsLiveService(config('MSFT,TSLA'), client, new ArrayPublisher(), TOPICS.filings, logger).poll({ date: '2020-03-18' });
    const polled = { ...budget.stats.grants };
    expect(polled.discovery).toBeGreaterThan(0);
    expect(polled).toMatchObject({ documents: 0, backfill: 0 });
    await new FilingsBackfillService(client, new ArrayPublisher(), TOPICS.filings, logger).execute({ companies: ['1318605'], from: '2025-01-01', to: '2025-12-31' });
    expect(budget.stats.grants).toEqual({ discovery: polled.discovery, documents: 0, backfill: 1 });
  });
});
