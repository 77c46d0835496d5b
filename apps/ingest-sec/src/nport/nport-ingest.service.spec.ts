import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TOPICS, validateRecord, type FilingData, type FundHoldingsRecordV1, type RecordEnvelope, type TopicDefinition } from '@app/contracts';
import type { EdgarClient, EdgarFetchResult } from '@app/edgar';
import { PermanentError, PublishGaveUpError } from '@app/messaging';
import { createLogger } from '@app/observability';
import type { RecordPublisher } from '../ingest.providers';
import { RunStoppedError } from '../run-stopped.error';
import { nportConfigSchema } from './nport.config';
import { NportIngestService } from './nport-ingest.service';

const FIXTURES = process.env.FIXTURES_DIR ?? resolve(__dirname, '../../../../../shared/fixtures');
const file = (f: string) => readFileSync(join(FIXTURES, f));

// ADX's submissions, reduced to the columns discovery reads: two NPORT-P filings and a 10-K-like one.
const submissions = JSON.stringify({
  cik: '2230',
  name: 'ADAMS DIVERSIFIED EQUITY FUND, INC.',
  filings: {
    recent: {
      accessionNumber: ['0000002230-23-990001', '0000002230-23-000010', '0000002230-23-000020'],
      form: ['NPORT-P', 'NPORT-P', 'N-CSRS'],
      reportDate: ['2023-06-30', '2023-03-31', '2023-06-30'],
      filingDate: ['2023-08-25', '2023-05-25', '2023-08-20'],
    },
  },
});

const ROUTES: Record<string, Buffer> = {
  '/files/company_tickers_exchange.json': file('tickers/company_tickers_exchange.json'),
  '/submissions/CIK0000002230.json': Buffer.from(submissions),
  '/Archives/edgar/data/2230/000000223023990001/primary_doc.xml': file('nport/ADX-CIK0000002230-primary_doc.xml'),
  '/Archives/edgar/data/822977/000082297723990001/primary_doc.xml': file('nport/GSTRUST-S000013795-NPORT_Sample_7.xml'),
  // A filing whose primary_doc.xml is not an N-PORT document (a real directory listing stands in).
  '/Archives/edgar/data/2230/000000223023990008/primary_doc.xml': file('feeds/0001213900-24-004875-index.json'),
};
const requested: string[] = [];

function stubEdgar(): EdgarClient {
  const get = (path: string): Promise<EdgarFetchResult> => {
    requested.push(path);
    const url = `https://www.sec.gov${path}`;
    const bytes = ROUTES[path];
    return Promise.resolve(bytes ? { kind: 'ok', url, status: 200, bytes, fetchedAt: '2025-08-02T12:00:00.000Z' } : { kind: 'not_found', url, status: 404, fetchedAt: '2025-08-02T12:00:00.000Z' });
  };
  return { getWww: get, getData: get } as unknown as EdgarClient;
}

function service(env: Record<string, string>, acceptedRecords = Infinity) {
  const published: RecordEnvelope[] = [];
  const publisher: RecordPublisher = {
    publish: (topic: TopicDefinition, records: readonly RecordEnvelope[]) => {
      if (published.length >= acceptedRecords) return Promise.reject(new PublishGaveUpError(topic.name, records.length, 300_000, new Error('ECONNREFUSED')));
      published.push(...records);
      return Promise.resolve();
    },
  };
  const config = nportConfigSchema.parse({ EDGAR_USER_AGENT: 'Test ops@test.example', LOG_LEVEL: 'silent', ...env });
  return { published, svc: new NportIngestService(config, stubEdgar(), publisher, TOPICS.fundHoldings, createLogger({ level: 'silent' })) };
}

describe('NportIngestService', () => {
  it('publishes each filing in chunks of at most 250 holdings, every record valid', async () => {
    const { svc, published } = service({ NPORT_FILINGS: '822977:0000822977-23-990001' });
    const summary = await svc.execute({ runId: 'run_t' });
    expect(summary.filings).toEqual([expect.objectContaining({ status: 'published', fundKey: 'S000013795', holdings: 1685, records: 7 })]);
    const records = published as FundHoldingsRecordV1[];
    expect(records.map((r) => [r.data.chunk.index, r.data.holdings.length])).toEqual([[0, 250], [1, 250], [2, 250], [3, 250], [4, 250], [5, 250], [6, 185]]);
    for (const r of records) expect(validateRecord(TOPICS.fundHoldings, r)).toMatchObject({ ok: true });
  });

  it("discovers a registrant's latest NPORT-P from its submissions JSON", async () => {
    const { svc, published } = service({ NPORT_DISCOVER: '2230' });
    const summary = await svc.execute({ runId: 'run_t' });
    expect(summary.filings).toEqual([expect.objectContaining({ accession: '0000002230-23-990001', status: 'published', fundKey: 'CIK0000002230', holdings: 95, records: 1 })]);
    expect((published[0] as FundHoldingsRecordV1).data.fund.fund_ticker).toBe('ADX');
  });

  it('reports a missing filing and goes on', async () => {
    const { svc } = service({ NPORT_FILINGS: '2230:0000002230-23-000001,2230:0000002230-23-990001' });
    const summary = await svc.execute({ runId: 'run_t' });
    expect(summary.filings.map((f) => f.status)).toEqual(['not_found', 'published']);
  });

  it('stops at a broker outage, saying which filings were published before it', async () => {
    // ADX (one record) is published; the outage comes at the second filing's third record.
    const { svc } = service({ NPORT_FILINGS: '2230:0000002230-23-990001,822977:0000822977-23-990001' }, 3);
    const error = (await svc.execute({ runId: 'run_t' }).catch((e: unknown) => e)) as RunStoppedError;
    expect(error).toBeInstanceOf(RunStoppedError);
    expect(error.message).toMatch(/^stopped after 1 of 2 filings done \(1 published\): gave up publishing 1 records/);
    expect(error.stop.done).toMatchObject({ runId: 'run_t', published: 1, not_found: 0, errors: 0, stopped_at: '0000822977:0000822977-23-990001', remaining: 1 });
  });

  describe('handleFilingRecord (--follow)', () => {
    const record = (accession: string, form: string) => ({ cik: '0000002230', accession, form }) as FilingData;

    it('reads NPORT-P and NPORT-P/A records, matching against a ticker map fetched once', async () => {
      requested.length = 0;
      const { svc, published } = service({});
      expect(await svc.handleFilingRecord(record('0000002230-23-990001', 'NPORT-P'), 'live', 'run_f')).toMatchObject({ status: 'published', fundKey: 'CIK0000002230', holdings: 95, records: 1 });
      expect(await svc.handleFilingRecord(record('0000002230-23-990001', 'NPORT-P/A'), 'live', 'run_f')).toMatchObject({ status: 'published' });
      expect(published).toHaveLength(2);
      expect(requested.filter((p) => p.startsWith('/files/'))).toEqual(['/files/company_tickers_exchange.json']);
    });

    it('ignores other forms without a request', async () => {
      requested.length = 0;
      const { svc, published } = service({});
      for (const form of ['10-K', 'N-CSRS', 'NPORT-EX', '13F-HR']) expect(await svc.handleFilingRecord(record('0000002230-23-000020', form), 'live', 'run_f')).toBeNull();
      expect([requested, published]).toEqual([[], []]);
    });

    it('throws PermanentError (dead letter) for a filing that is missing or not an N-PORT document', async () => {
      const { svc, published } = service({});
      await expect(svc.handleFilingRecord(record('0000002230-23-000001', 'NPORT-P'), 'live', 'run_f')).rejects.toThrow(new PermanentError('N-PORT 0000002230-23-000001: primary_doc.xml not found'));
      await expect(svc.handleFilingRecord(record('0000002230-23-990008', 'NPORT-P'), 'live', 'run_f')).rejects.toThrow(PermanentError);
      expect(published).toEqual([]);
    });

    it('lets a broker outage through as it is: the consumer retries the record', async () => {
      const { svc } = service({}, 0);
      const failed = svc.handleFilingRecord(record('0000002230-23-990001', 'NPORT-P'), 'live', 'run_f');
      await expect(failed).rejects.toThrow(PublishGaveUpError);
    });
  });
});
