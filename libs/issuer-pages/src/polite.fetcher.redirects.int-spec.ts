import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PoliteFetcher } from './polite.fetcher';

// The sites here listen on 127.0.0.1, which the guard refuses. So that a first hop can pass and a
// later one be refused, 127.0.0.1 counts as public in this file; every other name and address
// ("localhost" included) goes through the real check.
jest.mock('@app/net', () => {
  const actual = jest.requireActual<typeof import('@app/net')>('@app/net');
  return {
    ...actual,
    assertPublicUrl: (url: string, options: { allowPrivate: boolean }) => (new URL(url).hostname === '127.0.0.1' ? Promise.resolve() : actual.assertPublicUrl(url, options)),
  };
});

const UA = 'FilingsPlatformBot/1.0 (+ops@filings.example)';

type Handler = (path: string, res: ServerResponse) => void;

async function startHost(handler: Handler) {
  const seen: Array<{ path: string; at: number }> = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/';
    seen.push({ path, at: Date.now() });
    handler(path, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, port, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('PoliteFetcher: addresses and redirects', () => {
  it('refuses a host that resolves to a non-public address, before any request (robots.txt included)', async () => {
    const host = await startHost((_path, res) => void res.writeHead(200).end('<p>x</p>'));
    const fetcher = new PoliteFetcher({ userAgent: UA, maxRpsPerHost: 20 });
    try {
      await expect(fetcher.fetch(`http://localhost:${host.port}/ir.html`)).rejects.toMatchObject({ name: 'IrFetchError', code: 'REFUSED' });
      await expect(fetcher.fetch('http://169.254.169.254/latest/meta-data/')).rejects.toMatchObject({ code: 'REFUSED' });
      expect(host.seen).toEqual([]);
      // The same host is fetched when private hosts are allowed (tests, local runs).
      expect(await new PoliteFetcher({ userAgent: UA, maxRpsPerHost: 20, allowPrivateHosts: true }).fetch(`http://localhost:${host.port}/ir.html`)).toMatchObject({ kind: 'ok' });
    } finally {
      await host.close();
    }
  });

  it('checks every redirect hop: a 302 to a private address is refused and never requested', async () => {
    const inner = await startHost((_path, res) => void res.writeHead(200).end('secret'));
    const site = await startHost((path, res) => {
      if (path === '/robots.txt') return void res.writeHead(404).end();
      if (path === '/to-private') return void res.writeHead(302, { location: `http://localhost:${inner.port}/admin` }).end();
      if (path === '/to-file') return void res.writeHead(301, { location: 'file:///etc/passwd' }).end();
      if (path === '/loop') return void res.writeHead(302, { location: '/loop' }).end();
      res.writeHead(404).end();
    });
    const fetcher = new PoliteFetcher({ userAgent: UA, maxRpsPerHost: 50 });
    try {
      await expect(fetcher.fetch(`${site.url}/to-private`)).rejects.toMatchObject({ code: 'REFUSED', url: `http://localhost:${inner.port}/admin` });
      await expect(fetcher.fetch(`${site.url}/to-file`)).rejects.toMatchObject({ code: 'REFUSED' });
      await expect(fetcher.fetch(`${site.url}/loop`)).rejects.toMatchObject({ code: 'HTTP_ERROR', message: expect.stringContaining('more than 5 redirects') });
      expect(inner.seen).toEqual([]);
      // The loop: the first request and five followed hops.
      expect(site.seen.filter((r) => r.path === '/loop')).toHaveLength(6);
    } finally {
      await site.close();
      await inner.close();
    }
  });

  it('asks allowRedirect about every hop: a refused one is not requested (REFUSED), an allowed one is followed', async () => {
    const other = await startHost((path, res) => void (path === '/robots.txt' ? res.writeHead(404).end() : res.writeHead(200).end('<p>elsewhere</p>')));
    const site = await startHost((path, res) => {
      if (path === '/robots.txt') return void res.writeHead(404).end();
      if (path === '/away') return void res.writeHead(302, { location: `${other.url}/page.html` }).end();
      if (path === '/stay') return void res.writeHead(301, { location: '/page.html' }).end();
      if (path === '/page.html') return void res.writeHead(200).end('<p>here</p>');
      res.writeHead(404).end();
    });
    const asked: Array<[string, string]> = [];
    const fetcher = new PoliteFetcher({
      userAgent: UA,
      maxRpsPerHost: 50,
      allowRedirect: (target, from) => {
        asked.push([target.toString(), from.toString()]);
        return target.origin === new URL(site.url).origin;
      },
    });
    try {
      await expect(fetcher.fetch(`${site.url}/away`)).rejects.toMatchObject({ name: 'IrFetchError', code: 'REFUSED', url: `${other.url}/page.html`, message: expect.stringContaining('redirect policy') });
      expect(await fetcher.fetch(`${site.url}/stay`)).toMatchObject({ kind: 'ok', finalUrl: `${site.url}/page.html` });
      expect(other.seen).toEqual([]);
      expect(asked).toEqual([
        [`${other.url}/page.html`, `${site.url}/away`],
        [`${site.url}/page.html`, `${site.url}/stay`],
      ]);
    } finally {
      await site.close();
      await other.close();
    }
  });

  it('follows a redirect to another host under that host robots.txt and rate limit', async () => {
    const other = await startHost((path, res) => {
      if (path === '/robots.txt') return void res.writeHead(200).end('User-agent: *\nDisallow: /private\n');
      if (path === '/ir.html') return void res.writeHead(200, { etag: '"o1"' }).end('<p>moved</p>');
      res.writeHead(404).end();
    });
    const site = await startHost((path, res) => {
      if (path === '/robots.txt') return void res.writeHead(404).end();
      if (path === '/moved') return void res.writeHead(301, { location: `${other.url}/ir.html` }).end();
      if (path === '/moved-private') return void res.writeHead(302, { location: `${other.url}/private/x.html` }).end();
      res.writeHead(404).end();
    });
    const fetcher = new PoliteFetcher({ userAgent: UA, maxRpsPerHost: 5 });
    try {
      const moved = await fetcher.fetch(`${site.url}/moved`);
      expect(moved).toMatchObject({ kind: 'ok', url: `${site.url}/moved`, finalUrl: `${other.url}/ir.html`, validators: { etag: '"o1"' } });
      expect(await fetcher.fetch(`${site.url}/moved-private`)).toEqual({ kind: 'disallowed', url: `${site.url}/moved-private` });
      expect(other.seen.map((r) => r.path)).toEqual(['/robots.txt', '/ir.html']);
      // The other host's two requests (robots.txt, then the page) kept its 200 ms spacing.
      expect(other.seen[1]!.at - other.seen[0]!.at).toBeGreaterThanOrEqual(150);
    } finally {
      await site.close();
      await other.close();
    }
  });
});
