import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { namespacedTopic, TOPICS, validateRecord, type XbrlFactsRecordV1 } from '@app/contracts';
import { EdgarClient, RequestLimiter } from '@app/edgar';
import { ensureTopics, KafkaRecordPublisher, readTopic, type KafkaSettings } from '@app/messaging';
import { createLogger } from '@app/observability';
import { COMPANY_FACTS_PATH, companyFactsConcepts, defaultFixturesDir, kafkaBrokersForTests, startFixtureServer, swcRegisterScript, uniqueTopic, type FixtureServer } from '@app/testing';
import { parseFactsArgs } from './facts.config';
import { CompanyFactsService, factsRunSucceeded } from './facts.service';

const UA = 'Filings Platform tests ops@filings.example';
const ROOT = resolve(__dirname, '../../../..');
const logger = createLogger({ level: 'silent' });

const conceptsIn = (file: string) => companyFactsConcepts(readFileSync(file));

const recordsOf = (messages: { value: string | null }[]) => messages.map((m) => JSON.parse(m.value!) as XbrlFactsRecordV1);

let kafka: KafkaSettings;
let fixtures: FixtureServer;

beforeAll(async () => {
  kafka = { brokers: await kafkaBrokersForTests(), clientId: 'facts-int', logLevel: 'warn' };
  fixtures = await startFixtureServer();
});

afterAll(async () => {
  await fixtures?.close();
});

describe('ingest-sec facts', () => {
  it('publishes one record per concept of each company on a real broker, reports a 404 and an unknown symbol, as backfill in the budget', async () => {
    const topic = uniqueTopic(TOPICS.xbrlFacts, 'facts');
    await ensureTopics(kafka, [topic]);
    const budget = new RequestLimiter(10);
    const edgar = new EdgarClient({ userAgent: UA, wwwBaseUrl: fixtures.url, dataBaseUrl: fixtures.url, maxRps: 10, budget, maxAttempts: 1 });
    const publisher = new KafkaRecordPublisher({ brokers: kafka.brokers, clientId: 'facts-int' });
    const command = parseFactsArgs(['--symbols', 'AAPL:US,GOOGL,SNOW:US,NOPE:US', '--cik', '1997711,1', '--cik', '0000320193']);
    if (!('companies' in command)) throw new Error(JSON.stringify(command));
    let summary;
    try {
      summary = await new CompanyFactsService(edgar, publisher, topic, logger).execute(command);
    } finally {
      await publisher.close();
    }
    const xbrl = join(defaultFixturesDir(), 'xbrl');
    const expected = {
      '0000320193': conceptsIn(join(xbrl, 'AAPL-companyfacts-CIK0000320193.json')),
      '0001652044': conceptsIn(join(xbrl, 'GOOGL-companyfacts-CIK0001652044.json')),
      '0001640147': conceptsIn(join(xbrl, 'SNOW-companyfacts-CIK0001640147.json')),
      '0001997711': conceptsIn(join(xbrl, 'LPA-companyfacts-CIK0001997711.json')),
    };
    expect(summary.companies.map((c) => [c.asked, c.cik, c.status, c.records_published])).toEqual([
      ['AAPL:US', '0000320193', 'ok', expected['0000320193'].length],
      ['GOOGL', '0001652044', 'ok', expected['0001652044'].length],
      ['SNOW:US', '0001640147', 'ok', expected['0001640147'].length],
      ['NOPE:US', null, 'unknown_symbol', 0],
      ['1997711', '0001997711', 'ok', expected['0001997711'].length],
      ['1', '0000000001', 'not_found', 0],
      ['0000320193', '0000320193', 'duplicate', 0],
    ]);
    expect(summary).toMatchObject({ companies_asked: 7, companies_published: 4, companies_not_found: 1, companies_failed: 1 });
    expect(factsRunSucceeded(summary)).toBe(false);
    const total = Object.values(expected).reduce((n, c) => n + c.length, 0);
    expect(summary.records_published).toBe(total);

    const records = recordsOf(await readTopic(kafka, topic.name, { count: total + 1, timeoutMs: 10_000 }));
    expect(records).toHaveLength(total);
    for (const r of records) expect(validateRecord(topic, r)).toMatchObject({ ok: true });
    for (const [cik, concepts] of Object.entries(expected)) {
      expect(records.filter((r) => r.data.cik === cik).map((r) => r.key).sort()).toEqual(concepts.map((c) => `${cik}|${c}`).sort());
    }
    expect(records.find((r) => r.data.cik === '0000320193')!.provenance.source_url).toBe(`${fixtures.url}${COMPANY_FACTS_PATH}CIK0000320193.json`);
    // The ticker map and five company-facts files, each asked for as history (the live poll and the followers go first).
    expect(budget.stats.grants).toEqual({ discovery: 0, documents: 0, backfill: 6 });
    expect(fixtures.requests.filter((r) => r.path.startsWith(COMPANY_FACTS_PATH)).every((r) => r.userAgent === UA)).toBe(true);
  });

  it("the sample's command line (scripts/run.sh) loads GOOGL, SNOW, AAPL and LPA from the bundled sample, exit 0", async () => {
    // The very arguments scripts/run.sh gives: a change there is tested here.
    const line = /run_ingest ingest-facts node dist\/apps\/ingest-sec\/src\/facts\.main\.js (.+)\n/.exec(readFileSync(join(ROOT, 'scripts/run.sh'), 'utf8'));
    expect(line).not.toBeNull();
    const args = line![1]!.trim().split(/\s+/);
    const sample = await startFixtureServer({ fixturesDir: join(ROOT, 'sample/fixtures') });
    const dir = mkdtempSync(join(tmpdir(), 'facts-main-'));
    const namespace = `t${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    try {
      const register = join(dir, 'register.js');
      writeFileSync(register, swcRegisterScript(ROOT));
      const child = spawn(process.execPath, ['-r', register, join(ROOT, 'apps/ingest-sec/src/facts.main.ts'), ...args], {
        env: {
          ...process.env,
          EDGAR_USER_AGENT: UA,
          EDGAR_WWW_BASE_URL: sample.url,
          EDGAR_DATA_BASE_URL: sample.url,
          KAFKA_BROKERS: kafka.brokers.join(','),
          KAFKA_TOPIC_NAMESPACE: namespace,
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const code = await new Promise<number | null>((done) => child.on('exit', done));
      expect({ code, err }).toEqual({ code: 0, err: '' });
      const summary = JSON.parse(out) as { companies: { asked: string; status: string; records_published: number }[]; records_published: number };
      expect(summary.companies.map((c) => [c.asked, c.status])).toEqual([
        ['GOOGL:US', 'ok'],
        ['SNOW:US', 'ok'],
        ['AAPL:US', 'ok'],
        ['1997711', 'ok'],
      ]);
      const topic = namespacedTopic(TOPICS.xbrlFacts, namespace);
      const records = recordsOf(await readTopic(kafka, topic.name, { count: summary.records_published, timeoutMs: 20_000 }));
      expect(records).toHaveLength(summary.records_published);
      expect(new Set(records.map((r) => r.data.cik))).toEqual(new Set(['0001652044', '0001640147', '0000320193', '0001997711']));
    } finally {
      await sample.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
