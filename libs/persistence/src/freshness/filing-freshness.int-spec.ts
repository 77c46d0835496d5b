// @infra-path: its SQL runs on the server's own Postgres: docker-compose.yml's postgres:17 in containers, the machine's (15 on CI) locally.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { webhookEventId, type FilingData, type RecordEnvelope } from '@app/contracts';
import { createTestDatabase, type TestDatabase } from '@app/testing';
import { createDataSource } from '../data-source';
import { projectFilings } from '../filings/filing.projection';
import { WebhookEventsRepository } from '../webhooks/webhook-events.repository';
import { FilingFreshnessRepository } from './filing-freshness.repository';

const example = JSON.parse(readFileSync(join(__dirname, '../../../contracts/src/examples/filing@1.msft-10-k.json'), 'utf8')) as RecordEnvelope<FilingData>;

/** A variant of the real example: another accession, form, source, acceptance and observation time. */
function filing(n: number, data: Partial<FilingData>, observedAt: string): RecordEnvelope<FilingData> {
  const accession = `0000950170-25-${String(800000 + n)}`;
  return { ...example, key: accession, id: `rec_${n}_${observedAt}`, observed_at: observedAt, provenance: { ...example.provenance, accession }, data: { ...example.data, accession, ...data } };
}
const plus = (iso: string, seconds: number) => new Date(Date.parse(iso) + seconds * 1000).toISOString();

let db: TestDatabase;
let ds: DataSource;

beforeAll(async () => {
  db = await createTestDatabase('freshness');
  ds = createDataSource({ url: db.url });
  await ds.initialize();
}, 60_000);

afterAll(async () => {
  await ds?.destroy();
  await db?.drop();
});

const freshnessRow = async (accession: string) =>
  (await ds.query<Array<Record<string, unknown>>>(`SELECT * FROM filing_freshness WHERE accession = $1`, [accession]))[0];

describe('filing_freshness, written by the filings projection', () => {
  const accepted = '2025-07-30T20:11:40.000Z';

  it('records live sightings only: a backfill (submissions) or a record without acceptance time makes no row', async () => {
    const backfill = filing(1, { source: 'submissions', accepted_at: accepted }, plus(accepted, 3600));
    const noAcceptance = filing(2, { source: 'current_events', accepted_at: null }, plus(accepted, 2));
    const outcome = await ds.transaction((m) => projectFilings(m, [backfill, noAcceptance], [new Date(), new Date()]));
    expect(outcome.inserted).toEqual([backfill.key, noAcceptance.key]);
    expect(outcome.firstServed).toEqual([]);
    expect(await freshnessRow(backfill.key)).toBeUndefined();
    expect(await freshnessRow(noAcceptance.key)).toBeUndefined();
  });

  it('the first projection makes the row; the earliest sighting wins, later ones change nothing', async () => {
    const feed = filing(3, { source: 'latest_filings', accepted_at: accepted }, plus(accepted, 1.5));
    const produced = new Date(plus(accepted, 1.7));
    const before = Date.now();
    const first = await ds.transaction((m) => projectFilings(m, [feed], [produced]));
    expect(first.firstServed).toEqual([{ accession: feed.key, acceptedAt: new Date(accepted), projectedAt: expect.any(Date) }]);
    const row = await freshnessRow(feed.key);
    expect(row).toMatchObject({
      cik: '0000789019',
      form: '10-K',
      accepted_at: new Date(accepted),
      first_seen_at: new Date(plus(accepted, 1.5)),
      first_seen_source: 'latest_filings',
      published_at: produced,
    });
    expect((row!.projected_at as Date).getTime()).toBeGreaterThanOrEqual(before - 1000);

    // Seen later by the current events listing: nothing moves, and it is not served "again".
    const later = filing(3, { source: 'current_events', accepted_at: accepted }, plus(accepted, 9));
    expect((await ds.transaction((m) => projectFilings(m, [later], [new Date()]))).firstServed).toEqual([]);
    expect(await freshnessRow(feed.key)).toEqual(row);

  });

  it('times only a filing the batch made: one served before (backfilled, then found live) gets no row', async () => {
    const backfilled = filing(4, { source: 'submissions', accepted_at: accepted }, plus(accepted, 3600));
    await ds.transaction((m) => projectFilings(m, [backfilled], [new Date()]));
    const foundLive = filing(4, { source: 'latest_filings', accepted_at: accepted }, plus(accepted, 7200));
    expect((await ds.transaction((m) => projectFilings(m, [foundLive], [new Date()]))).firstServed).toEqual([]);
    expect(await freshnessRow(backfilled.key)).toBeUndefined();
  });

  it('within one batch the earliest sighting is the first seen', async () => {
    const listing = filing(5, { source: 'current_events', accepted_at: accepted }, plus(accepted, 1.1));
    const feed = filing(5, { source: 'latest_filings', accepted_at: accepted }, plus(accepted, 1.5));
    await ds.transaction((m) => projectFilings(m, [feed, listing], [new Date(), new Date()]));
    expect(await freshnessRow(feed.key)).toMatchObject({ first_seen_at: new Date(plus(accepted, 1.1)), first_seen_source: 'current_events' });
  });
});

describe('FilingFreshnessRepository.window', () => {
  const repo = () => new FilingFreshnessRepository(ds);
  const base = '2026-01-05T14:00:00.000Z';
  /** Eight-Ks accepted a minute apart, first seen 1..5 s after acceptance; two older 10-Ks seen after 10 and 20 s. */
  const eightKs = [1, 2, 3, 4, 5].map((lag, i) => ({ n: 100 + i, form: '8-K', acceptedAt: plus(base, 60 * (i + 10)), lag }));
  const tenKs = [10, 20].map((lag, i) => ({ n: 200 + i, form: '10-K', acceptedAt: plus(base, 60 * i), lag }));

  beforeAll(async () => {
    await ds.query(`DELETE FROM filing_freshness`);
    const all = [...eightKs, ...tenKs];
    const records = all.map((f) => filing(f.n, { source: 'latest_filings', form: f.form, accepted_at: f.acceptedAt, items: [] }, plus(f.acceptedAt, f.lag)));
    // Published 0.5 s after being seen; served (set below) 1 s after.
    await ds.transaction((m) => projectFilings(m, records, all.map((f) => new Date(plus(f.acceptedAt, f.lag + 0.5)))));
    for (const f of all) await ds.query(`UPDATE filing_freshness SET projected_at = $2 WHERE accession = $1`, [filing(f.n, {}, base).key, plus(f.acceptedAt, f.lag + 1)]);

    // Events of the two newest 8-Ks, with the real ids, created 3.5 s after acceptance; each delivered to two endpoints.
    await ds.query(`INSERT INTO accounts (id, name, plan) VALUES ('acct_f', 'f', 'builder')`);
    await ds.query(
      `INSERT INTO webhook_endpoints (id, account_id, url, topics) VALUES
         ('we_f1', 'acct_f', 'https://example.com/1', ARRAY['filing.created']), ('we_f2', 'acct_f', 'https://example.com/2', ARRAY['filing.created'])`,
    );
    for (const f of eightKs.slice(3)) {
      const accession = filing(f.n, {}, base).key;
      const id = webhookEventId('filing.created', accession);
      await new WebhookEventsRepository(ds).insertEvents([
        { id, type: 'filing.created', entityKey: accession, data: {}, sourceTopic: 'edgar.filings.v1', sourceRecordId: 'rec', sourceProducedAt: null },
      ]);
      await ds.query(`UPDATE webhook_events SET created_at = $2 WHERE id = $1`, [id, plus(f.acceptedAt, 3.5)]);
      // First attempts at +4 s (we_f1) and +4.5 s (we_f2), a retry of we_f2 at +7 s; delivered at +5 s (we_f1) and +8 s (we_f2).
      await ds.query(
        `INSERT INTO webhook_attempts (delivery_id, attempt, sent_at, status_code, duration_ms)
         SELECT d.id, a.attempt, $2::timestamptz + a.after * interval '1 second', 200, 10
           FROM webhook_deliveries d JOIN (VALUES ('we_f1', 1, 4.0), ('we_f2', 1, 4.5), ('we_f2', 2, 7.0)) AS a(endpoint_id, attempt, after) ON a.endpoint_id = d.endpoint_id
          WHERE d.event_id = $1`,
        [id, f.acceptedAt],
      );
      await ds.query(
        `UPDATE webhook_deliveries SET status = 'succeeded', succeeded_at = $2::timestamptz + (CASE endpoint_id WHEN 'we_f1' THEN 5 ELSE 8 END) * interval '1 second' WHERE event_id = $1`,
        [id, f.acceptedAt],
      );
    }
  });

  it('percentile_cont of each stage over the window, overall and per form', async () => {
    const w = await repo().window(200);
    expect(w).toMatchObject({ filings: 7, oldestAcceptedAt: new Date(tenKs[0]!.acceptedAt), newestAcceptedAt: new Date(eightKs[4]!.acceptedAt) });
    // Lags 1, 2, 3, 4, 5, 10, 20: the median is 4; the 95th percentile lies 0.7 of the way from 10 to 20.
    expect(w.overall.stages.first_seen).toEqual({ filings: 7, p50: 4, p95: 17 });
    expect(w.overall.stages.published).toEqual({ filings: 7, p50: 4.5, p95: 17.5 });
    expect(w.overall.stages.served).toEqual({ filings: 7, p50: 5, p95: 18 });
    // From first seen: published 0.5 s and served 1 s after it, whatever the detection lag.
    expect(w.overall.sinceSeen.published).toEqual({ filings: 7, p50: 0.5, p95: 0.5 });
    expect(w.overall.sinceSeen.served).toEqual({ filings: 7, p50: 1, p95: 1 });
    expect(w.byForm.map((g) => [g.form, g.sinceSeen.served])).toEqual([['8-K', { filings: 5, p50: 1, p95: 1 }], ['10-K', { filings: 2, p50: 1, p95: 1 }]]);
    // Only the two 8-Ks with an event: 3.5 s each; first attempt to any endpoint 4 s; first delivery 5 s.
    expect(w.overall.stages.event_created).toEqual({ filings: 2, p50: 3.5, p95: 3.5 });
    expect(w.overall.stages.first_attempt).toEqual({ filings: 2, p50: 4, p95: 4 });
    expect(w.overall.stages.delivered).toEqual({ filings: 2, p50: 5, p95: 5 });
    expect(w.byForm.map((g) => [g.form, g.filings, g.stages.first_seen])).toEqual([
      ['8-K', 5, { filings: 5, p50: 3, p95: 4.8 }],
      ['10-K', 2, { filings: 2, p50: 15, p95: 19.5 }],
    ]);
  });

  it('last N: the newest acceptances only; form: that form only', async () => {
    const last3 = await repo().window(3);
    expect(last3).toMatchObject({ filings: 3, oldestAcceptedAt: new Date(eightKs[2]!.acceptedAt) });
    expect(last3.overall.stages.first_seen).toEqual({ filings: 3, p50: 4, p95: 4.9 });
    const tenK = await repo().window(200, '10-K');
    expect(tenK.filings).toBe(2);
    expect(tenK.byForm.map((g) => g.form)).toEqual(['10-K']);
    expect(tenK.overall.stages.first_seen).toEqual({ filings: 2, p50: 15, p95: 19.5 });
    expect(tenK.overall.stages.delivered).toEqual({ filings: 0, p50: null, p95: null });
    const none = await repo().window(200, 'S-1');
    expect(none).toMatchObject({ filings: 0, oldestAcceptedAt: null, newestAcceptedAt: null, byForm: [] });
    expect(none.overall.stages.served).toEqual({ filings: 0, p50: null, p95: null });
  });
});
