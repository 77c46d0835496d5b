import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EdgarClient, RequestLimiter } from '@app/edgar';
import { fetchCompleteSubmission, SUBMISSION_ASSEMBLY_MS, SUBMISSION_RETRY_MS } from './complete-submission.fetcher';

describe('fetchCompleteSubmission', () => {
  const UA = 'Filings Platform tests ops@filings.example';
  let server: Server;
  let asked = 0;
  let servedFrom = 0;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      asked += 1;
      if (asked < servedFrom) res.writeHead(404).end();
      else res.writeHead(200).end('<SEC-DOCUMENT>');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  const edgar = () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return new EdgarClient({ userAgent: UA, wwwBaseUrl: url, dataBaseUrl: url, maxRps: 10, budget: new RequestLimiter(10), maxAttempts: 1 });
  };
  // A fake clock: each wait moves it on.
  const clock = (start: number) => {
    let t = start;
    return { now: () => t, sleep: (ms: number) => Promise.resolve(void (t += ms)), elapsed: () => t - start };
  };

  it("waits out a recent filing's 404 (EDGAR assembles the .txt after the directory), then reads it", async () => {
    asked = 0;
    servedFrom = 4;
    const accepted = Date.parse('2026-11-28T21:00:00Z');
    const c = clock(accepted + 20_000);
    const r = await fetchCompleteSubmission(edgar(), '0000320193', '0000320193-26-000001', 1_000_000, { acceptedAt: new Date(accepted).toISOString(), ...c });
    expect(r.kind).toBe('ok');
    expect(asked).toBe(4);
    expect(c.elapsed()).toBe(3 * SUBMISSION_RETRY_MS);
  });

  it('gives up SUBMISSION_ASSEMBLY_MS after acceptance, and at once for an old or undated filing', async () => {
    asked = 0;
    servedFrom = Infinity;
    const accepted = Date.parse('2026-11-28T21:00:00Z');
    const c = clock(accepted + 20_000);
    expect((await fetchCompleteSubmission(edgar(), '0000320193', '0000320193-26-000001', 1_000_000, { acceptedAt: new Date(accepted).toISOString(), ...c })).kind).toBe('not_found');
    expect(c.elapsed()).toBeLessThanOrEqual(SUBMISSION_ASSEMBLY_MS - 20_000);
    expect(c.elapsed()).toBeGreaterThan(SUBMISSION_ASSEMBLY_MS - 20_000 - 2 * SUBMISSION_RETRY_MS);
    asked = 0;
    expect((await fetchCompleteSubmission(edgar(), '0000320193', '0000320193-26-000001', 1_000_000, { acceptedAt: '2020-03-18T20:00:00Z' })).kind).toBe('not_found');
    expect((await fetchCompleteSubmission(edgar(), '0000320193', '0000320193-26-000001', 1_000_000)).kind).toBe('not_found');
    expect(asked).toBe(2);
  });
});
