import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TOPICS, type RecordEnvelope, type TopicDefinition } from '@app/contracts';
import { PoliteFetcher } from '@app/issuer-pages';
import { PublishGaveUpError, type RecordPublisher } from '@app/messaging';
import { createLogger } from '@app/observability';
import { loadIngestIrConfig } from './ingest-ir.config';
import { IngestIrService, IrIngestStoppedError, type IrTopics } from './ingest-ir.service';

// The use case against a small local IR site whose pages a test can change or break, with an
// in-memory publisher (no broker): what is published and what the state remembers between runs.

const UA = 'FilingsPlatformBot/1.0 (+ops@filings.example)';
const TOPIC_SET: IrTopics = { roster: TOPICS.issuerRoster, documents: TOPICS.issuerDocuments, descriptions: TOPICS.companyDescriptions, sites: TOPICS.irSites };

const LANDING = (decks: string[]) => `<html><body>
  <nav><a href="/contact">Contact</a> <a href="/management">Management</a></nav>
  <h2>Leadership</h2><h3>Rick Roe</h3><p>President and CEO</p><h3>Mary Major</h3><p>Chief Financial Officer</p>
  <h2>Presentations</h2><ul>${decks.map((d) => `<li><a href="/${d}.pdf">${d} Investor Presentation</a></li>`).join('')}</ul>
</body></html>`;
const CONTACT = '<h2>Investor Relations Contact</h2><p>Jane Roe, Investor Relations</p><p>jane.roe@example.com</p>';
const MANAGEMENT = '<h2>Management Team</h2><h3>Rick Roe</h3><p>President and CEO</p><h3>Mary Major</h3><p>Chief Financial Officer</p><h3>Sam Smith</h3><p>General Counsel</p>';

type Page = { status: number; body?: string };

async function startSite() {
  const pages: Record<string, Page> = { '/ir': { status: 200, body: LANDING(['Q1']) }, '/contact': { status: 200, body: CONTACT }, '/management': { status: 200, body: MANAGEMENT } };
  const seen: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/';
    seen.push(path);
    const page = pages[path] ?? { status: 404 };
    res.writeHead(page.status, { 'content-type': 'text/html; charset=utf-8' }).end(page.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, port, pages, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

class MemoryPublisher implements RecordPublisher {
  readonly published: Array<{ topic: string; record: RecordEnvelope }> = [];
  failing = false;
  async publish(topic: TopicDefinition, records: readonly RecordEnvelope[]): Promise<void> {
    if (this.failing) throw new Error('broker down');
    for (const record of records) this.published.push({ topic: topic.name, record });
  }
  take(): Array<{ topic: string; record: RecordEnvelope }> {
    return this.published.splice(0);
  }
}

function serviceFor(sites: unknown[], publisher: RecordPublisher, env: Record<string, string> = {}): IngestIrService {
  const config = loadIngestIrConfig(
    { IR_USER_AGENT: UA, IR_SITES: JSON.stringify(sites), IR_MAX_RPS_PER_HOST: '10', IR_MAX_ATTEMPTS: '1', IR_BACKOFF_MS: '0', IR_ALLOW_PRIVATE_HOSTS: 'true', LOG_LEVEL: 'silent', ...env },
    () => '',
  );
  return new IngestIrService(config, publisher, TOPIC_SET, createLogger({ level: 'silent' }));
}

const keysOf = (published: Array<{ record: RecordEnvelope }>) => published.map((p) => p.record.key);

describe('IngestIrService against a local IR site', () => {
  let site: Awaited<ReturnType<typeof startSite>>;
  beforeEach(async () => {
    site = await startSite();
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await site.close();
  });

  it('a site that failed after a page changed is read and published in full on the next run (its validators were not kept)', async () => {
    const publisher = new MemoryPublisher();
    const service = serviceFor([{ cik: '1', name: 'Example Inc.', landing_url: `${site.url}/ir`, pages: { contact: `${site.url}/contact`, management: `${site.url}/management` } }], publisher);

    expect((await service.execute()).sites).toMatchObject([{ status: 'published' }]);
    publisher.take();

    // The landing page changes (a new deck), then the configured management page fails: the site fails.
    site.pages['/ir'] = { status: 200, body: LANDING(['Q1', 'Q2']) };
    site.pages['/management'] = { status: 503 };
    expect((await service.execute()).sites).toMatchObject([{ status: 'failed', site: 'fetch_failed', error: expect.stringContaining('/management') }]);
    // Nothing of the site's content; only its outcome, which changed (found -> fetch_failed).
    expect(publisher.take().map((p) => [p.topic, p.record.schema, (p.record.data as { status: string }).status])).toEqual([['ir.sites.v1', 'ir-site@1', 'fetch_failed']]);

    // Management is back: the new landing page is news again, so everything is published.
    site.pages['/management'] = { status: 200, body: MANAGEMENT };
    const seenBefore = site.seen.length;
    expect((await service.execute()).sites).toMatchObject([{ status: 'published', pages: 3, rosters: 2 }]);
    expect(site.seen.slice(seenBefore)).toEqual(['/ir', '/contact', '/management']);
    expect(keysOf(publisher.take())).toEqual(expect.arrayContaining([`${site.url}/Q1.pdf`, `${site.url}/Q2.pdf`, '0000000001|executives', '0000000001|ir', '0000000001']));

    // And only now is it unchanged: nothing published, not even its (unchanged) outcome.
    expect((await service.execute()).sites).toEqual([{ cik: '0000000001', status: 'unchanged', site: 'found', pages: 3 }]);
    expect(publisher.take()).toEqual([]);
  });

  it('an unexpected error in one site fails that site only; the next site is published', async () => {
    const publisher = new MemoryPublisher();
    const service = serviceFor(
      [
        { cik: '1', name: 'Broken Inc.', landing_url: `${site.url}/broken` },
        { cik: '2', name: 'Example Inc.', landing_url: `${site.url}/ir` },
      ],
      publisher,
    );
    const real = PoliteFetcher.prototype.fetch;
    jest.spyOn(PoliteFetcher.prototype, 'fetch').mockImplementation(function (this: PoliteFetcher, url, previous) {
      return url.endsWith('/broken') ? Promise.reject(new TypeError('boom in a parser')) : real.call(this, url, previous);
    });
    const summary = await service.execute();
    expect(summary.sites).toMatchObject([
      { cik: '0000000001', status: 'failed', error: 'boom in a parser' },
      { cik: '0000000002', status: 'published' },
    ]);
  });

  it('a publish failure stops the run and keeps no validators: the next run publishes the site again', async () => {
    const publisher = new MemoryPublisher();
    const service = serviceFor([{ cik: '1', name: 'Example Inc.', landing_url: `${site.url}/ir` }], publisher);
    publisher.failing = true;
    await expect(service.execute()).rejects.toThrow('broker down');
    publisher.failing = false;
    expect((await service.execute()).sites).toMatchObject([{ status: 'published' }]);
  });

  it('a broker outage outlasting the retry bound stops the crawl with a summary; the same command publishes the rest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ir-state-'));
    try {
      site.pages['/ir2'] = { status: 200, body: LANDING(['Q3']) };
      site.pages['/ir3'] = { status: 200, body: LANDING(['Q4']) };
      const sites = [
        { cik: '1', name: 'Example Inc.', landing_url: `${site.url}/ir` },
        { cik: '2', name: 'Second Inc.', landing_url: `${site.url}/ir2` },
        { cik: '3', name: 'Third Inc.', landing_url: `${site.url}/ir3` },
      ];
      const env = { IR_STATE_FILE: join(dir, 'state.json') };
      // The broker stops taking records once the first site is published.
      let down = false;
      const published: string[] = [];
      const gaveUp: RecordPublisher = {
        publish: (topic, records) => {
          if (down) return Promise.reject(new PublishGaveUpError(topic.name, records.length, 300_000, new Error('Connection error: connect ECONNREFUSED')));
          published.push(...records.map((r) => r.key));
          return Promise.resolve();
        },
      };
      const first = serviceFor(sites, gaveUp, env);
      const real = PoliteFetcher.prototype.fetch;
      jest.spyOn(PoliteFetcher.prototype, 'fetch').mockImplementation(function (this: PoliteFetcher, url, previous) {
        if (url.endsWith('/ir2')) down = true;
        return real.call(this, url, previous);
      });
      const stopped = await first.execute().catch((e: unknown) => e);
      expect(stopped).toBeInstanceOf(IrIngestStoppedError);
      const { summary, cik, remaining } = stopped as IrIngestStoppedError;
      expect(summary.sites).toMatchObject([{ cik: '0000000001', status: 'published' }]);
      expect({ cik, remaining }).toEqual({ cik: '0000000002', remaining: 2 });
      expect((stopped as Error).message).toMatch(/^stopped at site 0000000002 with 1 of 3 sites published, 2 not done: gave up publishing /);
      expect(published.length).toBeGreaterThan(0);

      // The same command once the broker is back: the first site is unchanged (its validators were kept), the others are published.
      down = false;
      jest.restoreAllMocks();
      const publisher = new MemoryPublisher();
      const second = await serviceFor(sites, publisher, env).execute();
      expect(second.sites.map((x) => x.status)).toEqual(['unchanged', 'published', 'published']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('publishes no executives while the site management page is missing, though the landing page names two', async () => {
    const publisher = new MemoryPublisher();
    const service = serviceFor([{ cik: '1', name: 'Example Inc.', landing_url: `${site.url}/ir` }], publisher);
    site.pages['/management'] = { status: 404 };
    expect((await service.execute()).sites).toMatchObject([{ status: 'published', pages: 2, rosters: 1 }]);
    expect(keysOf(publisher.take()).filter((k) => k.includes('|'))).toEqual(['0000000001|ir']);

    site.pages['/management'] = { status: 200, body: MANAGEMENT };
    expect((await service.execute()).sites).toMatchObject([{ status: 'published', pages: 3, rosters: 2 }]);
    const executives = publisher.take().find((p) => p.record.key === '0000000001|executives')!;
    expect((executives.record.data as { entries: Array<{ name: string }> }).entries.map((e) => e.name)).toEqual(['Rick Roe', 'Mary Major', 'Sam Smith']);
  });

  it('refuses a site on a private address unless IR_ALLOW_PRIVATE_HOSTS', async () => {
    const publisher = new MemoryPublisher();
    const service = serviceFor([{ cik: '1', name: 'Example Inc.', landing_url: `http://localhost:${site.port}/ir` }], publisher, { IR_ALLOW_PRIVATE_HOSTS: 'false' });
    expect((await service.execute()).sites).toMatchObject([{ status: 'failed', error: expect.stringContaining('loopback, private') }]);
    expect(site.seen).toEqual([]);
  });
});
