import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TOPICS, validateRecord, type RecordEnvelope, type ThirteenFHoldingsRecordV1, type TopicDefinition } from '@app/contracts';
import { RequestLimiter } from '@app/edgar';
import { ensureTopics, KafkaRecordPublisher, PublishGaveUpError, readTopic, type KafkaSettings } from '@app/messaging';
import { createLogger } from '@app/observability';
import {
  kafkaBrokersForTests,
  startFixtureServer,
  thirteenFDatasetRowsFromFixtures,
  uniqueTopic,
  writeThirteenFDataset,
  type FixtureServer,
  type ThirteenFDatasetRows,
} from '@app/testing';
import type { RecordPublisher } from '../ingest.providers';
import { RunStoppedError } from '../run-stopped.error';
import { thirteenFDatasetCheckpointSchema } from './thirteenf-dataset.checkpoint';
import { thirteenFDatasetConfigSchema } from './thirteenf-dataset.config';
import { ThirteenFDatasetService, type ThirteenFDatasetCommand } from './thirteenf-dataset.service';

/*
 * No real Form 13F data-set zip is among the fixtures: the test writes one in the data set's layout
 * (seven TSV tables in a folder, SEC's columns) from the real LTS One (2023, dollars) and ACTIAM
 * (2021, thousands) filings' rows, plus a 13F-NT row, and loads it.
 */

const UA = 'Filings Platform tests ops@filings.example';
const logger = createLogger({ level: 'silent' });
const DATASET_PATH = '/files/structureddata/data/form-13f-data-sets/01oct2023-30nov2023_form13f.zip';
const SOURCE_URL = `https://www.sec.gov${DATASET_PATH}`;
const LTSONE = '0001894188-23-000007';
const ACTIAM = '0001619124-21-000002';
const NOTICE = '0000950123-23-011111';

/** Keeps what it is given, validated against the topic; gives up (as KafkaRecordPublisher does after an outage) from publish `acceptedPublishes + 1` on. */
class ArrayPublisher implements RecordPublisher {
  readonly records: ThirteenFHoldingsRecordV1[] = [];
  private publishes = 0;
  constructor(private readonly acceptedPublishes = Infinity) {}
  publish(topic: TopicDefinition, records: readonly RecordEnvelope[]): Promise<void> {
    this.publishes += 1;
    if (this.publishes > this.acceptedPublishes) return Promise.reject(new PublishGaveUpError(topic.name, records.length, 300_000, new Error('ECONNREFUSED')));
    for (const r of records) {
      const v = validateRecord(topic, r);
      if (!v.ok) throw new Error(v.error);
    }
    this.records.push(...(records as ThirteenFHoldingsRecordV1[]));
    return Promise.resolve();
  }
}

let dir: string;
let rows: ThirteenFDatasetRows;
let groupedZip: string;
let interleavedZip: string;
let fixtures: FixtureServer;

function service(publisher: RecordPublisher, topic: TopicDefinition = TOPICS.thirteenFHoldings, env: Record<string, string> = {}): ThirteenFDatasetService {
  const config = thirteenFDatasetConfigSchema.parse({ EDGAR_USER_AGENT: UA, KAFKA_BROKERS: '127.0.0.1:1', LOG_LEVEL: 'silent', ...env });
  return new ThirteenFDatasetService(config, publisher, topic, logger);
}

const run = (s: ThirteenFDatasetService, command: Partial<ThirteenFDatasetCommand> & { checkpointPath: string }) =>
  s.execute({ source: groupedZip, sourceUrl: SOURCE_URL, budget: new RequestLimiter(10), ...command });

/** The holdings published per accession, in filing order, and each filing's header. */
function byFiling(records: readonly ThirteenFHoldingsRecordV1[]) {
  const out = new Map<string, { records: ThirteenFHoldingsRecordV1[]; holdings: ThirteenFHoldingsRecordV1['data']['holdings'] }>();
  for (const r of [...records].sort((a, b) => a.data.chunk.index - b.data.chunk.index)) {
    const f = out.get(r.key) ?? { records: [], holdings: [] };
    f.records.push(r);
    f.holdings.push(...r.data.holdings);
    out.set(r.key, f);
  }
  return out;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), '13f-dataset-int-'));
  rows = thirteenFDatasetRowsFromFixtures(['LTSONE-0001894188-23-000007.txt', 'ACTIAM-0001619124-21-000002.txt']);
  rows.SUBMISSION.push({ ACCESSION_NUMBER: NOTICE, FILING_DATE: '14-NOV-2023', SUBMISSIONTYPE: '13F-NT', CIK: '315066', PERIODOFREPORT: '30-SEP-2023' });
  rows.COVERPAGE.push({ ACCESSION_NUMBER: NOTICE, REPORTCALENDARORQUARTER: '30-SEP-2023', ISAMENDMENT: 'N', FILINGMANAGER_NAME: 'A NOTICE FILER', REPORTTYPE: '13F NOTICE' });
  rows.OTHERMANAGER.push({ ACCESSION_NUMBER: NOTICE, OTHERMANAGER_SK: 1, CIK: '0001894188', FORM13FFILENUMBER: '028-22111', NAME: 'LTS One Management LP' });
  groupedZip = join(dir, '01oct2023-30nov2023_form13f.zip');
  await writeThirteenFDataset(groupedZip, rows, '01OCT2023-30NOV2023_form13f');
  // The same rows with the two filings' INFOTABLE lines alternating: what a file not grouped by accession would be.
  const lts = rows.INFOTABLE.filter((r) => r.ACCESSION_NUMBER === LTSONE);
  const act = rows.INFOTABLE.filter((r) => r.ACCESSION_NUMBER === ACTIAM);
  const mixed = lts.flatMap((r, i) => (act[i] ? [r, act[i]] : [r]));
  interleavedZip = join(dir, 'interleaved.zip');
  await writeThirteenFDataset(interleavedZip, { ...rows, INFOTABLE: mixed });
  fixtures = await startFixtureServer({ routes: [{ path: DATASET_PATH, file: groupedZip, contentType: 'application/zip' }] });
});

afterAll(async () => {
  await fixtures?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('13F data-set load', () => {
  it('publishes every filing of the data set on a real broker: holdings as filed, the unit per filing, the zip as source', async () => {
    const kafka: KafkaSettings = { brokers: await kafkaBrokersForTests(), clientId: '13f-dataset-int', logLevel: 'warn' };
    const topic = uniqueTopic(TOPICS.thirteenFHoldings, '13f-dataset');
    await ensureTopics(kafka, [topic]);
    const publisher = new KafkaRecordPublisher({ brokers: kafka.brokers, clientId: '13f-dataset-int' });
    let summary;
    try {
      summary = await run(service(publisher, topic), { checkpointPath: join(dir, 'kafka.json') });
    } finally {
      await publisher.close();
    }
    expect(summary).toMatchObject({ status: 'finished', filings_total: 3, filings_done: 3, records_published: 3, holdings_published: 19, infotable_rows: 19, infotable_grouped: true, peak_rows_held: 14, unreadable_filings: 0 });
    const messages = await readTopic(kafka, topic.name, { count: 3, timeoutMs: 30_000 });
    const records = messages.map((m) => {
      const v = validateRecord(topic, JSON.parse(m.value!));
      if (!v.ok) throw new Error(v.error);
      return JSON.parse(m.value!) as ThirteenFHoldingsRecordV1;
    });
    const filings = byFiling(records);
    expect([...filings.keys()].sort()).toEqual([NOTICE, ACTIAM, LTSONE].sort());

    const lts = filings.get(LTSONE)!;
    expect(lts.records[0]!.data).toMatchObject({
      source_url: SOURCE_URL,
      form: '13F-HR',
      filed_date: '2023-11-14',
      manager: { cik: '0001894188', name: 'LTS One Management LP', file_number: '028-22111' },
      period: '2023-09-30',
      quarter: '2023Q3',
      report_type: 'holdings',
      amendment: null,
      summary: { entry_total: 14, value_total: 454_926_000 },
      value_unit: { unit: 'dollars' },
      chunk: { index: 0, count: 1, holdings_total: 14 },
    });
    expect(lts.holdings.reduce((s, h) => s + h.value_usd, 0)).toBe(454_926_000);
    expect(lts.records[0]!.provenance).toMatchObject({ source_url: SOURCE_URL, accession: LTSONE, content_hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) });
    // The quote is the INFOTABLE line as written in the data set.
    expect(lts.holdings[0]!.quote.split('\t').slice(0, 5)).toEqual([LTSONE, '1', 'AMAZON COM INC', 'COM', '023135106']);

    // ACTIAM filed in 2021: thousands, value_usd scaled.
    const actiam = filings.get(ACTIAM)!;
    expect(actiam.records[0]!.data.value_unit.unit).toBe('thousands');
    expect(actiam.holdings.reduce((s, h) => s + h.value_filed, 0)).toBe(732_158);
    expect(actiam.holdings.find((h) => h.issuer === 'APPLE INC')).toMatchObject({ shares: 1_733_777, value_filed: 230_054, value_usd: 230_054_000 });

    // The notice: one record without holdings, naming the manager that reports for it.
    expect(filings.get(NOTICE)!.records[0]!.data).toMatchObject({ form: '13F-NT', report_type: 'notice', holdings: [], other_managers: [{ cik: '0001894188', name: 'LTS One Management LP', file_number: '028-22111' }] });
  });

  it('publishes a filing of 4,500 holdings to a real broker as five chunks of at most 1,000, each send under the broker\'s size limit', async () => {
    const kafka: KafkaSettings = { brokers: await kafkaBrokersForTests(), clientId: '13f-dataset-int', logLevel: 'warn' };
    const topic = uniqueTopic(TOPICS.thirteenFHoldings, '13f-dataset-big');
    await ensureTopics(kafka, [topic]);
    const lts = rows.INFOTABLE.filter((r) => r.ACCESSION_NUMBER === LTSONE);
    const big = join(dir, 'big.zip');
    await writeThirteenFDataset(big, {
      ...rows,
      SUBMISSION: rows.SUBMISSION.filter((r) => r.ACCESSION_NUMBER === LTSONE),
      INFOTABLE: Array.from({ length: 4500 }, (_, i) => ({ ...lts[i % lts.length]!, INFOTABLE_SK: i + 1 })),
    });
    // A broker that refused a send would fail the run within 5 s, not retry for minutes.
    const publisher = new KafkaRecordPublisher({ brokers: kafka.brokers, clientId: '13f-dataset-int', publishRetryMs: 5_000 });
    try {
      expect(await run(service(publisher, topic), { source: big, checkpointPath: join(dir, 'big.json') })).toMatchObject({ status: 'finished', records_published: 5, holdings_published: 4500 });
    } finally {
      await publisher.close();
    }
    const messages = await readTopic(kafka, topic.name, { count: 5, timeoutMs: 30_000 });
    // Together well over the broker's 1 MiB batch limit: one send of all five would be refused.
    expect(messages.reduce((n, m) => n + Buffer.byteLength(m.value!), 0)).toBeGreaterThan(1.2 * 1024 * 1024);
    const chunks = messages.map((m) => (JSON.parse(m.value!) as ThirteenFHoldingsRecordV1).data);
    expect(chunks.map((c) => [c.chunk.index, c.chunk.count, c.holdings.length]).sort()).toEqual([[0, 5, 1000], [1, 5, 1000], [2, 5, 1000], [3, 5, 1000], [4, 5, 500]]);
  });

  it('reads the zip from a URL by range requests, and loads a file whose filings interleave: the same records', async () => {
    const fromFile = new ArrayPublisher();
    await run(service(fromFile), { checkpointPath: join(dir, 'file.json') });
    const fromUrl = new ArrayPublisher();
    const url = await run(service(fromUrl, TOPICS.thirteenFHoldings, { BULK_HTTP_BLOCK_BYTES: '4096' }), { source: `${fixtures.url}${DATASET_PATH}`, checkpointPath: join(dir, 'url.json') });
    expect(url.http_requests).toBeGreaterThan(1);
    const interleaved = new ArrayPublisher();
    const mixed = await run(service(interleaved), { source: interleavedZip, checkpointPath: join(dir, 'mixed.json') });
    expect(mixed).toMatchObject({ status: 'finished', infotable_grouped: false, holdings_published: 19 });
    const ids = (p: ArrayPublisher) => p.records.map((r) => r.id).sort();
    expect(ids(fromFile)).toHaveLength(3);
    expect(ids(fromUrl)).toEqual(ids(fromFile));
    expect(ids(interleaved)).toEqual(ids(fromFile));
  });

  it('resumes after a broker outage from its checkpoint, and a finished data set is not read again', async () => {
    const checkpointPath = join(dir, 'resume.json');
    const first = new ArrayPublisher(1);
    // One filing per publish: the first is acknowledged, the second publish meets the outage.
    const s1 = service(first, TOPICS.thirteenFHoldings, { THIRTEENF_BULK_PUBLISH_BATCH: '1' });
    const error = await run(s1, { checkpointPath }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunStoppedError);
    expect((error as RunStoppedError).message).toMatch(/after 1 of 3 filings/);
    const cp = thirteenFDatasetCheckpointSchema.parse(JSON.parse(readFileSync(checkpointPath, 'utf8')));
    expect(cp).toMatchObject({ kind: 'bulk-13f-dataset', entries_total: 3, entries_done: 1, last_done: LTSONE, records_published: 1, finished_at: null });

    const second = new ArrayPublisher();
    const resumed = await run(service(second, TOPICS.thirteenFHoldings, { THIRTEENF_BULK_PUBLISH_BATCH: '1' }), { checkpointPath });
    expect(resumed).toMatchObject({ status: 'finished', filings_skipped: 1, filings_read: 2, filings_done: 3 });
    expect(second.records.map((r) => r.key)).toEqual([ACTIAM, NOTICE]);
    expect(thirteenFDatasetCheckpointSchema.parse(JSON.parse(readFileSync(checkpointPath, 'utf8')))).toMatchObject({ entries_done: 3, records_published: 3, holdings_published: 19, finished_at: expect.any(String) });

    const third = new ArrayPublisher();
    expect(await run(service(third), { checkpointPath })).toMatchObject({ status: 'already_finished', filings_read: 0 });
    expect(third.records).toHaveLength(0);
  });
});
