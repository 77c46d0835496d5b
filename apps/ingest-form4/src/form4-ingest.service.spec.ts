import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TOPICS, validateRecord, type FilingData, type Form4RecordV1, type RecordEnvelope, type RecordOrigin, type TopicDefinition } from '@app/contracts';
import { EdgarError, TICKER_MAP_EXCHANGE_PATH, type EdgarClient, type EdgarFetchResult } from '@app/edgar';
import { PermanentError, PublishGaveUpError } from '@app/messaging';
import { createLogger } from '@app/observability';
import { FIXTURE_ROUTES, defaultFixturesDir } from '@app/testing';
import { ingestForm4ConfigSchema, parseForm4FilingRef, type Form4FilingRef } from './ingest-form4.config';
import type { RecordPublisher } from './ingest-form4.providers';
import { form4CheckpointSchema, form4SelectionHash } from './form4.checkpoint';
import { Form4CoverageError, Form4IngestService, Form4IngestStoppedError } from './form4-ingest.service';

const FIXTURES = defaultFixturesDir();
const FETCHED_AT = '2025-08-02T12:00:00.000Z';

/** The fixture server's routes (FIXTURE_ROUTES, submissions/), read from disk: no sockets in unit tests. */
function stubEdgar(extra: Record<string, Buffer> = {}, failures: Record<string, number> = {}) {
  const requested: string[] = [];
  const failuresLeft = new Map(Object.entries(failures));
  const files = new Map(FIXTURE_ROUTES.map((r) => [r.path, r.file]));
  const get = (path: string): Promise<EdgarFetchResult> => {
    requested.push(path);
    const url = `https://www.sec.gov${path}`;
    const left = failuresLeft.get(path) ?? 0;
    if (left > 0) {
      failuresLeft.set(path, left - 1);
      return Promise.reject(new EdgarError('EDGAR_UNAVAILABLE', url, 503, `503 at ${url} after every retry`));
    }
    const submissions = /^\/submissions\/(CIK\d{10}\.json)$/.exec(path);
    const file = files.get(path) ?? (submissions ? `submissions/${submissions[1]}` : undefined);
    let bytes = extra[path];
    if (!bytes && file) {
      try {
        bytes = readFileSync(join(FIXTURES, file));
      } catch {
        bytes = undefined;
      }
    }
    return Promise.resolve(bytes ? { kind: 'ok', url, status: 200, bytes, fetchedAt: FETCHED_AT } : { kind: 'not_found', url, status: 404, fetchedAt: FETCHED_AT });
  };
  return { edgar: { getWww: get, getData: get } as unknown as EdgarClient, requested };
}

/** Each service gets a checkpoint file of its own unless the test names one: never the checkout's .run/. */
const CHECKPOINTS = mkdtempSync(join(tmpdir(), 'form4-checkpoints-'));
afterAll(() => rmSync(CHECKPOINTS, { recursive: true, force: true }));
let services = 0;

/** `brokerDownFrom`: from that publish on (1-based), the broker does not take records within the retry bound. */
function service(env: Record<string, string> = {}, extra: Record<string, Buffer> = {}, failures: Record<string, number> = {}, brokerDownFrom = Infinity) {
  const published: RecordEnvelope[] = [];
  let publishes = 0;
  const publisher: RecordPublisher = {
    publish: (topic: TopicDefinition, records: readonly RecordEnvelope[]) => {
      publishes += 1;
      if (publishes >= brokerDownFrom) return Promise.reject(new PublishGaveUpError(topic.name, records.length, 300_000, new Error('Connection error: connect ECONNREFUSED')));
      for (const r of records) {
        const v = validateRecord(topic, r);
        if (!v.ok) throw new Error(v.error);
      }
      published.push(...records);
      return Promise.resolve();
    },
  };
  const config = ingestForm4ConfigSchema.parse({ EDGAR_USER_AGENT: 'Test ops@test.example', LOG_LEVEL: 'silent', FORM4_CHECKPOINT: join(CHECKPOINTS, `${(services += 1)}.json`), ...env });
  const { edgar, requested } = stubEdgar(extra, failures);
  return { published, requested, svc: new Form4IngestService(config, edgar, publisher, TOPICS.form4, createLogger({ level: 'silent' })) };
}

const ref = (token: string): Form4FilingRef => parseForm4FilingRef(token)!;

/** Every fixture as an explicit reference; DKNG and BETR without a document: their .txt is read. */
const ALL_FIXTURES = [
  '1835856:0001493152-25-009612',
  '1883685:0001104659-25-025206',
  '1572616:0000950170-24-012830:ownership.xml',
  '789019:0001062993-24-016587:xslF345X05/form4.xml',
  '1321655:0001321655-24-000181:wk-form4_1727395357.xml',
  '933972:0000933972-25-990001:374WaterForm4.xml',
  '1640147:0001640147-22-990001:form4.snow.xml',
  '1512673:0001062993-23-020702:form4.xml',
  '1318605:0000899243-21-044060:/Archives/edgar/data/1318605/000089924321044060/doc4.xml',
].map(ref);

function filingRecordData(over: Partial<FilingData>): FilingData {
  return {
    accession: '0000899243-21-044060',
    cik: '0001318605',
    company_name: 'Tesla, Inc.',
    form: '4',
    filed_date: '2021-11-10',
    accepted_at: '2021-11-10T18:23:34.000Z',
    report_period: '2021-11-08',
    primary_document_url: 'https://www.sec.gov/Archives/edgar/data/1318605/000089924321044060/xslF345X03/doc4.xml',
    primary_doc_description: 'FORM 4 SUBMISSION',
    items: [],
    size: 67903,
    is_xbrl: false,
    is_inline_xbrl: false,
    is_amendment: false,
    amends_accession: null,
    act: null,
    file_number: null,
    film_number: null,
    source: 'submissions',
    ...over,
  };
}

describe('Form4IngestService', () => {
  it('publishes one valid form4@1 per explicit filing, XML or complete submission', async () => {
    const { svc, published } = service();
    const summary = await svc.execute({ filings: ALL_FIXTURES, runId: 'run_t' });
    expect(summary.counts).toMatchObject({ filings: 9, published: 9, failed: 0, not_found: 0, skipped: 0 });
    const records = published as Form4RecordV1[];
    expect(records.map((r) => r.key)).toEqual(ALL_FIXTURES.map((f) => f.accession));
    expect(records.map((r) => r.data.issuer.trading_symbol)).toEqual(['BETR', 'DKNG', 'GUTS', 'MSFT', 'PLTR', 'SCWO', 'SNOW', 'SQ', 'TSLA']);
    expect(records[0]!.data.source_url).toBe('https://www.sec.gov/Archives/edgar/data/1835856/0001493152-25-009612.txt');
    expect(records[3]!.data.source_url).toBe('https://www.sec.gov/Archives/edgar/data/789019/000106299324016587/form4.xml');
    expect(records.every((r) => r.correlation_id === 'run_t' && r.produced_by === 'ingest-form4')).toBe(true);
  });

  it('publishes identical record ids when the same filings are read again', async () => {
    const first = await service().svc.execute({ filings: ALL_FIXTURES, runId: 'run_1' });
    const second = await service().svc.execute({ filings: ALL_FIXTURES, runId: 'run_2' });
    expect(second.filings.map((f) => f.recordId)).toEqual(first.filings.map((f) => f.recordId));
  });

  it('falls back to the complete submission when the primary document is missing', async () => {
    const { svc, requested } = service();
    const summary = await svc.execute({ filings: [ref('1883685:0001104659-25-025206:xslF345X05/tm259698-1_4seq1.xml')] });
    expect(summary.filings[0]).toMatchObject({ status: 'published', url: 'https://www.sec.gov/Archives/edgar/data/1883685/0001104659-25-025206.txt', rows: 3 });
    expect(requested).toEqual(['/Archives/edgar/data/1883685/000110465925025206/tm259698-1_4seq1.xml', '/Archives/edgar/data/1883685/0001104659-25-025206.txt']);
  });

  it('counts a missing and an unparsable filing, and goes on with the others', async () => {
    const bad = '/Archives/edgar/data/789019/000106299324999999/form4.xml';
    const { svc, published } = service({}, { [bad]: Buffer.from('<html><body>not an ownership document</body></html>') });
    const summary = await svc.execute({ filings: [ref('789019:0001062993-24-000001:form4.xml'), ref(`789019:0001062993-24-999999:form4.xml`), ALL_FIXTURES[3]!] });
    expect(summary.filings.map((f) => f.status)).toEqual(['not_found', 'failed', 'published']);
    expect(summary.filings[1]!.error).toMatch(/not an ownership document/);
    expect(summary.counts).toMatchObject({ published: 1, failed: 1, not_found: 1 });
    expect(published).toHaveLength(1);
  });

  it("finds a covered issuer's Form 4s in its submissions JSON (ticker via the ticker map), raw XML without the xsl folder", async () => {
    const { svc, published, requested } = service({ FORM4_ISSUERS: 'MSFT', FORM4_FROM: '2024-09-13', FORM4_TO: '2024-09-13' });
    const summary = await svc.execute({ runId: 'run_t' });
    // Eight Form 4s were filed that day; only one of them is among the fixtures.
    expect(summary.counts).toMatchObject({ filings: 8, published: 1, not_found: 7, failed: 0 });
    expect(requested).toContain('/Archives/edgar/data/789019/000106299324016587/form4.xml');
    const msft = published[0] as Form4RecordV1;
    expect(msft.data).toMatchObject({ accession: '0001062993-24-016587', filed_date: '2024-09-13', accepted_at: '2024-09-13T22:05:04.000Z', issuer: { cik: '0000789019' } });
  });

  it('takes at most FORM4_LATEST filings per issuer, newest first', async () => {
    const { svc } = service({ FORM4_SUBMISSIONS: '789019', FORM4_LATEST: '3', FORM4_TO: '2024-09-13' });
    const summary = await svc.execute();
    expect(summary.filings.map((f) => f.accession)).toEqual(['0001062993-24-016594', '0001062993-24-016593', '0001062993-24-016592']);
  });

  it('skips a found Form 4 whose issuer is not covered', async () => {
    const { svc, published } = service({ FORM4_ISSUERS: '1318605', FORM4_SUBMISSIONS: '789019', FORM4_FROM: '2024-09-13', FORM4_TO: '2024-09-13' });
    const summary = await svc.execute();
    expect(summary.counts).toMatchObject({ published: 0, skipped: 1, not_found: 7 });
    expect(published).toHaveLength(0);
  });

  it('does not keep a failed ticker-map fetch: a later filing of the same service is checked again', async () => {
    const { svc, published } = service(
      { FORM4_ISSUERS: 'MSFT', FORM4_SUBMISSIONS: '789019', FORM4_FROM: '2024-09-13', FORM4_TO: '2024-09-13' },
      {},
      { [TICKER_MAP_EXCHANGE_PATH]: 1 },
    );
    const first = await svc.execute();
    expect(first.counts).toMatchObject({ published: 0, failed: 1, not_found: 7 });
    expect(first.filings.find((f) => f.status === 'failed')!.error).toMatch(/covered issuers unavailable: 503/);
    const second = await svc.execute();
    expect(second.counts).toMatchObject({ published: 1, failed: 0, not_found: 7 });
    expect(published).toHaveLength(1);
  });

  describe('a broker outage outlasting the retry bound', () => {
    it('stops with a summary and a checkpoint; the same command skips what was published, finishes and removes it', async () => {
      const FORM4_CHECKPOINT = join(CHECKPOINTS, 'resume.json');
      const down = service({ FORM4_CHECKPOINT }, {}, {}, 4);
      const stopped = await down.svc.execute({ filings: ALL_FIXTURES, runId: 'run_1' }).catch((e: unknown) => e);
      expect(stopped).toBeInstanceOf(Form4IngestStoppedError);
      const { summary, selected, checkpointPath } = stopped as Form4IngestStoppedError;
      expect(summary.counts).toMatchObject({ filings: 3, published: 3 });
      expect(summary.resumedFrom).toBe(0);
      expect(selected).toBe(9);
      expect((stopped as Error).message).toMatch(/^stopped with 3 Form 4 filings published \(3 in this run\), 6 of 9 not read yet: gave up publishing 1 records .*; checkpoint .*resume\.json: run the same command again to resume$/);
      const checkpoint = form4CheckpointSchema.parse(JSON.parse(readFileSync(checkpointPath, 'utf8')));
      expect(checkpoint.published).toEqual(ALL_FIXTURES.slice(0, 3).map((f) => f.accession));
      expect(checkpoint.records_published).toBe(3);

      // Still down: a second stop keeps the first run's accessions and adds its own.
      const stillDown = service({ FORM4_CHECKPOINT }, {}, {}, 2);
      const again = (await stillDown.svc.execute({ filings: ALL_FIXTURES, runId: 'run_2' }).catch((e: unknown) => e)) as Form4IngestStoppedError;
      expect(again.summary).toMatchObject({ resumedFrom: 3, counts: { published: 1 } });
      expect(form4CheckpointSchema.parse(JSON.parse(readFileSync(checkpointPath, 'utf8'))).published).toEqual(ALL_FIXTURES.slice(0, 4).map((f) => f.accession));

      const up = service({ FORM4_CHECKPOINT });
      const resumed = await up.svc.execute({ filings: ALL_FIXTURES, runId: 'run_3' });
      expect(resumed.resumedFrom).toBe(4);
      expect(resumed.counts).toMatchObject({ filings: 5, published: 5, failed: 0 });
      expect(up.published.map((r) => r.key)).toEqual(ALL_FIXTURES.slice(4).map((f) => f.accession));
      // Nothing of the first four filings was fetched again.
      expect(up.requested.filter((p) => ALL_FIXTURES.slice(0, 4).some((f) => p.startsWith(`/Archives/edgar/data/${Number(f.cik)}/`)))).toEqual([]);
      expect(up.requested).toHaveLength(5);
      expect(existsSync(checkpointPath)).toBe(false);
    });

    it('starts over when the checkpoint is of another selection', async () => {
      const FORM4_CHECKPOINT = join(CHECKPOINTS, 'other.json');
      await service({ FORM4_CHECKPOINT }, {}, {}, 3).svc.execute({ filings: ALL_FIXTURES }).catch((e: unknown) => e);
      expect(existsSync(FORM4_CHECKPOINT)).toBe(true);
      const other = service({ FORM4_CHECKPOINT });
      const summary = await other.svc.execute({ filings: ALL_FIXTURES.slice(0, 4) });
      expect(summary).toMatchObject({ resumedFrom: 0, counts: { published: 4 } });
      expect(existsSync(FORM4_CHECKPOINT)).toBe(false);
    });

    it('a live run (--live) does not resume a stopped backfill run of the same filings: it publishes every one as live', async () => {
      const FORM4_CHECKPOINT = join(CHECKPOINTS, 'origin.json');
      await service({ FORM4_CHECKPOINT }, {}, {}, 3).svc.execute({ filings: ALL_FIXTURES.slice(0, 4) }).catch((e: unknown) => e);
      expect(form4CheckpointSchema.parse(JSON.parse(readFileSync(FORM4_CHECKPOINT, 'utf8'))).published).toHaveLength(2);
      const live = service({ FORM4_CHECKPOINT });
      const summary = await live.svc.execute({ filings: ALL_FIXTURES.slice(0, 4), origin: 'live' });
      expect(summary).toMatchObject({ resumedFrom: 0, counts: { published: 4 } });
      expect(live.published.map((r) => r.origin)).toEqual(['live', 'live', 'live', 'live']);
    });

    it('keeps a failure that is not the broker a failure (no checkpoint)', async () => {
      const boom: RecordPublisher = { publish: () => Promise.reject(new Error('not a broker outage')) };
      const config = ingestForm4ConfigSchema.parse({ EDGAR_USER_AGENT: 'Test ops@test.example', LOG_LEVEL: 'silent', FORM4_CHECKPOINT: join(CHECKPOINTS, 'boom.json') });
      const failing = new Form4IngestService(config, stubEdgar().edgar, boom, TOPICS.form4, createLogger({ level: 'silent' }));
      await expect(failing.execute({ filings: ALL_FIXTURES.slice(0, 1) })).rejects.toThrow('not a broker outage');
      expect(existsSync(join(CHECKPOINTS, 'boom.json'))).toBe(false);
    });
  });

  describe('form4SelectionHash', () => {
    const config = (env: Record<string, string> = {}) => ingestForm4ConfigSchema.parse({ EDGAR_USER_AGENT: 'Test ops@test.example', ...env });
    const hash = (filings: Form4FilingRef[], env: Record<string, string> = {}, topic = 'edgar.form4.v1', origin: RecordOrigin = 'backfill') => {
      const c = config(env);
      return form4SelectionHash({ filings, discover: c.FORM4_SUBMISSIONS, topic, origin }, c);
    };

    it('is the same for the same command, and changes with anything that changes what is published', () => {
      const base = hash(ALL_FIXTURES, { FORM4_SUBMISSIONS: 'MSFT' });
      expect(hash(ALL_FIXTURES, { FORM4_SUBMISSIONS: 'msft' })).toBe(base);
      expect(hash(ALL_FIXTURES.slice(1), { FORM4_SUBMISSIONS: 'MSFT' })).not.toBe(base);
      expect(hash(ALL_FIXTURES, { FORM4_SUBMISSIONS: 'TSLA' })).not.toBe(base);
      expect(hash(ALL_FIXTURES, { FORM4_SUBMISSIONS: 'MSFT,TSLA' })).toBe(hash(ALL_FIXTURES, { FORM4_SUBMISSIONS: 'TSLA,MSFT' }));
      expect(hash(ALL_FIXTURES, { FORM4_SUBMISSIONS: 'MSFT', FORM4_ISSUERS: 'MSFT' })).not.toBe(base);
      expect(hash(ALL_FIXTURES, { FORM4_SUBMISSIONS: 'MSFT', FORM4_FROM: '2024-01-01' })).not.toBe(base);
      expect(hash(ALL_FIXTURES, { FORM4_SUBMISSIONS: 'MSFT', FORM4_TO: '2024-01-01' })).not.toBe(base);
      expect(hash(ALL_FIXTURES, { FORM4_SUBMISSIONS: 'MSFT', FORM4_LATEST: '21' })).not.toBe(base);
      expect(hash(ALL_FIXTURES, { FORM4_SUBMISSIONS: 'MSFT' }, 'test.form4')).not.toBe(base);
      expect(hash(ALL_FIXTURES, { FORM4_SUBMISSIONS: 'MSFT' }, 'edgar.form4.v1', 'live')).not.toBe(base);
      expect(hash([ref('789019:0001062993-24-016587')])).not.toBe(hash([ref('789019:0001062993-24-016587:form4.xml')]));
    });
  });

  describe('follow mode: one filing@1 record', () => {
    it('throws a transient error (retried, not dead-lettered) while the covered issuers cannot be resolved, then reads the filing', async () => {
      const { svc, published, requested } = service({ FORM4_ISSUERS: 'TSLA' }, {}, { [TICKER_MAP_EXCHANGE_PATH]: 1 });
      const record = filingRecordData({});
      const failed = svc.handleFilingRecord(record, 'live', 'run_f');
      await expect(failed).rejects.toThrow(Form4CoverageError);
      await expect(failed).rejects.not.toThrow(PermanentError);
      // The consumer runner retries the same record after a backoff: the ticker map is fetched again.
      expect(await svc.handleFilingRecord(record, 'live', 'run_f')).toMatchObject({ status: 'published' });
      expect(requested.filter((p) => p === TICKER_MAP_EXCHANGE_PATH)).toHaveLength(2);
      // Resolved once, kept: later records do not fetch it again.
      expect(await svc.handleFilingRecord(filingRecordData({ cik: '0000789019' }), 'live', 'run_f')).toBeNull();
      expect(requested.filter((p) => p === TICKER_MAP_EXCHANGE_PATH)).toHaveLength(2);
      expect(published).toHaveLength(1);
    });

    it('reads a Form 4 of a covered issuer, ignores other forms and issuers', async () => {
      const { svc, published } = service({ FORM4_ISSUERS: 'TSLA' });
      expect(await svc.handleFilingRecord(filingRecordData({ form: '10-K' }), 'live', 'run_f')).toBeNull();
      expect(await svc.handleFilingRecord(filingRecordData({ cik: '0000789019' }), 'live', 'run_f')).toBeNull();
      const outcome = await svc.handleFilingRecord(filingRecordData({}), 'live', 'run_f');
      expect(outcome).toMatchObject({ status: 'published', origin: 'filings_topic', rows: 31 });
      expect((published[0] as Form4RecordV1).data).toMatchObject({ filed_date: '2021-11-10', accepted_at: '2021-11-10T18:23:34.000Z' });
    });

    it('reads the complete submission when the filing record names only the index page', async () => {
      const { svc } = service();
      const outcome = await svc.handleFilingRecord(
        filingRecordData({ accession: '0001104659-25-025206', cik: '0001883685', primary_document_url: 'https://www.sec.gov/Archives/edgar/data/1883685/000110465925025206/0001104659-25-025206-index.htm' }),
        'live',
        'run_f',
      );
      expect(outcome).toMatchObject({ status: 'published', url: 'https://www.sec.gov/Archives/edgar/data/1883685/0001104659-25-025206.txt' });
    });

    it('throws PermanentError (dead letter) for a filing that is missing or unreadable', async () => {
      const bad = '/Archives/edgar/data/1318605/000089924321999999/doc4.xml';
      const { svc } = service({}, { [bad]: Buffer.from('<ownershipDocument><documentType>4</documentType></ownershipDocument>') });
      const missing = filingRecordData({ accession: '0000899243-21-000001', primary_document_url: 'https://www.sec.gov/Archives/edgar/data/1318605/000089924321000001/xslF345X03/doc4.xml' });
      await expect(svc.handleFilingRecord(missing, 'live', 'run_f')).rejects.toThrow(PermanentError);
      await expect(svc.handleFilingRecord(missing, 'live', 'run_f')).rejects.toThrow(/not found at .*doc4\.xml nor .*0000899243-21-000001\.txt/);
      await expect(
        svc.handleFilingRecord(filingRecordData({ accession: '0000899243-21-999999', primary_document_url: `https://www.sec.gov${bad}` }), 'live', 'run_f'),
      ).rejects.toThrow(/without issuer/);
    });
  });
});
