// ingest-ir --follow on the real broker: company@1 records on the companies topic (under the test's
// namespace) name where each issuer's sites are; the follower finds and crawls the IR sites served by
// the fixture server at their own paths, publishes ir-site@1 outcomes, and compares with the
// hand-written registry configuration of scripts/run.sh crawling the same site.
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import {
  contentHash,
  namespacedTopic,
  recordId,
  stableStringify,
  TOPICS,
  validateRecord,
  type CompanyData,
  type IrSiteRecordV1,
  type IssuerDocumentRecordV1,
  type IssuerRosterRecordV1,
  type RecordEnvelope,
  type TopicDefinition,
} from '@app/contracts';
import { consumerLag, ensureTopics, readTopic, RecordProducer, topicDepths, type KafkaSettings } from '@app/messaging';
import { createLogger } from '@app/observability';
import { kafkaBrokersForTests, startFixtureServer, uniqueGroupId, type FixtureServer } from '@app/testing';
import { loadIngestIrConfig } from './ingest-ir.config';
import { IngestIrModule, startIrFollow } from './ingest-ir.module';
import { IngestIrService, type IrIngestSummary, type IrTopics } from './ingest-ir.service';
import { IrSitesFollower } from './ir-follow.service';

jest.setTimeout(180_000);

const UA = 'FilingsPlatformBot/1.0 (+ops@filings.example)';
const EXAMPLES = join(__dirname, '..', '..', '..', 'libs', 'contracts', 'src', 'examples');
/** MSFT's company record as ingest-sec made it from its submissions JSON (website and investorWebsite empty). */
const MSFT = JSON.parse(readFileSync(join(EXAMPLES, 'company@1.msft.json'), 'utf8')) as RecordEnvelope<CompanyData>;

/** A company record like MSFT's, for another issuer, whose submissions list these websites. */
function companyRecord(cik: string, ticker: string, name: string, sites: { investor_website?: string; website?: string }): RecordEnvelope<CompanyData> {
  const data: CompanyData = {
    ...MSFT.data,
    cik,
    ticker,
    name,
    detail: { ...MSFT.data.detail!, sec_name: name, tickers: [ticker], website: sites.website ?? null, investor_website: sites.investor_website ?? null },
  };
  const key = `${ticker}:US`;
  return { ...MSFT, key, id: recordId(key, contentHash(stableStringify(data))), data };
}

const topicsOf = (namespace: string): IrTopics => ({
  roster: namespacedTopic(TOPICS.issuerRoster, namespace),
  documents: namespacedTopic(TOPICS.issuerDocuments, namespace),
  descriptions: namespacedTopic(TOPICS.companyDescriptions, namespace),
  sites: namespacedTopic(TOPICS.irSites, namespace),
});

const parse = <T>(messages: Array<{ value: string | null }>) => messages.map((m) => JSON.parse(m.value!) as T);

describe('ingest-ir --follow (edgar.companies.v1 -> IR sites found and crawled, real broker)', () => {
  let server: FixtureServer;
  let settings: KafkaSettings;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ir-follow-'));
    // robots.txt of the (one) fixture host forbids /private/ only; the IR pages stay allowed.
    writeFileSync(join(dir, 'robots.txt'), 'User-agent: *\nDisallow: /private/\n');
    server = await startFixtureServer({
      routes: [
        { path: '/robots.txt', file: join(dir, 'robots.txt') },
        // BRAI's page as a homepage at a plain path: its links go to ir.braiin.com (another site here) and say no "Investors".
        { path: '/home.html', file: 'ir-pages/BRAI-investors.html' },
      ],
    });
    settings = { brokers: await kafkaBrokersForTests(), clientId: 'ir-follow-int', logLevel: 'nothing' };
  }, 600_000);
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds FRPH from its investor_website alone as the configured crawl does, and says why the others have none', async () => {
    const namespace = `test-ir-follow-${randomBytes(4).toString('hex')}`;
    const companies = namespacedTopic(TOPICS.companies, namespace);
    const tenkSections = namespacedTopic(TOPICS.tenkSections, namespace);
    const topics = topicsOf(namespace);
    await ensureTopics(settings, [companies, tenkSections, ...Object.values(topics)]);
    const producer = new RecordProducer(settings);
    await producer.connect();
    try {
      await producer.publish(companies, [
        companyRecord('0000844059', 'FRPH', 'FRP HOLDINGS, INC.', { investor_website: `${server.url}/investor-relations.html` }),
        MSFT,
        companyRecord('0009999003', 'PRVT', 'Private Pages Inc.', { website: `${server.url}/private/` }),
        companyRecord('0009999001', 'BRAI', 'Braiin Limited', { website: `${server.url}/home.html` }),
      ]);
      // Tesla's Item 1 names ir.tesla.com: kept for when Tesla's company record comes (it does not here,
      // so nothing is fetched from the internet).
      await producer.publish(tenkSections, [JSON.parse(readFileSync(join(EXAMPLES, 'tenk-section@1.tsla-item-1.json'), 'utf8')) as RecordEnvelope]);
    } finally {
      await producer.disconnect();
    }

    const groupId = uniqueGroupId('ir-follow');
    const config = loadIngestIrConfig(
      { IR_USER_AGENT: UA, IR_MAX_RPS_PER_HOST: '10', IR_ALLOW_PRIVATE_HOSTS: 'true', KAFKA_BROKERS: settings.brokers.join(','), KAFKA_TOPIC_NAMESPACE: namespace, IR_GROUP_ID: groupId, LOG_LEVEL: 'silent' },
      () => '',
    );
    const worker = await startIrFollow(config, { logger: createLogger({ level: 'silent' }), runId: 'run_int_ir_follow' });
    let recrawl: IrIngestSummary | null = null;
    let depthsBefore: Array<[string, number]> = [];
    let depthsAfter: Array<[string, number]> = [];
    try {
      await worker.follow({ once: true, checkMs: 250 });
      expect(worker.runner.counters).toMatchObject({ processed: 5, dead_lettered: 0 });
      // A day later every site is crawled again with conditional GETs: nothing changed, nothing is published.
      const names = Object.values(topics).map((t: TopicDefinition) => t.name);
      depthsBefore = (await topicDepths(settings, names)).map((d) => [d.topic, d.depth]);
      recrawl = await worker.app.get(IrSitesFollower).recrawlDue(Date.now() + 25 * 3_600_000);
      depthsAfter = (await topicDepths(settings, names)).map((d) => [d.topic, d.depth]);
    } finally {
      await worker.stop();
    }
    expect((await consumerLag(settings, groupId, [companies, tenkSections])).every((p) => p.lag === 0)).toBe(true);
    // (Companies arrive from three partitions, in no fixed order: sorted by CIK.)
    expect(recrawl!.sites.map((s) => [s.cik, s.status, s.site]).sort()).toEqual([
      ['0000789019', 'none', 'no_website'],
      ['0000844059', 'unchanged', 'found'],
      ['0009999001', 'none', 'no_ir_page'],
      ['0009999003', 'failed', 'robots_disallowed'],
    ]);
    expect(depthsAfter).toEqual(depthsBefore);

    const sites = parse<IrSiteRecordV1>(await readTopic(settings, topics.sites.name, { count: 4, timeoutMs: 30_000 }));
    for (const s of sites) expect(validateRecord(topics.sites, s)).toMatchObject({ ok: true });
    const byCik = Object.fromEntries(sites.map((s) => [s.key, s]));
    expect(byCik['0000844059']!.data).toMatchObject({
      status: 'found',
      source: 'investor_website',
      landing_url: `${server.url}/investor-relations.html`,
      // press and reports pages are linked but absent from the saved site (404): not found pages.
      pages: { contact: [`${server.url}/contactus.html`], management: [`${server.url}/executive-team.html`], presentations: [`${server.url}/frppresent.html`], press: [], reports: [] },
      detail: null,
    });
    expect(byCik['0000844059']!.provenance).toMatchObject({ source_provider: 'issuer_page', source_url: `${server.url}/investor-relations.html`, content_hash: expect.stringMatching(/^sha256:/) });
    expect(byCik['0000789019']!.data).toMatchObject({ status: 'no_website', source: null, landing_url: null });
    expect(byCik['0000789019']!.provenance).toMatchObject({ source_provider: 'sec', source_url: 'https://data.sec.gov/submissions/CIK0000789019.json' });
    expect(byCik['0009999003']!.data).toMatchObject({ status: 'robots_disallowed', source: 'website', start_url: `${server.url}/private/`, detail: `homepage ${server.url}/private/ is disallowed by robots.txt` });
    expect(byCik['0009999001']!.data).toMatchObject({ status: 'no_ir_page', source: 'website', detail: `no link to an IR page on ${server.url}/home.html` });
    expect(server.requests.some((r) => r.path.startsWith('/private/'))).toBe(false);

    // The hand-written configuration of scripts/run.sh on the same site, through the same service.
    const configured = topicsOf(`${namespace}-configured`);
    const registry = [
      {
        cik: '844059',
        ticker: 'FRPH',
        name: 'FRP Holdings, Inc.',
        landing_url: `${server.url}/investor-relations.html`,
        pages: { contact: `${server.url}/contactus.html`, management: `${server.url}/executive-team.html`, presentations: `${server.url}/frppresent.html` },
        documents: [
          { url: `${server.url}/assets/presentations/1_CURRENT_12_JAN_2015_FRP_Holdings_Inc_Presentation_Pre-Spin-Off.pdf`, title: 'FRP Holdings Inc Presentation Pre-Spin-Off, January 12, 2015', kind: 'presentation' },
          { url: `${server.url}/assets/FRP_2019_Annual_Report.pdf`, title: 'FRP Holdings 2019 Annual Report', kind: 'annual_report' },
        ],
      },
    ];
    const app = await NestFactory.createApplicationContext(
      IngestIrModule.forRoot({
        config: loadIngestIrConfig({ IR_USER_AGENT: UA, IR_SITES: JSON.stringify(registry), IR_MAX_RPS_PER_HOST: '10', IR_ALLOW_PRIVATE_HOSTS: 'true', KAFKA_BROKERS: settings.brokers.join(','), LOG_LEVEL: 'silent' }, () => ''),
        topics: configured,
        logger: createLogger({ level: 'silent' }),
      }),
      { logger: false },
    );
    try {
      expect((await app.get(IngestIrService).execute({ runId: 'run_int_ir_configured' })).sites).toMatchObject([{ cik: '0000844059', status: 'published', site: 'found' }]);
    } finally {
      await app.close();
    }

    const read = async (t: IrTopics, count: { roster: number; documents: number }) => ({
      rosters: parse<IssuerRosterRecordV1>(await readTopic(settings, t.roster.name, { count: count.roster, timeoutMs: 30_000 })),
      documents: parse<IssuerDocumentRecordV1>(await readTopic(settings, t.documents.name, { count: count.documents, timeoutMs: 30_000 })),
    });
    const found = await read(topics, { roster: 2, documents: 16 });
    const handWritten = await read(configured, { roster: 2, documents: 18 });
    const people = (r: IssuerRosterRecordV1[]) => r.map((x) => [x.key, x.data.entries.map((e) => [e.name, e.role, e.email, e.phone])]).sort();
    expect(people(found.rosters)).toEqual(people(handWritten.rosters));
    expect(found.rosters.find((r) => r.key === '0000844059|executives')!.data.entries).toHaveLength(5);
    expect(found.rosters.find((r) => r.key === '0000844059|ir')!.data.entries.map((e) => e.name)).toEqual(['John Milton']);
    // Every document the pages link is found; the two the registry names by URL (linked from no page) cannot be.
    const urls = (d: IssuerDocumentRecordV1[]) => d.map((x) => x.key).sort();
    expect(urls(found.documents)).toEqual(urls(handWritten.documents.filter((d) => d.data.listed_on === 'ir_page')));
    expect(handWritten.documents.filter((d) => d.data.listed_on === 'registry').map((d) => d.key).sort()).toEqual([
      `${server.url}/assets/FRP_2019_Annual_Report.pdf`,
      `${server.url}/assets/presentations/1_CURRENT_12_JAN_2015_FRP_Holdings_Inc_Presentation_Pre-Spin-Off.pdf`,
    ]);
  });

  it('finds FRPH\'s IR landing page from its website: the homepage\'s "Investor Relations" link', async () => {
    const namespace = `test-ir-follow-${randomBytes(4).toString('hex')}`;
    const companies = namespacedTopic(TOPICS.companies, namespace);
    const topics = topicsOf(namespace);
    await ensureTopics(settings, [companies, namespacedTopic(TOPICS.tenkSections, namespace), ...Object.values(topics)]);
    const producer = new RecordProducer(settings);
    await producer.connect();
    try {
      // FRPH's homepage was not saved; its contact page carries the same nav bar and stands in for it.
      await producer.publish(companies, [companyRecord('0000844059', 'FRPH', 'FRP HOLDINGS, INC.', { website: `${server.url}/contactus.html` })]);
    } finally {
      await producer.disconnect();
    }
    const config = loadIngestIrConfig(
      { IR_USER_AGENT: UA, IR_MAX_RPS_PER_HOST: '10', IR_ALLOW_PRIVATE_HOSTS: 'true', KAFKA_BROKERS: settings.brokers.join(','), KAFKA_TOPIC_NAMESPACE: namespace, IR_GROUP_ID: uniqueGroupId('ir-follow'), LOG_LEVEL: 'silent' },
      () => '',
    );
    const worker = await startIrFollow(config, { logger: createLogger({ level: 'silent' }), runId: 'run_int_ir_follow_website' });
    try {
      await worker.follow({ once: true, checkMs: 250 });
    } finally {
      await worker.stop();
    }
    const [site] = parse<IrSiteRecordV1>(await readTopic(settings, topics.sites.name, { count: 1, timeoutMs: 30_000 }));
    expect(site!.data).toMatchObject({ status: 'found', source: 'website', start_url: `${server.url}/contactus.html`, landing_url: `${server.url}/investor-relations.html` });
    expect(site!.data.pages.management).toEqual([`${server.url}/executive-team.html`]);
    // The provenance is the homepage and the link that named the landing page.
    expect(site!.provenance).toMatchObject({ source_provider: 'issuer_page', source_url: `${server.url}/contactus.html`, quote: 'Investor Relations' });
    expect(await readTopic(settings, topics.documents.name, { count: 16, timeoutMs: 30_000 })).toHaveLength(16);
  });
});
