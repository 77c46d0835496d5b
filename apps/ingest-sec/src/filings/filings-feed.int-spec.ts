import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TOPICS, validateRecord, type FilingData, type RecordEnvelope, type TopicDefinition } from '@app/contracts';
import { EdgarClient, RequestLimiter } from '@app/edgar';
import { createLogger } from '@app/observability';
import { defaultFixturesDir, maxRequestsInAnyWindow, startFixtureServer } from '@app/testing';
import type { RecordPublisher } from '../ingest.providers';
import { FilingsBackfillService } from './filings-backfill.service';
import { FilingsLiveService } from './filings-live.service';
import { parseFilingsConfig } from './filings.config';

const UA = 'Filings Platform tests ops@filings.example';
const logger = createLogger({ level: 'silent' });

class ArrayPublisher implements RecordPublisher {
  readonly records: Array<RecordEnvelope<FilingData>> = [];
  publish(topic: TopicDefinition, records: readonly RecordEnvelope[]): Promise<void> {
    for (const r of records) {
      const v = validateRecord(topic, r);
      if (!v.ok) throw new Error(v.error);
    }
    this.records.push(...(records as Array<RecordEnvelope<FilingData>>));
    return Promise.resolve();
  }
}

// The real recorded feed, and the same feed as it stood `skip` entries earlier (its newest ones not yet there).
const realFeed = readFileSync(join(defaultFixturesDir(), 'feeds', 'getcurrent-atom-2026-01-12-count100-start0.xml')).toString('latin1');
const feedHead = realFeed.slice(0, realFeed.indexOf('<entry>'));
const feedEntries = realFeed.match(/<entry>[\s\S]*?<\/entry>\n/g)!;
const feedAsOf = (skip: number) => feedHead + feedEntries.slice(skip).join('') + '</feed>\n';
const accessionsOf = (entries: readonly string[]) => new Set(entries.map((e) => /accession-number=(\d{10}-\d{2}-\d{6})/.exec(e)![1]!));

interface SeenRequest { path: string; at: number; ifNoneMatch?: string; ifModifiedSince?: string; status: number }

/**
 * A fake www.sec.gov over real HTTP: the feed in its current state with its validators (honouring
 * If-None-Match and If-Modified-Since as EDGAR's web servers do), submissions for a backfill, and
 * 403s on demand.
 */
async function fakeSec() {
  const requests: SeenRequest[] = [];
  const state = { skip: 10, version: 1, forbidNext: 0 };
  const server: Server = createServer((req, res) => {
    const seen: SeenRequest = { path: req.url ?? '', at: Date.now(), status: 200 };
    if (req.headers['if-none-match']) seen.ifNoneMatch = String(req.headers['if-none-match']);
    if (req.headers['if-modified-since']) seen.ifModifiedSince = String(req.headers['if-modified-since']);
    requests.push(seen);
    const answer = (status: number, headers: Record<string, string> = {}, body = '') => {
      seen.status = status;
      res.writeHead(status, headers);
      res.end(body);
    };
    if (state.forbidNext > 0) {
      state.forbidNext -= 1;
      return answer(403, {}, 'Request Rate Threshold Exceeded');
    }
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/cgi-bin/browse-edgar' && url.searchParams.get('action') === 'getcurrent') {
      const etag = `"feed-v${state.version}"`;
      const lastModified = new Date(Date.UTC(2026, 0, 12, 16, 0, state.version)).toUTCString();
      if (req.headers['if-none-match'] === etag) return answer(304, { etag });
      const start = Number(url.searchParams.get('start') ?? 0);
      const body = start === 0 ? feedAsOf(state.skip) : feedHead + '</feed>\n';
      return answer(200, { 'content-type': 'application/atom+xml', etag, 'last-modified': lastModified }, body);
    }
    if (url.pathname.startsWith('/submissions/')) {
      return answer(200, { 'content-type': 'application/json' }, readFileSync(join(defaultFixturesDir(), 'submissions', 'CIK0001318605.json')).toString('utf8'));
    }
    return answer(404);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    state,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

let sec: Awaited<ReturnType<typeof fakeSec>>;
beforeEach(async () => { sec = await fakeSec(); });
afterEach(async () => { await sec.close(); });

function config(extra: Record<string, string> = {}) {
  return parseFilingsConfig({
    EDGAR_USER_AGENT: UA, EDGAR_WWW_BASE_URL: sec.url, EDGAR_DATA_BASE_URL: sec.url, KAFKA_BROKERS: '127.0.0.1:1',
    SEC_COVERAGE: 'all', FILINGS_CURRENT_FORMS: '8-K', LOG_LEVEL: 'silent',
    FILINGS_FEED_MIN_INTERVAL_MS: '250', FILINGS_FEED_MAX_INTERVAL_MS: '500', FILINGS_FEED_QUIET_INTERVAL_MS: '500',
    ...extra,
  });
}
const client = (budget: RequestLimiter, extra: { throttlePauseMs?: number } = {}) =>
  new EdgarClient({ userAgent: UA, wwwBaseUrl: sec.url, dataBaseUrl: sec.url, maxRps: 10, budget, maxAttempts: 1, ...extra });

describe('latest filings feed poller', () => {
  it('publishes each new filing once, with its acceptance time; answers 304 to its own validators; reads only what is new', async () => {
    const publisher = new ArrayPublisher();
    const live = new FilingsLiveService(config(), client(new RequestLimiter(10)), publisher, TOPICS.filings, logger);

    const first = await live.pollFeed();
    const older = accessionsOf(feedEntries.slice(10));
    expect(first).toMatchObject({ feed: 'ok', pages: 1, filings: older.size, new: older.size, published: older.size });
    // Each published filing is observed at the poller's two stages (the recorded feed is months old: the top bucket).
    const observed = (await live.freshness.get()).values.filter((v) => v.metricName === 'filing_freshness_seconds_count');
    expect(observed.map((v) => [v.labels.stage, v.value]).sort()).toEqual([['first_seen', older.size], ['published', older.size]]);
    expect(new Set(publisher.records.map((r) => r.key))).toEqual(older);
    const form4 = publisher.records.find((r) => r.key === '0000080661-26-000030');
    // A Form 4 is recorded under its issuer (the feed lists the reporting owner first); 11:22:01 EST is 16:22:01 UTC.
    expect(form4?.data).toMatchObject({ cik: '0000080661', form: '4', accepted_at: '2026-01-12T16:22:01.000Z', source: 'latest_filings' });

    const unchanged = await live.pollFeed();
    expect(unchanged).toMatchObject({ feed: 'not_modified', published: 0 });
    expect(sec.requests.at(-1)).toMatchObject({ ifNoneMatch: '"feed-v1"', ifModifiedSince: 'Mon, 12 Jan 2026 16:00:01 GMT', status: 304 });

    sec.state.skip = 0;
    sec.state.version = 2;
    const newer = await live.pollFeed();
    const fresh = [...accessionsOf(feedEntries.slice(0, 10))].filter((a) => !older.has(a));
    expect(newer).toMatchObject({ feed: 'ok', pages: 1, new: fresh.length, published: fresh.length });
    expect(publisher.records.slice(-fresh.length).map((r) => r.key).sort()).toEqual([...fresh].sort());
    expect(publisher.records).toHaveLength(accessionsOf(feedEntries).size);
  });

  it('reads the next page when a whole page is new (a burst since the last poll)', async () => {
    const publisher = new ArrayPublisher();
    const live = new FilingsLiveService(config(), client(new RequestLimiter(10)), publisher, TOPICS.filings, logger);
    sec.state.skip = 100; // an empty feed first: nothing accepted yet today
    expect(await live.pollFeed()).toMatchObject({ feed: 'ok', filings: 0, published: 0 });
    await live.pollFeed(); // still empty: 304
    sec.state.skip = 0;
    sec.state.version = 2;
    const burst = await live.pollFeed();
    // Nothing on page one was known, so page two (empty here) was read for what page one could not hold.
    expect(burst).toMatchObject({ pages: 2, new: 73, published: 73 });
    expect(sec.requests.filter((r) => r.path.includes('start=100'))).toHaveLength(1);
  });

  it('covered filers only (an N-PORT report whoever files it); the issuer of a Form 4 covers it', async () => {
    const publisher = new ArrayPublisher();
    const live = new FilingsLiveService(config({ SEC_COVERAGE: '80661,1069202' }), client(new RequestLimiter(10)), publisher, TOPICS.filings, logger);
    sec.state.skip = 0;
    await live.pollFeed();
    expect([...new Set(publisher.records.map((r) => r.data.cik))].sort()).toEqual(['0000080661', '0001069202']);
  });

  it('keeps pace inside the shared budget with a backfill saturating it: discovery first, never more than 10 requests in a second', async () => {
    const budget = new RequestLimiter(10);
    const publisher = new ArrayPublisher();
    const live = new FilingsLiveService(config({ FILINGS_POLL_INTERVAL_S: '3600' }), client(budget), publisher, TOPICS.filings, logger);
    const backfill = new FilingsBackfillService(client(budget), new ArrayPublisher(), TOPICS.filings, logger);
    const running = live.run();
    const companies = Array.from({ length: 40 }, (_, i) => String(1318605 + i));
    const started = Date.now();
    await backfill.execute({ companies, from: '2025-01-01', to: '2025-12-31' });
    live.stop();
    await running;
    const elapsed = Date.now() - started;
    const feedPolls = sec.requests.filter((r) => r.path.startsWith('/cgi-bin/browse-edgar') && r.at >= started);
    // The feed was quiet after its first answer: one poll per 500 ms at most, each granted ahead of the backfill's queue.
    expect(feedPolls.length).toBeGreaterThanOrEqual(Math.floor(elapsed / 500) - 2);
    expect(maxRequestsInAnyWindow(sec.requests, 1000)).toBeLessThanOrEqual(10);
    expect(budget.stats.grants.backfill).toBe(40);
  });

  it('a 403 pauses every request of the budget, the feed and the backfill alike, then polling resumes', async () => {
    const budget = new RequestLimiter(10);
    const publisher = new ArrayPublisher();
    const pauseMs = 1500;
    const live = new FilingsLiveService(config({ FILINGS_POLL_INTERVAL_S: '3600' }), client(budget, { throttlePauseMs: pauseMs }), publisher, TOPICS.filings, logger);
    const backfill = new FilingsBackfillService(client(budget, { throttlePauseMs: pauseMs }), new ArrayPublisher(), TOPICS.filings, logger);
    sec.state.forbidNext = 1;
    const running = live.run();
    const backfilled = backfill.execute({ companies: ['1318605', '1318606', '1318607'], from: '2025-01-01', to: '2025-12-31' });
    await backfilled;
    await new Promise((r) => setTimeout(r, 800));
    live.stop();
    await running;
    const forbidden = sec.requests.find((r) => r.status === 403)!;
    const after = sec.requests.filter((r) => r.at > forbidden.at);
    // Nothing reached SEC during the pause (a request already in flight aside), then the feed and the backfill went on.
    expect(after.filter((r) => r.at < forbidden.at + pauseMs - 50)).toEqual([]);
    expect(after.some((r) => r.path.startsWith('/cgi-bin/browse-edgar'))).toBe(true);
    expect(after.filter((r) => r.path.startsWith('/submissions/'))).toHaveLength(3);
    expect(budget.stats.throttles).toBe(1);
    expect(publisher.records.length).toBeGreaterThan(0);
  });
});

describe('latest filings feed poller on a simulated EDGAR clock', () => {
  it('finds each filing once, within seconds of its showing on the feed, with its acceptance time', async () => {
    const delays = { feedMs: 1500, listingMs: 1500, indexMs: 0, dailyIndex: 'night' as const };
    const day = await startFixtureServer({ day: { delays, schedule: { kind: 'peak', burstCount: 12, burstMs: 3000, tailPerMinute: 30, tailMs: 4000 } } });
    try {
      const budget = new RequestLimiter(10);
      const publisher = new ArrayPublisher();
      const edgarOfDay = new EdgarClient({ userAgent: UA, wwwBaseUrl: day.url, dataBaseUrl: day.url, maxRps: 10, budget, maxAttempts: 1 });
      const dayConfig = parseFilingsConfig({
        EDGAR_USER_AGENT: UA, EDGAR_WWW_BASE_URL: day.url, EDGAR_DATA_BASE_URL: day.url, KAFKA_BROKERS: '127.0.0.1:1',
        SEC_COVERAGE: 'all', FILINGS_CURRENT_FORMS: '8-K', LOG_LEVEL: 'silent', FILINGS_POLL_INTERVAL_S: '3600',
        FILINGS_FEED_MIN_INTERVAL_MS: '1000', FILINGS_FEED_MAX_INTERVAL_MS: '2000', FILINGS_FEED_QUIET_INTERVAL_MS: '2000',
      });
      const live = new FilingsLiveService(dayConfig, edgarOfDay, publisher, TOPICS.filings, logger);
      const firstSeen = new Map<string, number>();
      const publish = publisher.publish.bind(publisher);
      publisher.publish = async (topic, records) => {
        for (const r of records) firstSeen.set(r.key, Date.now());
        return publish(topic, records);
      };
      const running = live.run();
      const filings = day.day!.filings;
      const lastVisible = Math.max(...filings.map((f) => f.visibleAt.feed));
      await new Promise((r) => setTimeout(r, lastVisible - Date.now() + 3000));
      live.stop();
      await running;

      expect(publisher.records.map((r) => r.key).sort()).toEqual(filings.map((f) => f.accession).sort());
      for (const f of filings) {
        const record = publisher.records.find((r) => r.key === f.accession)!;
        // The feed prints the acceptance second.
        expect(Date.parse(record.data.accepted_at!)).toBe(Math.floor(f.acceptedAt / 1000) * 1000);
        expect(record.data.source).toBe('latest_filings');
        const lag = firstSeen.get(f.accession)! - f.visibleAt.feed;
        expect(lag).toBeGreaterThanOrEqual(0);
        // At most one 2 s wait plus the request.
        expect(lag).toBeLessThan(2600);
      }
      const feedAsks = day.requests.filter((r) => r.path === '/cgi-bin/browse-edgar');
      expect(feedAsks.some((r) => r.status === 304)).toBe(true);
      expect(maxRequestsInAnyWindow(day.requests, 1000)).toBeLessThanOrEqual(10);
    } finally {
      await day.close();
    }
  });
});

describe('index loop on a simulated EDGAR clock', () => {
  it("gives today's listing rows the feed did not show their acceptance time from the index page, within the lookup budget", async () => {
    // The listings show every filing at once; the feed much later (not within the test).
    const day = await startFixtureServer({ day: { durationMs: 1000, delays: { listingMs: 0, feedMs: 600_000, dailyIndex: 'night' } } });
    try {
      const publisher = new ArrayPublisher();
      const dayConfig = parseFilingsConfig({
        EDGAR_USER_AGENT: UA, EDGAR_WWW_BASE_URL: day.url, EDGAR_DATA_BASE_URL: day.url, KAFKA_BROKERS: '127.0.0.1:1',
        SEC_COVERAGE: 'all', FILINGS_CURRENT_FORMS: '8-K,4', LOG_LEVEL: 'silent', FILINGS_ACCEPTANCE_LOOKUPS: '5',
      });
      const live = new FilingsLiveService(dayConfig, new EdgarClient({ userAgent: UA, wwwBaseUrl: day.url, dataBaseUrl: day.url, maxRps: 10, budget: new RequestLimiter(10), maxAttempts: 1 }), publisher, TOPICS.filings, logger);
      await new Promise((r) => setTimeout(r, day.day!.endAt - Date.now() + 100));
      // The listings of the two forms asked; the form index comes out only after the feed (night).
      const listed = day.day!.filings.filter((f) => f.form === '8-K' || f.form === '4');
      const summary = await live.poll();
      expect(summary).toMatchObject({ published: listed.length, acceptanceLookups: 5, acceptanceMissing: 0 });
      const dated = publisher.records.filter((r) => r.data.accepted_at !== null);
      expect(dated).toHaveLength(5);
      for (const r of dated) {
        const f = listed.find((x) => x.accession === r.key)!;
        // The index page prints the acceptance second, New York time.
        expect(Date.parse(r.data.accepted_at!)).toBe(Math.floor(f.acceptedAt / 1000) * 1000);
        expect(r.data.source).toBe('current_events');
      }
      expect(await live.poll()).toMatchObject({ published: 0, duplicates: listed.length, acceptanceLookups: 0 });
    } finally {
      await day.close();
    }
  });
});
