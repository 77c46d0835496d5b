import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { TOPICS, validateRecord, type CompanyDescriptionRecordV1, type IssuerDocumentRecordV1, type IssuerRosterRecordV1 } from '@app/contracts';
import { readTopic } from '@app/messaging';
import { createLogger } from '@app/observability';
import { kafkaBrokersForTests, startFixtureServer, uniqueTopic, type FixtureServer } from '@app/testing';
import { loadIngestIrConfig } from './ingest-ir.config';
import { IngestIrModule } from './ingest-ir.module';
import { IngestIrService, type IrTopics } from './ingest-ir.service';

const UA = 'FilingsPlatformBot/1.0 (+ops@filings.example)';

describe('ingest-ir -> Kafka (fixture IR pages, real broker)', () => {
  let server: FixtureServer;
  let brokers: string[];
  beforeAll(async () => {
    // The IR pages are in FIXTURE_ROUTES; passed again here so this test states the paths it relies on.
    server = await startFixtureServer({
      routes: [
        { path: '/investor-relations.html', file: 'ir-pages/FRPH-investor-relations.html' },
        { path: '/contactus.html', file: 'ir-pages/FRPH-contactus.html' },
        { path: '/executive-team.html', file: 'ir-pages/FRPH-executive-team.html' },
        { path: '/frppresent.html', file: 'ir-pages/FRPH-frppresent.html' },
        { path: '/investors', file: 'ir-pages/BRAI-investors.html', contentType: 'text/html; charset=utf-8' },
      ],
    });
    brokers = await kafkaBrokersForTests();
  }, 600_000);
  afterAll(async () => {
    await server.close();
  });

  it('crawls both sites politely, publishes rosters, documents and the description, then finds nothing changed', async () => {
    const topics: IrTopics = {
      roster: uniqueTopic(TOPICS.issuerRoster, 'ingest-ir'),
      documents: uniqueTopic(TOPICS.issuerDocuments, 'ingest-ir'),
      descriptions: uniqueTopic(TOPICS.companyDescriptions, 'ingest-ir'),
      sites: uniqueTopic(TOPICS.irSites, 'ingest-ir'),
    };
    const sites = [
      { cik: '844059', ticker: 'FRPH', name: 'FRP Holdings, Inc.', landing_url: `${server.url}/investor-relations.html` },
      { cik: '9999001', ticker: 'BRAI', name: 'Braiin Limited', landing_url: `${server.url}/investors` },
      { cik: '9999002', ticker: null, name: 'Gone Inc.', landing_url: `${server.url}/no-such-page.html` },
    ];
    const config = loadIngestIrConfig(
      { IR_USER_AGENT: UA, IR_SITES: JSON.stringify(sites), IR_MAX_RPS_PER_HOST: '10', IR_ALLOW_PRIVATE_HOSTS: 'true', KAFKA_BROKERS: brokers.join(','), LOG_LEVEL: 'silent' },
      () => '',
    );
    const app = await NestFactory.createApplicationContext(IngestIrModule.forRoot({ config, topics, logger: createLogger({ level: 'silent' }) }), { logger: false });
    let first;
    let second;
    try {
      const service = app.get(IngestIrService);
      first = await service.execute({ runId: 'run_ir_int' });
      second = await service.execute({ runId: 'run_ir_int_2', ciks: ['0000844059'] });
    } finally {
      await app.close();
    }

    expect(first.sites).toEqual([
      { cik: '0000844059', status: 'published', site: 'found', pages: 4, rosters: 2, documents: 16, description: true },
      { cik: '0009999001', status: 'published', site: 'found', pages: 1, rosters: 1, documents: 0, description: false },
      { cik: '0009999002', status: 'failed', site: 'fetch_failed', pages: 0, error: expect.stringContaining('answered 404') },
    ]);
    expect(second.sites).toEqual([{ cik: '0000844059', status: 'unchanged', site: 'found', pages: 4 }]);

    // Politeness: the declared User-Agent on every request, robots.txt asked once (one host), at most 10 requests/s.
    const requests = server.requests;
    expect(requests.every((r) => r.userAgent === UA)).toBe(true);
    expect(requests.filter((r) => r.path === '/robots.txt')).toHaveLength(1);
    // (The server stamps a request when it has answered, so single gaps jitter: the whole span is checked.)
    expect(requests.at(-1)!.at - requests[0]!.at).toBeGreaterThanOrEqual((requests.length - 1) * 100 - 50);
    // Discovered pages the site lacks (press, reports) were tried once per crawl and skipped.
    expect(requests.filter((r) => r.path === '/frphpress.html').map((r) => r.status)).toEqual([404, 404]);

    const settings = { brokers, clientId: 'ingest-ir-int', logLevel: 'nothing' as const };
    const rosters = (await readTopic(settings, topics.roster.name, { count: 3, timeoutMs: 30_000 })).map((m) => JSON.parse(m.value!) as IssuerRosterRecordV1);
    const documents = (await readTopic(settings, topics.documents.name, { count: 16, timeoutMs: 30_000 })).map((m) => JSON.parse(m.value!) as IssuerDocumentRecordV1);
    const descriptions = (await readTopic(settings, topics.descriptions.name, { count: 1, timeoutMs: 30_000 })).map((m) => JSON.parse(m.value!) as CompanyDescriptionRecordV1);
    expect(rosters.map((r) => r.key).sort()).toEqual(['0000844059|executives', '0000844059|ir', '0009999001|ir']);
    expect(documents).toHaveLength(16);
    expect(descriptions).toHaveLength(1);
    for (const r of rosters) expect(validateRecord(topics.roster, r).ok).toBe(true);
    for (const d of documents) expect(validateRecord(topics.documents, d).ok).toBe(true);

    const executives = rosters.find((r) => r.key === '0000844059|executives')!;
    expect(executives).toMatchObject({
      produced_by: 'ingest-ir',
      correlation_id: 'run_ir_int',
      provenance: { source_provider: 'issuer_page', source_url: `${server.url}/executive-team.html` },
      data: { cik: '0000844059', ticker: 'FRPH', category: 'executives', site_url: `${server.url}/investor-relations.html` },
    });
    expect(executives.data.entries.map((e) => `${e.rank} ${e.name}: ${e.role}`)).toEqual([
      '1 Thompson S. Baker: Chief Executive Officer',
      '2 John D. Baker II: Executive Chairman',
      '3 David H. deVilliers Jr.: President',
      '4 John D. Milton Jr.: Executive Vice President, Treasurer, Chief Financial Officer and Secretary',
      '5 John D. Klopfenstein: Controller and Chief Accounting Officer',
    ]);
    expect(rosters.find((r) => r.key === '0000844059|ir')!.data.entries).toMatchObject([
      { name: 'John Milton', affiliation: 'FRP Holdings, Inc.', phone: '(877) 704-1776', citation: { source_url: `${server.url}/contactus.html` } },
    ]);
    expect(rosters.find((r) => r.key === '0009999001|ir')!.data.entries).toMatchObject([
      { name: 'Scott Gordon', role: 'Investor Relations', affiliation: 'Core IR', email: 'scottg@coreir.com', phone: '+1 212-655-0924' },
    ]);

    const deck = documents.find((d) => d.key === `${server.url}/assets/FRP_Investor_Presentation.pdf`)!;
    expect(deck.data).toMatchObject({ kind: 'presentation', published_on: '2017-09-28', is_pdf: true, title: 'FRP Holdings Inc. Investor Presentation September 2017' });
    expect(deck.provenance).toMatchObject({ citation_url: deck.key, source_url: `${server.url}/investor-relations.html` });
    const annualMeeting = documents.find((d) => d.key === `${server.url}/assets/Annual_Meeting_-_2015_FINAL2.pdf`)!;
    expect(annualMeeting.data).toMatchObject({ kind: 'presentation', published_on: null, citation: { source_url: `${server.url}/frppresent.html` } });

    expect(descriptions[0]).toMatchObject({ key: '0000844059', data: { citation: { source_url: `${server.url}/executive-team.html` } } });
    expect(descriptions[0]!.data.description).toMatch(/^FRP Holdings, Inc., is a publicly traded company that is listed on the Nasdaq Stock Market\./);
  }, 120_000);
});
