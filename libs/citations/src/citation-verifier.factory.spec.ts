import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCitationVerifier, type CitationSettings } from './citation-verifier.factory';

const UA = 'Filings Platform citations-test ops@filings.example';
const sha256 = (b: Uint8Array | string) => `sha256:${createHash('sha256').update(b).digest('hex')}`;
const PAGE = '<html><body><p>Investor Relations</p></body></html>';

async function startHost(handler: (path: string, res: ServerResponse) => void) {
  const seen: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    seen.push(req.url ?? '/');
    handler(req.url ?? '/', res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { port, url: `http://127.0.0.1:${port}`, seen, close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

function settings(edgarBase: string, maxSourceBytes: number): CitationSettings {
  return {
    edgarUserAgent: UA,
    edgarWwwBaseUrl: edgarBase,
    edgarDataBaseUrl: edgarBase,
    edgarMaxRps: 10,
    edgarThrottlePauseMs: 1000,
    issuerUserAgent: null,
    issuerMaxRpsPerHost: 10,
    issuerAllowPrivateHosts: true,
    maxSourceBytes,
    fetchTimeoutMs: 5000,
    cacheTtlMs: 0,
    cacheMaxBytes: 0,
    cacheMaxEntries: 0,
    pdfTimeoutMs: 5000,
  };
}

describe('createCitationVerifier: what it fetches', () => {
  it('reads at most maxSourceBytes of an EDGAR source (the rest is not downloaded), and refuses other sec.gov resources unfetched', async () => {
    let sent = 0;
    const sec = await startHost((path, res) => {
      if (path === '/files/company_tickers.json') return void res.writeHead(200).end('{"0":{"ticker":"MSFT"}}');
      res.writeHead(200);
      const more = () => {
        while (sent < 100_000_000 && res.write(Buffer.alloc(64 * 1024, 'x'))) sent += 64 * 1024;
        if (sent < 100_000_000) res.once('drain', more);
        else res.end();
      };
      res.on('close', () => res.removeAllListeners('drain'));
      more();
    });
    try {
      const verifier = createCitationVerifier(settings(sec.url, 4096), { isKnownIssuerOrigin: async () => false });
      const big = await verifier.verify({ source_url: `${sec.url}/Archives/edgar/data/1/000000000125000001/0000000001-25-000001.txt`, quote: 'x', content_hash: sha256('x') });
      expect(big).toMatchObject({ verified: false, reason: 'source_unavailable', fetched_at: null });
      expect(big.detail).toContain('over the 4096-byte limit');
      expect(sent).toBeLessThan(100_000_000);
      const small = await verifier.verify({ source_url: `${sec.url}/files/company_tickers.json`, quote: '"ticker":"MSFT"', content_hash: sha256('{"0":{"ticker":"MSFT"}}') });
      expect(small).toMatchObject({ verified: true });
      const bulk = await verifier.verify({ source_url: 'https://www.sec.gov/Archives/edgar/daily-index/bulkdata/submissions.zip?n=42', quote: 'x', content_hash: sha256('x') });
      expect(bulk).toMatchObject({ reason: 'unsupported_source', fetched_at: null });
      expect(sec.seen.filter((p) => !p.startsWith('/Archives/edgar/data/1/'))).toEqual(['/files/company_tickers.json']);
    } finally {
      await sec.close();
    }
  });

  it('follows an issuer page\'s redirect on its own host or to another issuer site it has read, never elsewhere', async () => {
    const elsewhere = await startHost((_path, res) => void res.writeHead(200).end(PAGE));
    const other = await startHost((path, res) => void (path === '/robots.txt' ? res.writeHead(404).end() : res.writeHead(200).end(PAGE)));
    // "localhost" names a host of its own: hostnames differ from the site's 127.0.0.1.
    const otherUrl = `http://localhost:${other.port}`;
    const site = await startHost((path, res) => {
      if (path === '/robots.txt') return void res.writeHead(404).end();
      if (path === '/here') return void res.writeHead(200).end(PAGE);
      if (path === '/same-host') return void res.writeHead(301, { location: '/here' }).end();
      if (path === '/to-issuer') return void res.writeHead(302, { location: `${otherUrl}/ir.html` }).end();
      if (path === '/to-elsewhere') return void res.writeHead(302, { location: `http://localhost:${elsewhere.port}/anything` }).end();
      res.writeHead(404).end();
    });
    try {
      const known = new Set([site.url, otherUrl]);
      const verifier = createCitationVerifier(settings('https://www.sec.gov', 1 << 20), { isKnownIssuerOrigin: async (o) => known.has(o) });
      const check = (path: string) => verifier.verify({ source_provider: 'issuer_page', source_url: `${site.url}${path}`, quote: 'Investor Relations', content_hash: sha256(PAGE) });
      expect(await check('/same-host')).toMatchObject({ verified: true });
      expect(await check('/to-issuer')).toMatchObject({ verified: true });
      const refused = await check('/to-elsewhere');
      expect(refused).toMatchObject({ verified: false, reason: 'source_unavailable', fetched_at: null });
      expect(refused.detail).toContain(`REFUSED: GET ${site.url}/to-elsewhere: redirected (302) to http://localhost:${elsewhere.port}/anything`);
      expect(elsewhere.seen).toEqual([]);
      expect(other.seen).toEqual(['/robots.txt', '/ir.html']);
    } finally {
      await site.close();
      await other.close();
      await elsewhere.close();
    }
  });
});
