import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { FilingData, RecordEnvelope } from '@app/contracts';
import { createLogger } from '@app/observability';
import { projectRecords } from '@app/persistence';
import { freshnessSchema, type FreshnessBody } from '@app/resources';
import { createTestDatabase, type TestDatabase } from '@app/testing';
import type { ApiContext } from '../api.context';
import { buildApiServer } from '../api.server';
import { apiConfigSchema } from '../config/api.config';

// Filings found by the live poller (variants of the real MSFT example with another accession,
// form, source and times) projected by the projector's own projection, then read through the real
// api on Fastify. The stages after served come from webhook tables, covered by the repository's
// integration test; here they stay empty.
const example = JSON.parse(readFileSync(join(__dirname, '../../../../libs/contracts/src/examples/filing@1.msft-10-k.json'), 'utf8')) as RecordEnvelope<FilingData>;
const plus = (iso: string, seconds: number) => new Date(Date.parse(iso) + seconds * 1000).toISOString();

function found(n: number, form: string, acceptedAt: string, seenAfterSeconds: number): RecordEnvelope<FilingData> {
  const accession = `0000950170-26-${String(700000 + n)}`;
  return {
    ...example,
    key: accession,
    id: `rec_live_${n}`,
    observed_at: plus(acceptedAt, seenAfterSeconds),
    provenance: { ...example.provenance, accession },
    data: { ...example.data, accession, form, accepted_at: acceptedAt, source: 'latest_filings', items: [] },
  };
}

const base = '2026-01-06T15:00:00.000Z';
/** 8-Ks seen 1..4 s after acceptance (newest), then 10-Qs seen after 30 and 60 s (oldest). */
const live = [
  found(1, '10-Q', plus(base, 0), 30),
  found(2, '10-Q', plus(base, 60), 60),
  found(3, '8-K', plus(base, 120), 1),
  found(4, '8-K', plus(base, 180), 2),
  found(5, '8-K', plus(base, 240), 3),
  found(6, '8-K', plus(base, 300), 4),
];

let db: TestDatabase;
let a: { server: FastifyInstance; context: ApiContext };
let key: string;

const get = (url: string, k: string | null = key) => a.server.inject({ method: 'GET', url, headers: k ? { authorization: `Bearer ${k}` } : {} });

async function freshness(query = ''): Promise<FreshnessBody> {
  const r = await get(`/v1/status/freshness${query}`);
  expect([query, r.statusCode]).toEqual([query, 200]);
  const body = r.json<FreshnessBody>();
  // Every field is documented: the schema keeps the body whole (it strips what it does not declare).
  expect(freshnessSchema.parse(body)).toEqual(body);
  return body;
}

beforeAll(async () => {
  db = await createTestDatabase('api_freshness');
  a = await buildApiServer(
    apiConfigSchema.parse({
      DATABASE_URL: db.url,
      API_KEY_PEPPER: 'pepper-'.repeat(6),
      CURSOR_SECRET: 'cursor-'.repeat(6),
      DOCS_URL: 'https://docs.test.example',
      LOG_LEVEL: 'silent',
      PLAN_ENTERPRISE_BURST_PER_SECOND: '1000000',
      PLAN_ENTERPRISE_DAILY_QUOTA: '100000000',
    }),
    { logger: createLogger({ level: 'silent' }) },
  );
  const ds = a.context.dataSource;
  // The real example is a backfill (the submissions API): never counted.
  await projectRecords(ds, [example, ...live]);
  // Served 2 s after being seen: the projection stamps its own clock, set here to known times.
  for (const r of live) await ds.query(`UPDATE filing_freshness SET projected_at = $2 WHERE accession = $1`, [r.key, plus(r.observed_at, 2)]);
  await ds.query(`INSERT INTO accounts (id, name, plan) VALUES ('acct_e', 'e', 'enterprise')`);
  key = (await a.context.keys.createKey({ accountId: 'acct_e', mode: 'live', label: 't' })).key;
}, 120_000);

afterAll(async () => {
  await a?.server.close();
  await a?.context.close();
  await db?.drop();
});

describe('GET /v1/status/freshness', () => {
  it('the lags of the filings live discovery found, overall and per form; backfills are not counted', async () => {
    const before = Date.now();
    const b = await freshness();
    expect(Date.parse(b.measured_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(b.window).toEqual({ last: 200, form: null, filings: 6, oldest_accepted_at: plus(base, 0), newest_accepted_at: plus(base, 300) });
    // Seen after 1, 2, 3, 4, 30, 60 s: median 3.5; 95th percentile 0.75 of the way from 30 to 60.
    expect(b.lag_from_acceptance.first_seen).toEqual({ filings: 6, p50_seconds: 3.5, p95_seconds: 52.5 });
    expect(b.lag_from_acceptance.served).toEqual({ filings: 6, p50_seconds: 5.5, p95_seconds: 54.5 });
    // The pipeline's own part: served 2 s after first seen, whatever EDGAR's delay.
    expect(b.lag_from_first_seen.served).toEqual({ filings: 6, p50_seconds: 2, p95_seconds: 2 });
    expect(b.lag_from_first_seen.delivered).toEqual({ filings: 0, p50_seconds: null, p95_seconds: null });
    // No Kafka timestamps (projected straight from records), no webhook events: nothing reached those stages.
    for (const stage of ['published', 'event_created', 'first_attempt', 'delivered'] as const) {
      expect([stage, b.lag_from_acceptance[stage]]).toEqual([stage, { filings: 0, p50_seconds: null, p95_seconds: null }]);
    }
    expect(b.by_form.map((g) => [g.form, g.filings, g.lag_from_acceptance.first_seen])).toEqual([
      ['8-K', 4, { filings: 4, p50_seconds: 2.5, p95_seconds: 3.85 }],
      ['10-Q', 2, { filings: 2, p50_seconds: 45, p95_seconds: 58.5 }],
    ]);
  });

  it('last: the newest acceptances only; form: that form only, case-insensitive', async () => {
    const last2 = await freshness('?last=2');
    expect(last2.window).toMatchObject({ last: 2, filings: 2, oldest_accepted_at: plus(base, 240) });
    expect(last2.lag_from_acceptance.first_seen).toEqual({ filings: 2, p50_seconds: 3.5, p95_seconds: 3.95 });
    const tenQ = await freshness('?form=10-q&last=1');
    expect(tenQ.window).toEqual({ last: 1, form: '10-Q', filings: 1, oldest_accepted_at: plus(base, 60), newest_accepted_at: plus(base, 60) });
    expect(tenQ.by_form.map((g) => g.form)).toEqual(['10-Q']);
    expect(tenQ.lag_from_acceptance.first_seen).toEqual({ filings: 1, p50_seconds: 60, p95_seconds: 60 });
    const none = await freshness('?form=S-1');
    expect(none).toMatchObject({ window: { filings: 0, oldest_accepted_at: null }, by_form: [], lag_from_acceptance: { first_seen: { filings: 0, p50_seconds: null } } });
  });

  it('422 in the pydantic form for bad parameters, 401 without a key', async () => {
    const items = async (query: string) => {
      const r = await get(`/v1/status/freshness${query}`);
      expect([query, r.statusCode]).toEqual([query, 422]);
      return r.json<{ detail: Array<{ type: string; loc: unknown[] }> }>().detail.map((d) => [d.type, d.loc]);
    };
    expect(await items('?last=0')).toEqual([['greater_than_equal', ['query', 'last']]]);
    expect(await items('?last=1001&form=8-K%3B')).toEqual([
      ['less_than_equal', ['query', 'last']],
      ['string_pattern_mismatch', ['query', 'form']],
    ]);
    expect(await items('?last=ten')).toEqual([['int_parsing', ['query', 'last']]]);
    expect(await items('?form=')).toEqual([['string_too_short', ['query', 'form']]]);
    // Blanks around or instead of a form are refused, not trimmed to nothing.
    expect(await items('?form=%20')).toEqual([['string_pattern_mismatch', ['query', 'form']]]);
    expect(await items('?form=8-K%20')).toEqual([['string_pattern_mismatch', ['query', 'form']]]);
    const anonymous = await get('/v1/status/freshness', null);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['www-authenticate']).toMatch(/^Bearer/);
  });
});
