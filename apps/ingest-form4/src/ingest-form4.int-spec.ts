import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { TOPICS, namespacedTopic, recordId, type FilingData, type FilingRecordV1, type Form4RecordV1 } from '@app/contracts';
import { loadConfig } from '@app/config';
import { RecordProducer, ensureTopics, readTopic, type KafkaSettings } from '@app/messaging';
import { createLogger } from '@app/observability';
import { kafkaBrokersForTests, startFixtureServer, swcRegisterScript, uniqueGroupId, uniqueTopic, type FixtureServer } from '@app/testing';
import { ingestForm4ConfigSchema, parseForm4FilingRef, type Form4FilingRef } from './ingest-form4.config';
import { IngestForm4Module } from './ingest-form4.module';
import { Form4IngestService, type Form4IngestSummary } from './form4-ingest.service';
import { startForm4Follow } from './form4-follow.runner';

const UA = 'Filings Platform Tests ops@filings.example';
const ROOT = resolve(__dirname, '../../..');
const logger = createLogger({ level: 'silent' });

/** Fixture filings by explicit reference, as an operator would name them. */
const FILINGS: Form4FilingRef[] = [
  '1318605:0000899243-21-044060:xslF345X03/doc4.xml',
  '1835856:0001493152-25-009612',
  '1883685:0001104659-25-025206',
  '789019:0001062993-24-016587:xslF345X05/form4.xml',
  '1321655:0001321655-24-000181:wk-form4_1727395357.xml',
  '1572616:0000950170-24-012830:ownership.xml',
].map((token) => parseForm4FilingRef(token)!);

function filingRecord(data: Partial<FilingData> & Pick<FilingData, 'accession' | 'cik' | 'form' | 'primary_document_url'>): FilingRecordV1 {
  const full: FilingData = {
    company_name: 'Tesla, Inc.',
    filed_date: '2021-11-10',
    accepted_at: null,
    report_period: null,
    primary_doc_description: null,
    items: [],
    size: null,
    is_xbrl: null,
    is_inline_xbrl: null,
    is_amendment: false,
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

describe('ingest-form4 -> Kafka (fixture EDGAR server, real broker)', () => {
  let server: FixtureServer;
  let brokers: string[];
  let settings: KafkaSettings;
  beforeAll(async () => {
    server = await startFixtureServer();
    brokers = await kafkaBrokersForTests();
    settings = { brokers, clientId: 'ingest-form4-int', logLevel: 'nothing' };
  }, 600_000);
  afterAll(async () => {
    await server.close();
  });

  function config(env: Record<string, string> = {}) {
    return loadConfig(ingestForm4ConfigSchema, {
      EDGAR_USER_AGENT: UA,
      EDGAR_WWW_BASE_URL: server.url,
      EDGAR_DATA_BASE_URL: server.url,
      KAFKA_BROKERS: brokers.join(','),
      LOG_LEVEL: 'silent',
      ...env,
    });
  }

  async function run(topic: ReturnType<typeof uniqueTopic>, runId: string): Promise<Form4IngestSummary> {
    const app = await NestFactory.createApplicationContext(IngestForm4Module.forRoot({ config: config(), topic, logger }), { logger: false });
    try {
      return await app.get(Form4IngestService).execute({ filings: FILINGS, runId });
    } finally {
      await app.close();
    }
  }

  it('publishes one form4@1 per filing with issuer attribution; a second run publishes identical record ids', async () => {
    const topic = uniqueTopic(TOPICS.form4, 'ingest-form4');
    const first = await run(topic, 'run_int_1');
    expect(first.counts).toMatchObject({ filings: 6, published: 6, failed: 0, not_found: 0 });

    const messages = await readTopic(settings, topic.name, { count: 6, timeoutMs: 30_000 });
    expect(messages).toHaveLength(6);
    const byKey = new Map(messages.map((m) => [m.key, JSON.parse(m.value!) as Form4RecordV1]));
    expect([...byKey.keys()].sort()).toEqual(FILINGS.map((f) => f.accession).sort());

    const tsla = byKey.get('0000899243-21-044060')!;
    expect(tsla.data.rows.filter((r) => r.table === 'non_derivative' && r.kind === 'transaction')).toHaveLength(30);
    expect(tsla.data.issuer).toEqual({ cik: '0001318605', name: 'Tesla, Inc.', trading_symbol: 'TSLA' });
    expect(tsla.provenance).toMatchObject({ source_provider: 'sec', source_url: `${server.url}/Archives/edgar/data/1318605/000089924321044060/doc4.xml`, accession: '0000899243-21-044060' });

    const betr = byKey.get('0001493152-25-009612')!;
    expect(betr.data.reporting_owners).toHaveLength(8);
    expect(betr.data.issuer).toMatchObject({ cik: '0001835856', trading_symbol: 'BETR' });
    expect(betr.data.source_url).toBe(`${server.url}/Archives/edgar/data/1835856/0001493152-25-009612.txt`);

    // The same person (Peter Thiel, 0001211060) reports for two issuers: each filing is attributed to its own.
    const thiel = (r: Form4RecordV1) => r.data.reporting_owners.some((o) => o.cik === '0001211060');
    expect(thiel(byKey.get('0001321655-24-000181')!) && thiel(byKey.get('0000950170-24-012830')!)).toBe(true);
    expect(byKey.get('0001321655-24-000181')!.data.issuer.trading_symbol).toBe('PLTR');
    expect(byKey.get('0000950170-24-012830')!.data.issuer.trading_symbol).toBe('GUTS');

    const second = await run(topic, 'run_int_2');
    expect(second.counts.published).toBe(6);
    const all = await readTopic(settings, topic.name, { count: 12, timeoutMs: 30_000 });
    expect(all).toHaveLength(12);
    const idsByKey = new Map<string, Set<string>>();
    for (const m of all) {
      const r = JSON.parse(m.value!) as Form4RecordV1;
      (idsByKey.get(r.key) ?? idsByKey.set(r.key, new Set()).get(r.key)!).add(r.id);
    }
    expect([...idsByKey.values()].map((ids) => ids.size)).toEqual([1, 1, 1, 1, 1, 1]);

    const archive = server.requests.filter((r) => r.path.startsWith('/Archives/'));
    expect(archive.length).toBeGreaterThanOrEqual(12);
    expect(archive.every((r) => r.userAgent === UA)).toBe(true);
  });

  it('the command line: --filing ... --live publishes the named filing as live; without --live as backfill; --live with discovery is refused', async () => {
    const namespace = `test-form4-live-${randomBytes(4).toString('hex')}`;
    const dir = mkdtempSync(join(tmpdir(), 'form4-main-'));
    const register = join(dir, 'register.js');
    writeFileSync(register, swcRegisterScript(ROOT));
    // main.ts as an operator runs it (compiled on the fly), against the fixture server and the broker; nothing of the test's environment.
    const children = new Set<ChildProcess>();
    const main = (args: string[], env: Record<string, string> = {}) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
        const child = spawn(process.execPath, ['-r', register, join(ROOT, 'apps/ingest-form4/src/main.ts'), ...args], {
          cwd: dir,
          env: {
            PATH: process.env.PATH ?? '/usr/bin:/bin',
            EDGAR_USER_AGENT: UA,
            EDGAR_WWW_BASE_URL: server.url,
            EDGAR_DATA_BASE_URL: server.url,
            KAFKA_BROKERS: brokers.join(','),
            KAFKA_TOPIC_NAMESPACE: namespace,
            FORM4_CHECKPOINT: join(dir, 'checkpoint.json'),
            LOG_LEVEL: 'warn',
            ...env,
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        children.add(child);
        child.on('exit', (code) => {
          children.delete(child);
          done({ code, stdout, stderr });
        });
      });
    try {
      const live = await main(['--filing', '789019:0001062993-24-016587:xslF345X05/form4.xml', '--live']);
      expect({ code: live.code, stderr: live.stderr }).toEqual({ code: 0, stderr: '' });
      const history = await main(['--filing', '1321655:0001321655-24-000181:wk-form4_1727395357.xml']);
      expect({ code: history.code, stderr: history.stderr }).toEqual({ code: 0, stderr: '' });
      // FORM4_ISSUERS as a list makes the run read those issuers' submissions too: history, so --live is refused before anything is read.
      const refused = await main(['--filing', '1572616:0000950170-24-012830:ownership.xml', '--live'], { FORM4_ISSUERS: 'MSFT' });
      expect({ code: refused.code, stdout: refused.stdout }).toEqual({ code: 2, stdout: '' });
      expect(refused.stderr).toMatch(/^ingest-form4: --live announces named filings only, .*set FORM4_SUBMISSIONS=none\nusage:/);

      const messages = await readTopic(settings, namespacedTopic(TOPICS.form4, namespace).name, { count: 2, timeoutMs: 30_000 });
      const records = messages.map((m) => JSON.parse(m.value!) as Form4RecordV1).sort((a, b) => a.key.localeCompare(b.key));
      expect(records.map((r) => [r.key, r.origin])).toEqual([
        ['0001062993-24-016587', 'live'],
        ['0001321655-24-000181', 'backfill'],
      ]);
    } finally {
      // A run still going when the test gave up must not outlive it.
      for (const child of children) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('--follow --once: reads Form 4 filing records, ignores other forms, dead-letters an unreadable filing, then stops', async () => {
    // The worker consumes the registry's topics under KAFKA_TOPIC_NAMESPACE: a fresh one per run.
    const namespace = `test-form4-${randomBytes(4).toString('hex')}`;
    const filingsTopic = namespacedTopic(TOPICS.filings, namespace);
    const form4Topic = namespacedTopic(TOPICS.form4, namespace);
    await ensureTopics(settings, [filingsTopic]);
    const producer = new RecordProducer(settings);
    await producer.connect();
    try {
      await producer.publish(filingsTopic, [
        filingRecord({ accession: '0000899243-21-044060', cik: '0001318605', form: '4', primary_document_url: 'https://www.sec.gov/Archives/edgar/data/1318605/000089924321044060/xslF345X03/doc4.xml' }),
        filingRecord({ accession: '0001628280-25-035806', cik: '0001318605', form: '10-Q', primary_document_url: 'https://www.sec.gov/Archives/edgar/data/1318605/000162828025035806/tsla-20250630.htm' }),
        filingRecord({ accession: '0000899243-21-000001', cik: '0001318605', form: '4', primary_document_url: 'https://www.sec.gov/Archives/edgar/data/1318605/000089924321000001/xslF345X03/doc4.xml' }),
      ]);
    } finally {
      await producer.disconnect();
    }

    const follower = await startForm4Follow(
      config({ FORM4_ISSUERS: '1318605', KAFKA_TOPIC_NAMESPACE: namespace, FORM4_GROUP_ID: uniqueGroupId('ingest-form4') }),
      { logger, runId: 'run_int_follow' },
    );
    let summary;
    try {
      summary = await follower.follow({ once: true, checkMs: 250 });
    } finally {
      await follower.stop();
    }
    expect(summary).toMatchObject({ runId: 'run_int_follow', processed: 2, dead_lettered: 1, published: 1, ignored: 1 });

    const [tsla] = await readTopic(settings, form4Topic.name, { count: 1, timeoutMs: 30_000 });
    const record = JSON.parse(tsla!.value!) as Form4RecordV1;
    expect(record).toMatchObject({ key: '0000899243-21-044060', data: { filed_date: '2021-11-10', issuer: { cik: '0001318605' } } });

    const dead = await readTopic(settings, filingsTopic.dlq, { count: 1, timeoutMs: 30_000 });
    expect(dead).toHaveLength(1);
    expect(dead[0]!.key).toBe('0000899243-21-000001');
    expect(dead[0]!.headers['dlq-reason']).toMatch(/^permanent: Form 4 0000899243-21-000001: not found at /);
  });
});
