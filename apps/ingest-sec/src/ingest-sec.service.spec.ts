import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TOPICS, validateRecord, type RecordEnvelope, type TopicDefinition } from '@app/contracts';
import { EdgarClient, RequestLimiter } from '@app/edgar';
import { createLogger } from '@app/observability';
import { startFixtureServer, type FixtureServer } from '@app/testing';
import type { CompanyRecordV1 } from '@app/contracts';
import { loadConfig } from '@app/config';
import { PublishGaveUpError } from '@app/messaging';
import { ingestSecConfigSchema } from './ingest-sec.config';
import { IngestSecService, IngestStoppedError, type RecordPublisher } from './ingest-sec.service';

const UA = 'Filings Platform Tests ops@filings.example';

class MemoryPublisher implements RecordPublisher {
  readonly records: CompanyRecordV1[] = [];
  /** The publish call (1-based) that gives up as on a broker outage; none by default. */
  failingCall = 0;
  private calls = 0;
  async publish(topic: TopicDefinition, records: readonly RecordEnvelope[]): Promise<void> {
    this.calls += 1;
    if (this.calls === this.failingCall) throw new PublishGaveUpError(topic.name, records.length, 1, new Error('broker unreachable'));
    for (const r of records) {
      const result = validateRecord(topic, r);
      if (!result.ok) throw new Error(result.error);
      this.records.push(r as CompanyRecordV1);
    }
  }
}

describe('IngestSecService against the fixture EDGAR server', () => {
  let server: FixtureServer;
  beforeAll(async () => { server = await startFixtureServer(); });
  afterAll(async () => { await server.close(); });

  function run(env: Record<string, string>, publisher = new MemoryPublisher()) {
    const config = loadConfig(ingestSecConfigSchema, {
      EDGAR_USER_AGENT: UA, EDGAR_WWW_BASE_URL: server.url, EDGAR_DATA_BASE_URL: server.url, EDGAR_THROTTLE_PAUSE_MS: '50', ...env,
    });
    const edgar = new EdgarClient({
      userAgent: config.EDGAR_USER_AGENT, wwwBaseUrl: config.EDGAR_WWW_BASE_URL, dataBaseUrl: config.EDGAR_DATA_BASE_URL,
      maxRps: 10, throttlePauseMs: config.EDGAR_THROTTLE_PAUSE_MS, backoffBaseMs: 5, budget: new RequestLimiter(10),
    });
    const service = new IngestSecService(config, edgar, publisher, TOPICS.companies, createLogger({ level: 'silent' }));
    return { publisher, execute: () => service.execute({ runId: 'run_spec' }) };
  }

  it('publishes every symbol of the exchange map, with detail for the covered list', async () => {
    const { publisher, execute } = run({ SEC_SUBMISSIONS: 'MSFT,MUR,TSLA,AAPL' });
    const summary = await execute();
    expect(summary).toMatchObject({ tickerMapRows: 9441, covered: 9441, published: 9441, withDetail: 3, submissionsNotFound: 1, errors: 0 });
    const byKey = new Map(publisher.records.map((r) => [r.key, r]));
    expect(byKey.get('MSFT:US')?.data.detail?.sec_name).toBe('MICROSOFT CORP');
    expect(byKey.get('MSFT:US')?.provenance.source_url).toBe(`${server.url}/submissions/CIK0000789019.json`);
    expect(byKey.get('AAPL:US')?.data.detail).toBeNull();
    expect(byKey.get('AAPL:US')?.provenance.source_url).toBe(`${server.url}/files/company_tickers_exchange.json`);
    expect(publisher.records.every((r) => r.correlation_id === 'run_spec')).toBe(true);
  });

  it('covers a list only, and fetches each CIK once', async () => {
    const before = server.requests.length;
    const { publisher, execute } = run({ SEC_COVERAGE: 'BRK-A,BRK-B,789019' });
    const summary = await execute();
    expect(summary).toMatchObject({ covered: 3, published: 3, withDetail: 1, submissionsNotFound: 2 });
    expect(publisher.records.map((r) => r.key).sort()).toEqual(['BRK-A:US', 'BRK-B:US', 'MSFT:US']);
    const paths = server.requests.slice(before).map((r) => r.path);
    expect(paths.filter((p) => p === '/submissions/CIK0001067983.json')).toHaveLength(1);
    expect(server.requests.slice(before).every((r) => r.userAgent === UA)).toBe(true);
  });

  it('falls back to the plain map when the exchange map is missing, and rides out a 429', async () => {
    server.failNext('/files/company_tickers_exchange.json', 404);
    server.failNext('/files/company_tickers.json', 429);
    const { publisher, execute } = run({ SEC_COVERAGE: 'MSFT,TSLA' });
    const summary = await execute();
    expect(summary).toMatchObject({ tickerMapRows: 9610, covered: 2, withDetail: 2 });
    const msft = publisher.records.find((r) => r.key === 'MSFT:US')!;
    expect(msft.data.reference_source.source_url).toBe(`${server.url}/files/company_tickers.json`);
    expect(msft.data.listing_exchange).toBe('Nasdaq');
  });

  it('skips (does not blank) a company whose submissions keep failing', async () => {
    server.failNext('/submissions/CIK0000789019.json', 503, 10);
    const { publisher, execute } = run({ SEC_COVERAGE: 'MSFT,MUR' });
    const summary = await execute();
    expect(summary).toMatchObject({ covered: 2, published: 1, withDetail: 1, errors: 1 });
    expect(publisher.records.map((r) => r.key)).toEqual(['MUR:US']);
  });

  it('resumes from a checkpoint of the same selection only: other companies or other detail start over', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ingest-sec-checkpoint-'));
    try {
      const SEC_CHECKPOINT = join(dir, 'companies.json');
      const stopOnSecondPublish = (): MemoryPublisher => Object.assign(new MemoryPublisher(), { failingCall: 2 });
      const stopped = await run({ SEC_CHECKPOINT }, stopOnSecondPublish()).execute().catch((e: unknown) => e);
      expect(stopped).toBeInstanceOf(IngestStoppedError);
      expect((stopped as IngestStoppedError).summary.published).toBe(200);
      expect((stopped as IngestStoppedError).message).toMatch(new RegExp(`^stopped after 200 of ${(stopped as IngestStoppedError).summary.covered} companies done \\(200 published in this run\\)`));

      const otherDetail = await run({ SEC_CHECKPOINT, SEC_SUBMISSIONS: 'MSFT' }, stopOnSecondPublish()).execute().catch((e: unknown) => e);
      expect((otherDetail as IngestStoppedError).summary.resumedFrom).toBe(0);
      // Another list of the same kind (a Set of tickers, which plain JSON writes as {}) is another selection too.
      const otherList = await run({ SEC_CHECKPOINT, SEC_SUBMISSIONS: 'AAPL' }, stopOnSecondPublish()).execute().catch((e: unknown) => e);
      expect((otherList as IngestStoppedError).summary.resumedFrom).toBe(0);
      await run({ SEC_CHECKPOINT, SEC_SUBMISSIONS: 'MSFT' }, stopOnSecondPublish()).execute().catch((e: unknown) => e);

      // A checkpoint written before selections were recorded (no selection_hash) starts over, it does not fail.
      const older = JSON.parse(readFileSync(SEC_CHECKPOINT, 'utf8')) as Record<string, unknown>;
      delete older.selection_hash;
      writeFileSync(SEC_CHECKPOINT, JSON.stringify(older));
      const fromOlder = await run({ SEC_CHECKPOINT, SEC_SUBMISSIONS: 'MSFT' }, stopOnSecondPublish()).execute().catch((e: unknown) => e);
      expect((fromOlder as IngestStoppedError).summary.resumedFrom).toBe(0);

      const resumed = await run({ SEC_CHECKPOINT, SEC_SUBMISSIONS: 'MSFT' }).execute();
      expect(resumed).toMatchObject({ resumedFrom: 200, published: 9441 - 200 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
