import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultFixturesDir, startFixtureServer, type FixtureServer } from './fixture-server';

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

  it('answers 404 for anything else and records every request with its User-Agent', async () => {
    const res = await fetch(`${server.url}/submissions/CIK0000000001.json`, { headers: { 'User-Agent': 'Someone else@x.example' } });
    expect(res.status).toBe(404);
    expect(server.requests.at(-1)).toMatchObject({ path: '/submissions/CIK0000000001.json', userAgent: 'Someone else@x.example', status: 404 });
    expect(server.requests[0]).toMatchObject({ userAgent: 'Test ops@test.example', acceptEncoding: 'gzip', status: 200 });
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
