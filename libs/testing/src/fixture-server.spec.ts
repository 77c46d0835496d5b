import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectEventually } from './eventually';
import { fixtureDayFilings } from './edgar-day';
import { COMPANY_FACTS_PATH, defaultFixturesDir, FIXTURE_ROUTES, startFixtureServer, WEBHOOK_SINK_PATH, type FixtureServer } from './fixture-server';

describe('startFixtureServer', () => {
  let server: FixtureServer;
  beforeAll(async () => { server = await startFixtureServer(); });
  afterAll(async () => { await server.close(); });

  it('serves the real ticker maps and submissions at EDGAR paths, byte for byte', async () => {
    const res = await fetch(`${server.url}/files/company_tickers_exchange.json`, { headers: { 'User-Agent': 'Test ops@test.example', 'Accept-Encoding': 'gzip' } });
    expect(res.status).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.equals(readFileSync(join(defaultFixturesDir(), 'tickers/company_tickers_exchange.json')))).toBe(true);
    expect((await fetch(`${server.url}/submissions/CIK0000789019.json`)).status).toBe(200);
    expect(server.paths()).toEqual(expect.arrayContaining(['/files/company_tickers.json', '/submissions/CIK0000717423.json', '/submissions/CIK0001318605.json']));
  });

  it('serves every company-facts file of xbrl/ at its data.sec.gov path, byte for byte', async () => {
    const files = readdirSync(join(defaultFixturesDir(), 'xbrl')).filter((f) => f.includes('-companyfacts-'));
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const file of files) {
      const path = `${COMPANY_FACTS_PATH}${file.slice(file.indexOf('CIK'))}`;
      expect(server.paths()).toContain(path);
      const res = await fetch(`${server.url}${path}`, { headers: { 'Accept-Encoding': 'gzip' } });
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(join(defaultFixturesDir(), 'xbrl', file)))).toBe(true);
    }
  });

  it('answers 404 for anything else and records every request with its User-Agent', async () => {
    const res = await fetch(`${server.url}/submissions/CIK0000000001.json`, { headers: { 'User-Agent': 'Someone else@x.example' } });
    expect(res.status).toBe(404);
    expect(server.requests.at(-1)).toMatchObject({ path: '/submissions/CIK0000000001.json', userAgent: 'Someone else@x.example', status: 404 });
    expect(server.requests[0]).toMatchObject({ userAgent: 'Test ops@test.example', acceptEncoding: 'gzip', status: 200 });
  });

  it('takes webhook deliveries posted to its sink (204), and only there', async () => {
    const post = (path: string) => fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"type":"filing.created"}' });
    expect((await post(WEBHOOK_SINK_PATH)).status).toBe(204);
    expect((await post('/webhooks/other')).status).toBe(404);
  });

  it('serves another file at a path from the next request on (a page that changed)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fixture-serve-'));
    try {
      const changed = join(dir, 'investor-relations.html');
      writeFileSync(changed, '<p>changed</p>');
      const before = await (await fetch(`${server.url}/investor-relations.html`)).text();
      expect(before).toBe(readFileSync(join(defaultFixturesDir(), 'ir-pages/FRPH-investor-relations.html'), 'utf8'));
      server.serve({ path: '/investor-relations.html', file: changed });
      expect(await (await fetch(`${server.url}/investor-relations.html`)).text()).toBe('<p>changed</p>');
      server.serve({ path: '/investor-relations.html', file: 'ir-pages/FRPH-investor-relations.html' });
      expect(await (await fetch(`${server.url}/investor-relations.html`)).text()).toBe(before);
    } finally {
      // The server is shared by the other cases: the real page again, whatever failed.
      server.serve({ path: '/investor-relations.html', file: 'ir-pages/FRPH-investor-relations.html' });
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('injects failures for a path, then serves it again', async () => {
    server.failNext('/files/company_tickers.json', 429, 2);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await fetch(`${server.url}/files/company_tickers.json`)).status);
    expect(statuses).toEqual([429, 429, 200]);
  });

  it('answers a byte range with 206 and Content-Range (zip readers read archives this way), never gzipped', async () => {
    const file = readFileSync(join(defaultFixturesDir(), 'submissions/CIK0000789019.json'));
    const res = await fetch(`${server.url}/submissions/CIK0000789019.json`, { headers: { Range: 'bytes=100-199', 'Accept-Encoding': 'gzip' } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes 100-199/${file.length}`);
    expect(Buffer.from(await res.arrayBuffer()).equals(file.subarray(100, 200))).toBe(true);
    const head = await fetch(`${server.url}/submissions/CIK0000789019.json`, { method: 'HEAD', headers: { 'Accept-Encoding': 'identity' } });
    expect(head.headers.get('content-length')).toBe(String(file.length));
    expect((await fetch(`${server.url}/submissions/CIK0000789019.json`, { headers: { Range: `bytes=${file.length}-` } })).status).toBe(416);
  });
});

describe('startFixtureServer with a day: the latest-filings feed over HTTP', () => {
  const FEED = '/cgi-bin/browse-edgar?action=getcurrent&count=100&output=atom';
  let server: FixtureServer;
  // Filings 5 s apart, the last accepted 3 s after start: a test sees the feed change once.
  beforeAll(async () => {
    const durationMs = 5_000 * fixtureDayFilings(defaultFixturesDir(), FIXTURE_ROUTES).length;
    server = await startFixtureServer({ day: { startAt: Date.now() + 3_000 - durationMs, durationMs }, throttleOnce: { afterMs: 0, pathPrefix: '/cgi-bin/browse-edgar' } });
  });
  afterAll(async () => { await server.close(); });

  it("answers SEC's 403 once to the feed (throttleOnce), then serves it", async () => {
    expect((await fetch(`${server.url}${FEED}`)).status).toBe(403);
    expect((await fetch(`${server.url}${FEED}`)).status).toBe(200);
  });

  it('keeps its ETag while the entries hold, answers 304 to If-None-Match and If-Modified-Since, and a new ETag once a filing appears', async () => {
    const last = server.day!.filings.at(-1)!;
    const before = await fetch(`${server.url}${FEED}`);
    expect(before.status).toBe(200);
    expect(before.headers.get('content-type')).toBe('application/atom+xml');
    const etag = before.headers.get('etag')!;
    const lastModified = before.headers.get('last-modified')!;
    expect(etag).toMatch(/^"[0-9a-f]{40}"$/);
    // Not yet: the last filing is still to come.
    expect(await before.text()).not.toContain(last.accession);
    expect(Date.parse(lastModified)).toBe(Math.floor(server.day!.filings.at(-2)!.visibleAt.feed / 1000) * 1000);

    await new Promise((resolve) => setTimeout(resolve, 1_100)); // the feed's own time moves on
    const again = await fetch(`${server.url}${FEED}`);
    expect(again.headers.get('etag')).toBe(etag);
    const conditional = await fetch(`${server.url}${FEED}`, { headers: { 'If-None-Match': etag } });
    expect(conditional.status).toBe(304);
    expect(await conditional.text()).toBe('');
    expect((await fetch(`${server.url}${FEED}`, { headers: { 'If-Modified-Since': lastModified } })).status).toBe(304);
    const older = new Date(Date.parse(lastModified) - 1_000).toUTCString();
    expect((await fetch(`${server.url}${FEED}`, { headers: { 'If-Modified-Since': older } })).status).toBe(200);

    const changed = await expectEventually(async () => {
      const res = await fetch(`${server.url}${FEED}`, { headers: { 'If-None-Match': etag } });
      expect(res.status).toBe(200);
      return res;
    });
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(await changed.text()).toContain(last.accession);
    expect((await fetch(`${server.url}${FEED}`, { headers: { 'If-Modified-Since': lastModified } })).status).toBe(200);
    expect(server.requests.filter((r) => r.path === '/cgi-bin/browse-edgar').map((r) => r.status)).toContain(304);
  });
});
