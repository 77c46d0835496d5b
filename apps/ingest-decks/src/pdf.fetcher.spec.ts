import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { assertPublicUrl } from '@app/net';
import { MAX_REDIRECTS, PdfFetcher, type PdfFetcherOptions } from './pdf.fetcher';

const PDF = Buffer.from('%PDF-1.4\n%fake but starts right\n');

/** A tiny server: redirects, and bodies under the content types servers really send. */
function startServer(): Promise<{ url: string; paths: string[]; close: () => Promise<void> }> {
  const paths: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    paths.push(path);
    const redirect = (status: number, location: string) => res.writeHead(status, { location }).end();
    if (path === '/r1') return redirect(302, '/r2');
    if (path === '/r2') return redirect(301, `${base}/typed/binary/octet-stream`);
    if (path === '/to-localhost') return redirect(302, `http://localhost:${port}/typed/application/pdf`);
    if (path === '/to-metadata') return redirect(307, 'http://169.254.169.254/latest/meta-data/deck.pdf');
    if (path === '/to-ftp') return redirect(302, 'ftp://files.example/deck.pdf');
    if (path === '/loop') return redirect(302, '/loop');
    if (path === '/html-as-pdf') return res.writeHead(200, { 'content-type': 'application/pdf' }).end('<html>not a pdf</html>');
    if (path.startsWith('/typed/')) return res.writeHead(200, { 'content-type': path.slice('/typed/'.length) }).end(PDF);
    res.writeHead(404).end();
  });
  let port = 0;
  let base = '';
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      port = (server.address() as AddressInfo).port;
      base = `http://127.0.0.1:${port}`;
      resolve({ url: base, paths, close: () => new Promise<void>((done) => server.close(() => done())) });
    });
  });
}

describe('PdfFetcher', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.close();
  });

  const fetcher = (options: Partial<PdfFetcherOptions> = {}) => new PdfFetcher({ userAgent: 'Tests ops@tests.example', timeoutMs: 5_000, maxBytes: 1_000_000, allowPrivate: true, ...options });
  /** Lets the test server's own address through, checks every other hop for real. */
  const onlyTheTestServer = (url: string) => (new URL(url).hostname === '127.0.0.1' ? Promise.resolve() : assertPublicUrl(url, { allowPrivate: false }));
  const requested = async (run: () => Promise<unknown>): Promise<string[]> => {
    const before = server.paths.length;
    await run().catch(() => undefined);
    return server.paths.slice(before);
  };

  it('follows relative and absolute redirects itself, keeping the URL asked for', async () => {
    const paths = await requested(async () => {
      await expect(fetcher().fetch(`${server.url}/r1`)).resolves.toMatchObject({ url: `${server.url}/r1`, contentType: 'binary/octet-stream', bytes: new Uint8Array(PDF) });
    });
    expect(paths).toEqual(['/r1', '/r2', '/typed/binary/octet-stream']);
  });

  it('refuses a first URL on a non-public address before connecting, unless allowPrivate', async () => {
    const paths = await requested(async () => {
      await expect(fetcher({ allowPrivate: false }).fetch(`${server.url}/typed/application/pdf`)).rejects.toMatchObject({
        kind: 'non_public_address',
        message: expect.stringMatching(/resolves to 127\.0\.0\.1/) as unknown,
      });
    });
    expect(paths).toEqual([]);
  });

  it.each([
    ['/to-localhost', /\(redirected to http:\/\/localhost:\d+\/typed\/application\/pdf\): .* resolves to (127\.0\.0\.1|::1)/],
    ['/to-metadata', /\(redirected to http:\/\/169\.254\.169\.254\/latest\/meta-data\/deck\.pdf\): .* resolves to 169\.254\.169\.254/],
  ])('checks every redirect hop: %s is refused', async (path, message) => {
    const paths = await requested(async () => {
      await expect(fetcher({ allowPrivate: false, assertUrl: onlyTheTestServer }).fetch(`${server.url}${path}`)).rejects.toMatchObject({ kind: 'non_public_address', message: expect.stringMatching(message) as unknown });
    });
    expect(paths).toEqual([path]);
  });

  it(`gives up after ${MAX_REDIRECTS} redirects, and on a redirect to another scheme`, async () => {
    const paths = await requested(async () => {
      await expect(fetcher().fetch(`${server.url}/loop`)).rejects.toMatchObject({ kind: 'http_error', message: expect.stringMatching(/more than 5 redirects$/) as unknown });
    });
    expect(paths).toHaveLength(MAX_REDIRECTS + 1);
    await expect(fetcher().fetch(`${server.url}/to-ftp`)).rejects.toMatchObject({ kind: 'http_error', message: expect.stringMatching(/redirects to ftp: URL/) as unknown });
  });

  it.each(['application/pdf', 'application/x-pdf', 'application/octet-stream', 'binary/octet-stream'])('accepts a PDF served as %s', async (type) => {
    await expect(fetcher().fetch(`${server.url}/typed/${type}`)).resolves.toMatchObject({ contentType: type });
  });

  it('rejects other media types, and a body that is not a PDF whatever its type says', async () => {
    await expect(fetcher().fetch(`${server.url}/typed/text/html`)).rejects.toMatchObject({ kind: 'content_type' });
    await expect(fetcher().fetch(`${server.url}/html-as-pdf`)).rejects.toMatchObject({ kind: 'not_pdf', message: expect.stringMatching(/does not start with %PDF-$/) as unknown });
  });
});
