import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebhookSender, type SendOptions } from './webhook.sender';

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

describe('WebhookSender (loopback receiver)', () => {
  let server: Server;
  let port: number;
  const received: Received[] = [];
  let answer: (req: IncomingMessage, res: import('node:http').ServerResponse) => void;
  const senders: WebhookSender[] = [];
  const sender = (options: Partial<SendOptions> = {}): WebhookSender => {
    const s = new WebhookSender({ timeoutMs: 2_000, allowHttp: true, allowPrivateHosts: true, maxSockets: 4, ...options });
    senders.push(s);
    return s;
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        answer(req, res);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  beforeEach(() => {
    received.length = 0;
    answer = (_req, res) => res.writeHead(204).end();
  });
  afterEach(() => senders.splice(0).forEach((s) => s.close()));
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('POSTs the exact body (multi-byte characters counted in content-length) with the given headers, path and query', async () => {
    const body = '{"data":"Société Générale — 10-K"}';
    const result = await sender().send(`http://127.0.0.1:${port}/hooks/in?x=1`, { 'webhook-id': 'evt_1', 'content-type': 'application/json' }, body);
    expect(result).toMatchObject({ statusCode: 204, error: null });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'POST', url: '/hooks/in?x=1', body });
    expect(received[0]!.headers).toMatchObject({ 'webhook-id': 'evt_1', 'content-length': String(Buffer.byteLength(body)) });
  });

  it('keeps the first KB of the response body, its status and Retry-After', async () => {
    answer = (_req, res) => res.writeHead(429, { 'retry-after': '7' }).end('x'.repeat(5000));
    const result = await sender().send(`http://127.0.0.1:${port}/`, {}, '{}');
    expect(result).toMatchObject({ statusCode: 429, retryAfter: '7', error: null });
    expect(result.body).toHaveLength(1024);
  });

  it('does not follow a redirect', async () => {
    answer = (_req, res) => res.writeHead(302, { location: `http://127.0.0.1:${port}/elsewhere` }).end();
    const result = await sender().send(`http://127.0.0.1:${port}/`, {}, '{}');
    expect(result.statusCode).toBe(302);
    expect(received.map((r) => r.url)).toEqual(['/']);
  });

  it('gives up after the timeout with no status', async () => {
    answer = () => undefined; // never answers
    const result = await sender({ timeoutMs: 300 }).send(`http://127.0.0.1:${port}/`, {}, '{}');
    expect(result).toMatchObject({ statusCode: null, error: 'timeout after 300 ms' });
    expect(result.durationMs).toBeGreaterThanOrEqual(290);
  });

  it('refuses plain http unless allowed, and a URL that does not parse, without a request', async () => {
    expect(await sender({ allowHttp: false }).send(`http://127.0.0.1:${port}/`, {}, '{}')).toMatchObject({
      statusCode: null,
      error: 'refused: http: URLs are not allowed (https only)',
    });
    expect((await sender().send('not a url', {}, '{}')).error).toBe('invalid URL not a url');
    expect((await sender().send('not a url?token=t0ken&api_key=sk_live_abc', {}, '{}')).error).toBe('invalid URL not a url?token=[redacted]&api_key=[redacted]');
    expect(received).toHaveLength(0);
  });

  it('refuses a loopback IP literal before the request and a name resolving to loopback at connect time, sending nothing', async () => {
    const strict = sender({ allowPrivateHosts: false });
    const literal = await strict.send(`http://127.0.0.1:${port}/`, {}, '{}');
    expect(literal.statusCode).toBeNull();
    expect(literal.error).toMatch(/^refused: .* resolves to 127\.0\.0\.1, a loopback/);
    // The URL it names, without the secrets a subscriber put in it.
    const withToken = await strict.send(`http://user:pw@127.0.0.1:${port}/in?token=t0ken`, {}, '{}');
    expect(withToken.error).toBe(`refused: http://user:[redacted]@127.0.0.1:${port}/in?token=[redacted] resolves to 127.0.0.1, a loopback, private, link-local or other special-use address`);
    const named = await strict.send(`http://localhost:${port}/`, {}, '{}');
    expect(named.statusCode).toBeNull();
    expect(named.error).toMatch(/^refused: localhost resolves to (127\.0\.0\.1|::1), a loopback/);
    // Other spellings of loopback are IP literals once parsed: refused before the request too.
    for (const host of ['[::1]', '[::ffff:127.0.0.1]', '2130706433', '0x7f.1', '127.0.0.1.']) {
      expect((await strict.send(`http://${host}:${port}/`, {}, '{}')).error).toMatch(/^refused: .* a loopback/);
    }
    // Asked again (a new connection each time: none was ever made), refused again.
    expect((await strict.send(`http://localhost:${port}/again`, {}, '{}')).error).toMatch(/^refused: /);
    expect(received).toHaveLength(0);
  });
});
