import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { EdgarClient, type EdgarClientOptions } from './edgar.client';
import type { EdgarLogger } from './edgar.logger';
import { EdgarError } from './edgar.errors';
import { RequestLimiter } from './request.limiter';

const UA = 'Filings Platform Tests ops@filings.example';

interface Seen { path: string; at: number; ua: string | undefined; acceptEncoding: string | undefined }

/** A real HTTP server on 127.0.0.1 whose answers the test scripts per path. */
async function startServer(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    seen.push({ path: req.url ?? '', at: Date.now(), ua: req.headers['user-agent'], acceptEncoding: req.headers['accept-encoding'] });
    handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

function client(url: string, extra: Partial<EdgarClientOptions> = {}) {
  return new EdgarClient({
    userAgent: UA,
    wwwBaseUrl: url,
    dataBaseUrl: `${url}/data`,
    maxRps: 10,
    backoffBaseMs: 10,
    budget: new RequestLimiter(10),
    ...extra,
  });
}

describe('EdgarClient', () => {
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  afterEach(async () => { await server?.close(); server = undefined; });

  it('sends the declared User-Agent and Accept-Encoding, decodes gzip, and returns bytes and validators', async () => {
    const body = Buffer.from('{"hello":"world"}');
    server = await startServer((req, res) => {
      const gz = String(req.headers['accept-encoding']).includes('gzip');
      res.writeHead(200, { 'content-type': 'application/json', etag: '"abc"', 'last-modified': 'Sat, 02 Aug 2025 00:00:00 GMT', ...(gz ? { 'content-encoding': 'gzip' } : {}) });
      res.end(gz ? gzipSync(body) : body);
    });
    const result = await client(server.url).getWww('/files/company_tickers.json');
    expect(result).toMatchObject({ kind: 'ok', url: `${server.url}/files/company_tickers.json`, status: 200, etag: '"abc"', lastModified: 'Sat, 02 Aug 2025 00:00:00 GMT' });
    expect(result.kind === 'ok' && result.bytes.equals(body)).toBe(true);
    expect(server.seen[0]).toMatchObject({ path: '/files/company_tickers.json', ua: UA, acceptEncoding: 'gzip, deflate' });
  });

  it('conditional GET: sends the validators back, reads 304 as not_modified, and a 304 to a plain GET is an error', async () => {
    const asked: Array<{ ifNoneMatch?: string; ifModifiedSince?: string }> = [];
    server = await startServer((req, res) => {
      asked.push({ ifNoneMatch: req.headers['if-none-match'], ifModifiedSince: req.headers['if-modified-since'] });
      if (req.headers['if-none-match'] === '"v1"' || req.url === '/always-304') {
        res.writeHead(304);
        res.end();
        return;
      }
      res.writeHead(200, { etag: '"v1"', 'last-modified': 'Mon, 12 Jan 2026 16:28:50 GMT' });
      res.end('<feed/>');
    });
    const c = client(server.url);
    const first = await c.getWwwIfChanged('/feed', {});
    expect(first).toMatchObject({ kind: 'ok', etag: '"v1"', lastModified: 'Mon, 12 Jan 2026 16:28:50 GMT' });
    const second = await c.getWwwIfChanged('/feed', { etag: '"v1"', lastModified: 'Mon, 12 Jan 2026 16:28:50 GMT' });
    expect(second).toMatchObject({ kind: 'not_modified', status: 304 });
    expect(asked).toEqual([{}, { ifNoneMatch: '"v1"', ifModifiedSince: 'Mon, 12 Jan 2026 16:28:50 GMT' }]);
    await expect(c.getWww('/always-304')).rejects.toMatchObject({ code: 'EDGAR_HTTP_ERROR', status: 304 });
  });

  it('joins data.sec.gov paths onto the data base URL', async () => {
    server = await startServer((_req, res) => res.end('{}'));
    await client(server.url).getData('/submissions/CIK0000789019.json');
    expect(server.seen[0]?.path).toBe('/data/submissions/CIK0000789019.json');
  });

  it('returns a typed not_found for 404, without retrying', async () => {
    server = await startServer((_req, res) => { res.statusCode = 404; res.end('nope'); });
    const result = await client(server.url).getData('/submissions/CIK0000000001.json');
    expect(result).toMatchObject({ kind: 'not_found', status: 404 });
    expect(server.seen).toHaveLength(1);
  });

  it('retries 5xx with backoff, then succeeds', async () => {
    let n = 0;
    server = await startServer((_req, res) => { n += 1; res.statusCode = n <= 2 ? 503 : 200; res.end('ok'); });
    const warn = jest.fn();
    const logger: EdgarLogger = { info: jest.fn(), warn, debug: jest.fn() };
    const result = await client(server.url, { logger }).getWww('/x');
    expect(result.kind).toBe('ok');
    expect(server.seen).toHaveLength(3);
    expect(warn).toHaveBeenCalledTimes(2);
    // backoff 10 ms then 20 ms
    expect(server.seen[2]!.at - server.seen[0]!.at).toBeGreaterThanOrEqual(25);
  });

  it('gives up after maxAttempts with EDGAR_UNAVAILABLE', async () => {
    server = await startServer((_req, res) => { res.statusCode = 500; res.end(); });
    await expect(client(server.url, { maxAttempts: 3 }).getWww('/x')).rejects.toMatchObject({ code: 'EDGAR_UNAVAILABLE', status: 500 });
    expect(server.seen).toHaveLength(3);
  });

  it('retries network errors', async () => {
    let n = 0;
    server = await startServer((req, res) => { n += 1; if (n === 1) req.socket.destroy(); else res.end('ok'); });
    const result = await client(server.url).getWww('/x');
    expect(result.kind).toBe('ok');
    expect(server.seen).toHaveLength(2);
  });

  it('does not retry other 4xx', async () => {
    server = await startServer((_req, res) => { res.statusCode = 400; res.end(); });
    const error: unknown = await client(server.url).getWww('/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EdgarError);
    expect(error).toMatchObject({ code: 'EDGAR_HTTP_ERROR', status: 400 });
  });

  it.each([403, 429])('on %i pauses every request of the limiter for throttlePauseMs, then retries', async (status) => {
    let throttled = false;
    server = await startServer((req, res) => {
      if (req.url === '/throttled' && !throttled) { throttled = true; res.statusCode = status; res.end(); return; }
      res.end('ok');
    });
    const limiter = new RequestLimiter(10);
    const a = client(server.url, { budget: limiter, throttlePauseMs: 400 });
    const b = client(server.url, { budget: limiter, throttlePauseMs: 400 });
    const start = Date.now();
    const first = a.getWww('/throttled');
    // Let the throttled answer arrive, then ask for something else through another client.
    await new Promise((r) => setTimeout(r, 100));
    const other = b.getWww('/other');
    const [r1, r2] = await Promise.all([first, other]);
    expect(r1.kind).toBe('ok');
    expect(r2.kind).toBe('ok');
    const after = server.seen.slice(1);
    expect(after.map((s) => s.path).sort()).toEqual(['/other', '/throttled']);
    // Nothing reached the server during the pause, from either client.
    for (const s of after) expect(s.at - server.seen[0]!.at).toBeGreaterThanOrEqual(390);
    expect(Date.now() - start).toBeGreaterThanOrEqual(390);
  });

  it('fails with EDGAR_THROTTLED when SEC keeps refusing after maxThrottlePauses', async () => {
    server = await startServer((_req, res) => { res.statusCode = 403; res.end(); });
    await expect(client(server.url, { throttlePauseMs: 20, maxThrottlePauses: 2 }).getWww('/x')).rejects.toMatchObject({ code: 'EDGAR_THROTTLED' });
    expect(server.seen).toHaveLength(3);
  });

  it('keeps two clients on one limiter under maxRps together', async () => {
    server = await startServer((_req, res) => res.end('ok'));
    const limiter = new RequestLimiter(5);
    const a = client(server.url, { budget: limiter, maxRps: 5 });
    const b = client(server.url, { budget: limiter, maxRps: 5 });
    await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).getWww(`/r${i}`)));
    const times = server.seen.map((s) => s.at).sort((x, y) => x - y);
    // Any 6 consecutive starts span at least ~1 s when only 5 may start per second.
    for (let i = 5; i < times.length; i += 1) expect(times[i]! - times[i - 5]!).toBeGreaterThanOrEqual(950);
  });

  it('maxBytes: refuses a body over the limit, announced or streamed (gzip counted decoded), without retrying; at the limit it is read', async () => {
    const big = Buffer.alloc(5000, 'a');
    let chunkedSent = 0;
    server = await startServer((req, res) => {
      if (req.url === '/announced') { res.writeHead(200, { 'content-length': big.length }); res.end(big); return; }
      if (req.url === '/gzip') { res.writeHead(200, { 'content-encoding': 'gzip' }); res.end(gzipSync(big)); return; }
      // No Content-Length: chunks until the client stops reading (it must not read them all).
      res.writeHead(200);
      const more = () => {
        while (chunkedSent < 50_000_000 && res.write(Buffer.alloc(64 * 1024, 'b'))) chunkedSent += 64 * 1024;
        if (chunkedSent < 50_000_000) res.once('drain', more);
        else res.end();
      };
      res.on('close', () => res.removeAllListeners('drain'));
      more();
    });
    const c = client(server.url);
    for (const path of ['/announced', '/gzip', '/streamed']) {
      await expect(c.getWww(path, { maxBytes: 4096 })).rejects.toMatchObject({ code: 'EDGAR_TOO_LARGE', status: 200, url: `${server.url}${path}` });
    }
    expect(server.seen.map((s) => s.path)).toEqual(['/announced', '/gzip', '/streamed']);
    expect(chunkedSent).toBeLessThan(50_000_000);
    const exact = await c.getWww('/announced', { maxBytes: 5000 });
    expect(exact.kind === 'ok' && exact.bytes.equals(big)).toBe(true);
    const unlimited = await c.getWww('/gzip');
    expect(unlimited.kind === 'ok' && unlimited.bytes.length).toBe(5000);
  });

  it('refuses a User-Agent without a contact e-mail', () => {
    expect(() => client('http://127.0.0.1:1', { userAgent: 'curl/8' })).toThrow(RangeError);
  });
});
