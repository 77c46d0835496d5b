import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PoliteFetcher } from './polite.fetcher';

const UA = 'FilingsPlatformBot/1.0 (+ops@filings.example)';

/** A small site: robots.txt, an ETag'd page, a flaky page, a huge page. */
async function startSite(robots: { status: number; body?: string }) {
  const seen: Array<{ path: string; ifNoneMatch: string | undefined; userAgent: string | undefined }> = [];
  let flaky = 2;
  let cut = 1;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/';
    seen.push({ path, ifNoneMatch: req.headers['if-none-match'], userAgent: req.headers['user-agent'] });
    if (path === '/robots.txt') return void res.writeHead(robots.status).end(robots.body ?? '');
    if (path === '/ir.html') {
      if (req.headers['if-none-match'] === '"v1"') return void res.writeHead(304).end();
      return void res.writeHead(200, { etag: '"v1"', 'content-type': 'text/html' }).end('<p>IR</p>');
    }
    if (path === '/flaky.html') return void (flaky-- > 0 ? res.writeHead(503).end() : res.writeHead(200).end('<p>ok</p>'));
    if (path === '/cut.html') {
      // The first answer announces 1000 bytes, sends 10 and resets the connection.
      if (cut-- > 0) {
        res.writeHead(200, { 'content-length': '1000' });
        res.write('<p>partial');
        return void setTimeout(() => res.socket?.destroy(), 20);
      }
      return void res.writeHead(200).end('<p>whole</p>');
    }
    if (path === '/huge.html') return void res.writeHead(200).end('x'.repeat(5000));
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('PoliteFetcher against a local site', () => {
  it('honours robots.txt (asked once), sends the User-Agent, does conditional GET, retries 5xx, limits size', async () => {
    const site = await startSite({ status: 200, body: 'User-agent: *\nDisallow: /private\n' });
    const fetcher = new PoliteFetcher({ userAgent: UA, maxRpsPerHost: 20, backoffBaseMs: 10, maxBytes: 1024, allowPrivateHosts: true });
    try {
      expect(await fetcher.fetch(`${site.url}/private/x.html`)).toEqual({ kind: 'disallowed', url: `${site.url}/private/x.html` });
      const first = await fetcher.fetch(`${site.url}/ir.html`);
      expect(first).toMatchObject({ kind: 'ok', status: 200, unchanged: false, validators: { etag: '"v1"' } });
      if (first.kind !== 'ok') throw new Error('expected ok');
      expect(first.bytes.toString()).toBe('<p>IR</p>');
      expect(await fetcher.fetch(`${site.url}/ir.html`, first.validators)).toMatchObject({ kind: 'not_modified' });
      expect(await fetcher.fetch(`${site.url}/ir.html`, { contentHash: first.contentHash })).toMatchObject({ kind: 'ok', unchanged: true });
      expect(await fetcher.fetch(`${site.url}/flaky.html`)).toMatchObject({ kind: 'ok', status: 200 });
      expect(await fetcher.fetch(`${site.url}/cut.html`)).toMatchObject({ kind: 'ok', bytes: Buffer.from('<p>whole</p>') });
      await expect(fetcher.fetch(`${site.url}/huge.html`)).rejects.toMatchObject({ code: 'TOO_LARGE' });
      expect(await fetcher.fetch(`${site.url}/missing.html`)).toMatchObject({ kind: 'not_found', status: 404 });
      expect(site.seen.filter((r) => r.path === '/robots.txt')).toHaveLength(1);
      expect(site.seen.filter((r) => r.path === '/private/x.html')).toHaveLength(0);
      expect(site.seen.filter((r) => r.path === '/flaky.html')).toHaveLength(3);
      expect(site.seen.filter((r) => r.path === '/cut.html')).toHaveLength(2);
      expect(site.seen.every((r) => r.userAgent === UA)).toBe(true);
      expect(site.seen.filter((r) => r.path === '/ir.html').map((r) => r.ifNoneMatch)).toEqual([undefined, '"v1"', undefined]);
    } finally {
      await site.close();
    }
  });

  it('gives up on a body cut off on every attempt with an IrFetchError (UNAVAILABLE), not a raw stream error', async () => {
    const site = await startSite({ status: 404 });
    const fetcher = new PoliteFetcher({ userAgent: UA, maxRpsPerHost: 20, maxAttempts: 1, allowPrivateHosts: true });
    try {
      await expect(fetcher.fetch(`${site.url}/cut.html`)).rejects.toMatchObject({ name: 'IrFetchError', code: 'UNAVAILABLE' });
    } finally {
      await site.close();
    }
  });

  it('allows all without robots.txt (404), disallows all when robots.txt fails (5xx)', async () => {
    const missing = await startSite({ status: 404 });
    const broken = await startSite({ status: 500 });
    try {
      expect(await new PoliteFetcher({ userAgent: UA, maxRpsPerHost: 20, allowPrivateHosts: true }).fetch(`${missing.url}/ir.html`)).toMatchObject({ kind: 'ok' });
      const fetcher = new PoliteFetcher({ userAgent: UA, maxRpsPerHost: 20, maxAttempts: 2, backoffBaseMs: 5, allowPrivateHosts: true });
      expect(await fetcher.fetch(`${broken.url}/ir.html`)).toMatchObject({ kind: 'disallowed' });
      expect(broken.seen.filter((r) => r.path === '/ir.html')).toHaveLength(0);
    } finally {
      await missing.close();
      await broken.close();
    }
  });

  it('reads robots.txt again after robotsTtlMs: a host disallowed by a failing robots.txt is allowed once it answers 404', async () => {
    const robots = { status: 500 };
    const site = await startSite(robots);
    try {
      const fetcher = new PoliteFetcher({ userAgent: UA, maxRpsPerHost: 20, maxAttempts: 1, allowPrivateHosts: true, robotsTtlMs: 0 });
      expect(await fetcher.fetch(`${site.url}/ir.html`)).toMatchObject({ kind: 'disallowed' });
      robots.status = 404;
      expect(await fetcher.fetch(`${site.url}/ir.html`)).toMatchObject({ kind: 'ok' });
      expect(site.seen.map((r) => r.path)).toEqual(['/robots.txt', '/robots.txt', '/ir.html']);
    } finally {
      await site.close();
    }
  });

  it('spaces requests to one host by the rate limit', async () => {
    const site = await startSite({ status: 404 });
    const fetcher = new PoliteFetcher({ userAgent: UA, maxRpsPerHost: 5, allowPrivateHosts: true });
    try {
      const started = Date.now();
      for (let i = 0; i < 3; i += 1) await fetcher.fetch(`${site.url}/ir.html`);
      // robots.txt + 3 pages = 4 requests, 200 ms apart.
      expect(Date.now() - started).toBeGreaterThanOrEqual(590);
    } finally {
      await site.close();
    }
  });

  it('treats a host whose robots.txt cannot be reached as disallowed (nothing else is requested)', async () => {
    const fetcher = new PoliteFetcher({ userAgent: UA, maxAttempts: 1, timeoutMs: 500, allowPrivateHosts: true });
    // Port 9 (discard) on localhost is closed: robots.txt fails -> the host is disallowed, nothing thrown.
    expect(await fetcher.fetch('http://127.0.0.1:9/ir.html')).toMatchObject({ kind: 'disallowed' });
  });
});
