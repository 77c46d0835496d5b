// @infra-path: the only spec of its repository's SQL (libs/persistence): docker-compose.yml's postgres:17 in containers, the machine's (15 on CI) locally.
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { FilingData, RecordEnvelope } from '@app/contracts';
import { createLogger } from '@app/observability';
import { FEED_SETTLE_SECONDS, projectFilings } from '@app/persistence';
import { createTestDatabase, type TestDatabase } from '@app/testing';
import { SecretBox } from '@app/webhooks';
import type { ApiContext } from '../api.context';
import { buildApiServer } from '../api.server';
import { apiConfigSchema } from '../config/api.config';
import { filterHash } from '../platform/cursor.codec';

const DOCS = 'https://docs.test.example';
const SECRETS_KEY = 'ab'.repeat(32);
const example = JSON.parse(
  readFileSync(join(__dirname, '../../../../libs/contracts/src/examples/filing@1.msft-10-k.json'), 'utf8'),
) as RecordEnvelope<FilingData>;

type Api = { server: FastifyInstance; context: ApiContext };
let db: TestDatabase;
/** Allow flags off (production rules). */
let strict: Api;
/** WEBHOOKS_ALLOW_HTTP and WEBHOOKS_ALLOW_PRIVATE_HOSTS on: receivers on 127.0.0.1. */
let open: Api;
/** No WEBHOOK_SECRETS_KEY. */
let unconfigured: Api;
let keyA: string;
let keyB: string;
let keyFree: string;
let keyTestA: string;

function config(extra: Record<string, string>) {
  return apiConfigSchema.parse({
    DATABASE_URL: db.url,
    API_KEY_PEPPER: 'pepper-'.repeat(6),
    CURSOR_SECRET: 'cursor-'.repeat(6),
    DOCS_URL: DOCS,
    LOG_LEVEL: 'silent',
    PLAN_FREE_BURST_PER_SECOND: '1000000',
    PLAN_BUILDER_BURST_PER_SECOND: '1000000',
    PLAN_PRO_BURST_PER_SECOND: '1000000',
    ...extra,
  });
}

beforeAll(async () => {
  db = await createTestDatabase('api_webhooks');
  const logger = createLogger({ level: 'silent' });
  strict = await buildApiServer(config({ WEBHOOK_SECRETS_KEY: SECRETS_KEY }), { logger });
  open = await buildApiServer(config({ WEBHOOK_SECRETS_KEY: SECRETS_KEY, WEBHOOKS_ALLOW_HTTP: 'true', WEBHOOKS_ALLOW_PRIVATE_HOSTS: 'true' }), { logger });
  unconfigured = await buildApiServer(config({}), { logger });
  const ds = open.context.dataSource;
  await ds.query(`INSERT INTO accounts (id, name, plan) VALUES ('acct_a', 'a', 'builder'), ('acct_b', 'b', 'pro'), ('acct_f', 'f', 'free')`);
  keyA = (await open.context.keys.createKey({ accountId: 'acct_a', mode: 'live', label: 't' })).key;
  keyB = (await open.context.keys.createKey({ accountId: 'acct_b', mode: 'live', label: 't' })).key;
  keyFree = (await open.context.keys.createKey({ accountId: 'acct_f', mode: 'live', label: 't' })).key;
  keyTestA = (await open.context.keys.createKey({ accountId: 'acct_a', mode: 'test', label: 't' })).key;
}, 120_000);

afterAll(async () => {
  await strict?.server.close();
  await open?.server.close();
  await unconfigured?.server.close();
  await db?.drop();
});

function call(api: Api, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, key: string, body?: unknown) {
  return api.server.inject({ method, url, headers: { authorization: `Bearer ${key}` }, ...(body !== undefined ? { payload: body as Record<string, unknown> } : {}) });
}

interface Created { id: string; url: string; topics: string[]; status: string; signing_secret: string; [k: string]: unknown }

async function register(key = keyA, body: unknown = { url: 'http://127.0.0.1:9/hook', topics: ['filing.created'] }): Promise<Created> {
  const r = await call(open, 'POST', '/v1/webhook-endpoints', key, body);
  expect(r.statusCode).toBe(201);
  return r.json<Created>();
}

describe('POST /v1/webhook-endpoints', () => {
  it('registers: 201 with the secret once, sealed at rest, never in GET', async () => {
    const r = await call(open, 'POST', '/v1/webhook-endpoints', keyA, {
      url: 'http://127.0.0.1:9/hook',
      topics: ['filing.created', 'form4.filed', 'filing.created'],
      description: 'ours',
    });
    expect(r.statusCode).toBe(201);
    const body = r.json<Created>();
    expect(body).toEqual({
      id: expect.stringMatching(/^we_[0-9a-f]{24}$/),
      url: 'http://127.0.0.1:9/hook',
      topics: ['filing.created', 'form4.filed'],
      description: 'ours',
      status: 'enabled',
      disabled_reason: null,
      failing_since: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      signing_secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+={0,2}$/),
    });
    const rows = await open.context.dataSource.query<{ sealed_secret: string; expires_at: Date | null }[]>(
      `SELECT sealed_secret, expires_at FROM webhook_endpoint_secrets WHERE endpoint_id = $1`,
      [body.id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.sealed_secret).not.toContain(body.signing_secret.slice(6));
    expect(rows[0]!.expires_at).toBeNull();
    expect(new SecretBox(SECRETS_KEY).open(rows[0]!.sealed_secret)).toBe(body.signing_secret);
    const got = await call(open, 'GET', `/v1/webhook-endpoints/${body.id}`, keyA);
    expect(got.statusCode).toBe(200);
    const { signing_secret: _secret, ...rest } = body;
    expect(got.json()).toEqual(rest);
    const list = await call(open, 'GET', '/v1/webhook-endpoints', keyA);
    expect(JSON.stringify(list.json())).not.toContain('whsec_');
  });

  it('403 plan-required for a free-plan key and for an sk_test_ key of a builder account', async () => {
    for (const key of [keyFree, keyTestA]) {
      const r = await call(open, 'POST', '/v1/webhook-endpoints', key, { url: 'https://example.com/hook', topics: ['filing.created'] });
      expect(r.statusCode).toBe(403);
      expect(r.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(r.json()).toMatchObject({ type: `${DOCS}/errors/plan-required`, status: 403, detail: expect.stringContaining('builder') });
    }
  });

  it('422 in the Pydantic form: unknown topic, no topics, missing url, not an object', async () => {
    const bad = await call(open, 'POST', '/v1/webhook-endpoints', keyA, { url: 'https://example.com/h', topics: ['filing.created', 'earnings.released'] });
    expect(bad.statusCode).toBe(422);
    expect(bad.json<{ detail: unknown[] }>().detail).toEqual([
      {
        type: 'literal_error',
        loc: ['body', 'topics', 1],
        msg: "Input should be 'filing.created', 'transcript.published', 'ir_document.created', 'form4.filed' or '13f.filed'",
        input: 'earnings.released',
        ctx: { expected: "'filing.created', 'transcript.published', 'ir_document.created', 'form4.filed' or '13f.filed'" },
      },
    ]);
    const none = await call(open, 'POST', '/v1/webhook-endpoints', keyA, { url: 'https://example.com/h', topics: [] });
    expect(none.json<{ detail: unknown[] }>().detail).toEqual([
      { type: 'too_short', loc: ['body', 'topics'], msg: 'List should have at least 1 item after validation, not 0', input: [], ctx: { field_type: 'List', min_length: 1, actual_length: 0 } },
    ]);
    const missing = await call(open, 'POST', '/v1/webhook-endpoints', keyA, { topics: ['form4.filed'] });
    expect(missing.json<{ detail: unknown[] }>().detail).toEqual([{ type: 'missing', loc: ['body', 'url'], msg: 'Field required', input: null }]);
    const wrongType = await call(open, 'POST', '/v1/webhook-endpoints', keyA, { url: 5, topics: 'form4.filed' });
    expect(wrongType.json<{ detail: { type: string }[] }>().detail.map((d) => d.type)).toEqual(['string_type', 'list_type']);
    const array = await call(open, 'POST', '/v1/webhook-endpoints', keyA, [1]);
    expect(array.json<{ detail: { type: string; loc: unknown[] }[] }>().detail).toMatchObject([{ type: 'model_attributes_type', loc: ['body'] }]);
  });

  it('422 with the allow flags off: plain http, loopback, private and link-local addresses, unresolvable hosts', async () => {
    const post = (url: string) => call(strict, 'POST', '/v1/webhook-endpoints', keyA, { url, topics: ['filing.created'] });
    const http = await post('http://example.com/hook');
    expect(http.statusCode).toBe(422);
    expect(http.json<{ detail: unknown[] }>().detail).toEqual([
      { type: 'url_scheme', loc: ['body', 'url'], msg: "URL scheme should be 'https'", input: 'http://example.com/hook', ctx: { expected_schemes: "'https'" } },
    ]);
    for (const url of ['https://127.0.0.1/h', 'https://localhost:8443/h', 'https://10.1.2.3/h', 'https://169.254.169.254/latest', 'https://[::1]/h', 'https://192.168.0.1/h']) {
      const r = await post(url);
      expect(r.statusCode).toBe(422);
      expect(r.json<{ detail: { type: string; loc: unknown[]; msg: string }[] }>().detail).toEqual([
        expect.objectContaining({ type: 'value_error', loc: ['body', 'url'], msg: expect.stringContaining('private') }),
      ]);
    }
    const unresolvable = await post('https://no-such-host.invalid/h');
    expect(unresolvable.statusCode).toBe(422);
    expect(unresolvable.json<{ detail: { msg: string }[] }>().detail[0]!.msg).toContain('does not resolve');
    const relative = await post('/hook');
    expect(relative.json<{ detail: { type: string }[] }>().detail[0]!.type).toBe('url_parsing');
    const count = await strict.context.dataSource.query<{ n: string }[]>(`SELECT count(*)::text AS n FROM webhook_endpoints WHERE url LIKE '%127.0.0.1/h' OR url LIKE '%example.com/hook'`);
    expect(count[0]!.n).toBe('0');
  }, 30_000);

  it('503 webhooks-unavailable without WEBHOOK_SECRETS_KEY; other routes unaffected', async () => {
    const r = await call(unconfigured, 'POST', '/v1/webhook-endpoints', keyA, { url: 'https://example.com/h', topics: ['filing.created'] });
    expect(r.statusCode).toBe(503);
    expect(r.json()).toMatchObject({ type: `${DOCS}/errors/webhooks-unavailable` });
    expect((await call(unconfigured, 'GET', '/v1/webhook-endpoints', keyA)).statusCode).toBe(503);
    expect((await call(unconfigured, 'GET', '/v1/events', keyA)).statusCode).toBe(200);
  });
});

describe('one account never reaches another account’s endpoints', () => {
  it('404 for B on every route of A’s endpoint, and B’s list does not show it', async () => {
    const a = await register(keyA);
    const attempts: [Parameters<typeof call>[1], string, unknown?][] = [
      ['GET', `/v1/webhook-endpoints/${a.id}`],
      ['PATCH', `/v1/webhook-endpoints/${a.id}`, { enabled: false }],
      ['POST', `/v1/webhook-endpoints/${a.id}/test`, {}],
      ['POST', `/v1/webhook-endpoints/${a.id}/rotate-secret`],
      ['GET', `/v1/webhook-endpoints/${a.id}/deliveries`],
      ['POST', `/v1/webhook-endpoints/${a.id}/deliveries/del_${'0'.repeat(24)}/retry`],
      ['POST', `/v1/webhook-endpoints/${a.id}/recover`, { since: '2020-01-01T00:00:00Z' }],
      ['DELETE', `/v1/webhook-endpoints/${a.id}`],
    ];
    for (const [method, url, body] of attempts) {
      const r = await call(open, method, url, keyB, body);
      expect({ method, url, status: r.statusCode }).toEqual({ method, url, status: 404 });
      expect(r.json()).toMatchObject({ type: `${DOCS}/errors/unknown-webhook-endpoint` });
    }
    const list = await call(open, 'GET', '/v1/webhook-endpoints', keyB);
    expect(list.json<{ data: { id: string }[] }>().data.map((e) => e.id)).not.toContain(a.id);
    // Still there for A, unchanged, with one secret and no test event.
    const mine = await call(open, 'GET', `/v1/webhook-endpoints/${a.id}`, keyA);
    expect(mine.json()).toMatchObject({ status: 'enabled' });
    const ds = open.context.dataSource;
    expect(await ds.query(`SELECT 1 FROM webhook_endpoint_secrets WHERE endpoint_id = $1`, [a.id])).toHaveLength(1);
    expect(await ds.query(`SELECT 1 FROM webhook_deliveries WHERE endpoint_id = $1`, [a.id])).toHaveLength(0);
  });
});

describe('endpoint lifecycle', () => {
  it('lists keyset-paginated, newest first', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await register(keyB, { url: `http://127.0.0.1:9/${i}`, topics: ['form4.filed'] })).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const r = await call(open, 'GET', `/v1/webhook-endpoints?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, keyB);
      expect(r.statusCode).toBe(200);
      const body = r.json<{ data: { id: string }[]; pagination: { next_cursor: string | null; has_more: boolean } }>();
      seen.push(...body.data.map((e) => e.id));
      cursor = body.pagination.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
    const bad = await call(open, 'GET', '/v1/webhook-endpoints?cursor=abc', keyB);
    expect(bad.statusCode).toBe(422);
  });

  it("a list cursor is the caller's account's: another account's is a 422, and it shows no endpoint id", async () => {
    await open.context.dataSource.query(`INSERT INTO accounts (id, name, plan) VALUES ('acct_c1', 'c1', 'builder'), ('acct_c2', 'c2', 'builder')`);
    const newKey = async (accountId: string) => (await open.context.keys.createKey({ accountId, mode: 'live', label: 't' })).key;
    const key1 = await newKey('acct_c1');
    const key2 = await newKey('acct_c2');
    const ids1: string[] = [];
    for (let i = 0; i < 3; i++) ids1.push((await register(key1, { url: `http://127.0.0.1:9/c${i}`, topics: ['form4.filed'] })).id);
    for (let i = 0; i < 3; i++) await register(key2, { url: `http://127.0.0.1:9/c${i}`, topics: ['form4.filed'] });
    const first = await call(open, 'GET', '/v1/webhook-endpoints?limit=1', key1);
    const page = first.json<{ data: { id: string }[]; pagination: { next_cursor: string } }>();
    expect(page.data.map((e) => e.id)).toEqual([ids1[2]]);
    const cursor = page.pagination.next_cursor;
    // Nothing in it reads: not the endpoint id, the account or the direction.
    const decoded = Buffer.from(cursor, 'base64url').toString('latin1');
    for (const plain of [ids1[2]!, ids1[2]!.slice(3), 'acct_c1', '"desc"']) expect(decoded).not.toContain(plain);

    const foreign = await call(open, 'GET', `/v1/webhook-endpoints?limit=1&cursor=${encodeURIComponent(cursor)}`, key2);
    expect(foreign.statusCode).toBe(422);
    expect(foreign.headers['content-type']).toContain('application/problem+json');
    expect(foreign.json()).toMatchObject({ status: 422, detail: [{ type: 'value_error', loc: ['query', 'cursor'], msg: 'Value error, Invalid cursor' }] });

    const next = await call(open, 'GET', `/v1/webhook-endpoints?limit=1&cursor=${encodeURIComponent(cursor)}`, key1);
    expect(next.statusCode).toBe(200);
    expect(next.json<{ data: { id: string }[] }>().data.map((e) => e.id)).toEqual([ids1[1]]);
  });

  it('refuses a cursor of the earlier (signed, readable) version with a 422 that says to start again', async () => {
    const body = Buffer.from(JSON.stringify({ v: 2, k: ['2026-01-01T00:00:00.000000Z', 'we_0'], d: 'desc', f: 'x'.repeat(22) })).toString('base64url');
    const earlier = `${body}.${createHmac('sha256', 'cursor-'.repeat(6)).update(body).digest().subarray(0, 16).toString('base64url')}`;
    const r = await call(open, 'GET', `/v1/webhook-endpoints?cursor=${encodeURIComponent(earlier)}`, keyB);
    expect(r.statusCode).toBe(422);
    expect(r.json<{ detail: { loc: unknown[]; msg: string }[] }>().detail).toEqual([
      expect.objectContaining({ type: 'value_error', loc: ['query', 'cursor'], msg: expect.stringMatching(/earlier version.*start the list again without cursor/) }),
    ]);
  });

  it('PATCH changes fields; enabled=false is manual, enabled=true clears the failure streak', async () => {
    const e = await register();
    const off = await call(open, 'PATCH', `/v1/webhook-endpoints/${e.id}`, keyA, { enabled: false, topics: ['ir_document.created'], description: 'x' });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ status: 'disabled', disabled_reason: 'manual', topics: ['ir_document.created'], description: 'x' });
    await open.context.dataSource.query(`UPDATE webhook_endpoints SET disabled_reason = 'failing', failing_since = now() - interval '5 days' WHERE id = $1`, [e.id]);
    const on = await call(open, 'PATCH', `/v1/webhook-endpoints/${e.id}`, keyA, { enabled: true });
    expect(on.json()).toMatchObject({ status: 'enabled', disabled_reason: null, failing_since: null });
    const row = await open.context.dataSource.query<{ disabled_reason: string | null; failing_since: Date | null }[]>(
      `SELECT disabled_reason, failing_since FROM webhook_endpoints WHERE id = $1`,
      [e.id],
    );
    expect(row[0]).toEqual({ disabled_reason: null, failing_since: null });
    const badUrl = await call(strict, 'PATCH', `/v1/webhook-endpoints/${e.id}`, keyA, { url: 'https://127.0.0.1/x' });
    expect(badUrl.statusCode).toBe(422);
    const badTopic = await call(open, 'PATCH', `/v1/webhook-endpoints/${e.id}`, keyA, { topics: ['x'] });
    expect(badTopic.json<{ detail: { type: string }[] }>().detail[0]!.type).toBe('literal_error');
    const free = await call(open, 'PATCH', `/v1/webhook-endpoints/${e.id}`, keyTestA, { enabled: false });
    expect(free.statusCode).toBe(403);
  });

  it('DELETE is soft: 204, then 404, and pending deliveries stop, claimed ones too (their lease token is cleared)', async () => {
    const e = await register();
    const t = await call(open, 'POST', `/v1/webhook-endpoints/${e.id}/test`, keyA, {});
    // As a dispatcher's claim leaves it while its attempt is in flight.
    await open.context.dataSource.query(`UPDATE webhook_deliveries SET leased_until = now() + interval '1 minute', lease_token = gen_random_uuid() WHERE id = $1`, [
      t.json<{ delivery_id: string }>().delivery_id,
    ]);
    const del = await call(open, 'DELETE', `/v1/webhook-endpoints/${e.id}`, keyA);
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    expect((await call(open, 'GET', `/v1/webhook-endpoints/${e.id}`, keyA)).statusCode).toBe(404);
    expect((await call(open, 'DELETE', `/v1/webhook-endpoints/${e.id}`, keyA)).statusCode).toBe(404);
    const rows = await open.context.dataSource.query<{ deleted_at: Date | null; status: string; lease_token: string | null }[]>(
      `SELECT e.deleted_at, d.status, d.lease_token FROM webhook_endpoints e JOIN webhook_deliveries d ON d.endpoint_id = e.id WHERE d.id = $1`,
      [t.json<{ delivery_id: string }>().delivery_id],
    );
    expect(rows[0]!.deleted_at).not.toBeNull();
    expect(rows[0]!.status).toBe('failed');
    expect(rows[0]!.lease_token).toBeNull();
  });

  it('rotation: a new secret once; the old one stays active for 24 h beside it', async () => {
    const e = await register();
    const r = await call(open, 'POST', `/v1/webhook-endpoints/${e.id}/rotate-secret`, keyA);
    expect(r.statusCode).toBe(200);
    const body = r.json<{ id: string; signing_secret: string; previous_secret_expires_at: string }>();
    expect(body.signing_secret).toMatch(/^whsec_/);
    expect(body.signing_secret).not.toBe(e.signing_secret);
    const hours = (Date.parse(body.previous_secret_expires_at) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    const active = await open.context.dataSource.query<{ sealed_secret: string }[]>(
      `SELECT sealed_secret FROM webhook_endpoint_secrets WHERE endpoint_id = $1 AND (expires_at IS NULL OR expires_at > now()) ORDER BY created_at DESC, id DESC`,
      [e.id],
    );
    const box = new SecretBox(SECRETS_KEY);
    expect(active.map((s) => box.open(s.sealed_secret))).toEqual([body.signing_secret, e.signing_secret]);
    expect(JSON.stringify((await call(open, 'GET', `/v1/webhook-endpoints/${e.id}`, keyA)).json())).not.toContain('whsec_');
  });
});

describe('test events and the delivery log', () => {
  it('a ping: a test event for this account and a pending delivery due now', async () => {
    const e = await register();
    const r = await call(open, 'POST', `/v1/webhook-endpoints/${e.id}/test`, keyA);
    expect(r.statusCode).toBe(202);
    const { event_id, delivery_id } = r.json<{ event_id: string; delivery_id: string }>();
    expect(event_id).toMatch(/^evt_test_[0-9a-f]{32}$/);
    expect(delivery_id).toMatch(/^del_[0-9a-f]{24}$/);
    const ds = open.context.dataSource;
    const [event] = await ds.query<{ type: string; is_test: boolean; account_id: string; data: unknown }[]>(
      `SELECT type, is_test, account_id, data FROM webhook_events WHERE id = $1`,
      [event_id],
    );
    expect(event).toEqual({ type: 'webhook.test', is_test: true, account_id: 'acct_a', data: { endpoint_id: e.id, message: expect.any(String) } });
    const [delivery] = await ds.query<{ status: string; endpoint_id: string; due: boolean; attempts: number }[]>(
      `SELECT status, endpoint_id, attempts, next_attempt_at <= now() AS due FROM webhook_deliveries WHERE id = $1 AND event_id = $2`,
      [delivery_id, event_id],
    );
    expect(delivery).toEqual({ status: 'pending', endpoint_id: e.id, attempts: 0, due: true });
  });

  it('a topic sample is the newest resource as the API serves it, or a built-in one of fixture values', async () => {
    const topics = ['filing.created', 'form4.filed', 'ir_document.created', 'transcript.published', '13f.filed'];
    const e = await register(keyA, { url: 'http://127.0.0.1:9/hook', topics });
    const before = await call(open, 'POST', `/v1/webhook-endpoints/${e.id}/test`, keyA, { topic: 'filing.created' });
    const ds = open.context.dataSource;
    const dataOf = async (eventId: string) => (await ds.query<{ data: Record<string, unknown> }[]>(`SELECT data FROM webhook_events WHERE id = $1`, [eventId]))[0]!.data;
    expect(await dataOf(before.json<{ event_id: string }>().event_id)).toMatchObject({ accession: '0000950170-25-100235', form: '10-K' });
    await ds.transaction((m) => projectFilings(m, [example]));
    const after = await call(open, 'POST', `/v1/webhook-endpoints/${e.id}/test`, keyA, { topic: 'filing.created' });
    const served = await call(open, 'GET', '/v1/filings/0000950170-25-100235', keyA);
    expect(await dataOf(after.json<{ event_id: string }>().event_id)).toEqual(served.json());
    for (const topic of ['form4.filed', 'ir_document.created', 'transcript.published', '13f.filed']) {
      const r = await call(open, 'POST', `/v1/webhook-endpoints/${e.id}/test`, keyA, { topic });
      expect(r.statusCode).toBe(202);
      const [row] = await ds.query<{ type: string }[]>(`SELECT type FROM webhook_events WHERE id = $1`, [r.json<{ event_id: string }>().event_id]);
      expect(row!.type).toBe(topic);
    }
    // No transcript projected here: the built-in sample, the Citi example record as the API maps it.
    const transcript = await call(open, 'POST', `/v1/webhook-endpoints/${e.id}/test`, keyA, { topic: 'transcript.published' });
    const sample = await dataOf(transcript.json<{ event_id: string }>().event_id);
    expect(sample).toMatchObject({ ticker: 'C', call: { date: '2025-01-15' }, turn_count: 59, participant_count: 13, sections: { presentation: 4, qa: 55 } });
    expect(sample.turns).toHaveLength(59);
    const bad = await call(open, 'POST', `/v1/webhook-endpoints/${e.id}/test`, keyA, { topic: 'webhook.test' });
    expect(bad.statusCode).toBe(422);
    expect((await call(open, 'POST', `/v1/webhook-endpoints/${e.id}/test`, keyFree, {})).statusCode).toBe(403);
  });

  it('a test event of a topic the endpoint did not subscribe to is refused: 422 naming its topics, nothing queued', async () => {
    const e = await register();
    const r = await call(open, 'POST', `/v1/webhook-endpoints/${e.id}/test`, keyA, { topic: 'form4.filed' });
    expect(r.statusCode).toBe(422);
    expect(r.json<{ detail: unknown[] }>().detail).toEqual([
      {
        type: 'topic_not_subscribed',
        loc: ['body', 'topic'],
        msg: 'The endpoint is not subscribed to form4.filed; its topics: filing.created',
        input: 'form4.filed',
        ctx: { subscribed: ['filing.created'] },
      },
    ]);
    const [queued] = await open.context.dataSource.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1`, [e.id]);
    expect(queued!.n).toBe(0);
    expect((await call(open, 'POST', `/v1/webhook-endpoints/${e.id}/test`, keyA, { topic: 'filing.created' })).statusCode).toBe(202);
  });

  it('lists deliveries newest first with attempts and latency figures; retry and recover requeue', async () => {
    const e = await register();
    const ds = open.context.dataSource;
    await ds.query(
      `INSERT INTO webhook_events (id, type, entity_key, data, source_topic, source_record_id, source_produced_at, created_at)
       VALUES ('evt_log1', 'filing.created', 'k1', '{}'::jsonb, 'edgar.filings.v1', 'rec_1', now() - interval '10 seconds', now() - interval '9 seconds'),
              ('evt_log2', 'filing.created', 'k2', '{}'::jsonb, 'edgar.filings.v1', 'rec_2', now() - interval '5 seconds', now() - interval '4 seconds')`,
    );
    const d1 = `del_${'1'.repeat(24)}`;
    const d2 = `del_${'2'.repeat(24)}`;
    await ds.query(
      `INSERT INTO webhook_deliveries (id, event_id, endpoint_id, status, attempts, next_attempt_at, last_attempt_at, created_at)
       VALUES ($1, 'evt_log1', $3, 'failed', 2, NULL, now() - interval '7 seconds', now() - interval '9 seconds'),
              ($2, 'evt_log2', $3, 'failed', 1, NULL, now() - interval '3 seconds', now() - interval '4 seconds')`,
      [d1, d2, e.id],
    );
    await ds.query(
      `INSERT INTO webhook_attempts (delivery_id, attempt, sent_at, status_code, duration_ms, response_excerpt, error, next_attempt_at)
       VALUES ($1, 1, now() - interval '8 seconds', 500, 12, 'oops', NULL, now() - interval '7 seconds'),
              ($1, 2, now() - interval '7 seconds', NULL, 15000, NULL, 'timeout', NULL)`,
      [d1],
    );
    const list = await call(open, 'GET', `/v1/webhook-endpoints/${e.id}/deliveries?limit=1`, keyA);
    expect(list.statusCode).toBe(200);
    const page = list.json<{ data: Record<string, unknown>[]; pagination: { next_cursor: string; has_more: boolean } }>();
    expect(page.data.map((d) => d.id)).toEqual([d2]);
    expect(page.pagination.has_more).toBe(true);
    const next = await call(open, 'GET', `/v1/webhook-endpoints/${e.id}/deliveries?limit=1&cursor=${encodeURIComponent(page.pagination.next_cursor)}`, keyA);
    const older = next.json<{ data: Record<string, unknown>[] }>().data[0]!;
    expect(older).toMatchObject({
      id: d1,
      status: 'failed',
      attempt_count: 2,
      event: { id: 'evt_log1', type: 'filing.created', test: false, source_produced_at: expect.any(String), created_at: expect.any(String) },
      attempts: [
        { attempt: 1, status_code: 500, duration_ms: 12, response_excerpt: 'oops', error: null, next_attempt_at: expect.any(String), sent_at: expect.any(String) },
        { attempt: 2, status_code: null, duration_ms: 15000, response_excerpt: null, error: 'timeout', next_attempt_at: null, sent_at: expect.any(String) },
      ],
    });
    const latency = older.latency_ms as Record<string, number | null>;
    expect(latency.source_to_event).toBeGreaterThanOrEqual(900);
    expect(latency.event_to_first_attempt).toBeGreaterThanOrEqual(900);
    expect(latency.source_to_success).toBeNull();

    const retry = await call(open, 'POST', `/v1/webhook-endpoints/${e.id}/deliveries/${d1}/retry`, keyA);
    expect(retry.statusCode).toBe(202);
    expect(retry.json()).toMatchObject({ delivery_id: d1, status: 'pending' });
    const unknown = await call(open, 'POST', `/v1/webhook-endpoints/${e.id}/deliveries/del_${'9'.repeat(24)}/retry`, keyA);
    expect(unknown.json()).toMatchObject({ status: 404, type: `${DOCS}/errors/unknown-delivery` });

    const since = new Date(Date.now() - 6_000).toISOString();
    const recover = await call(open, 'POST', `/v1/webhook-endpoints/${e.id}/recover`, keyA, { since });
    expect(recover.statusCode).toBe(202);
    expect(recover.json()).toEqual({ requeued: 1, since });
    const statuses = await ds.query<{ id: string; status: string; due: boolean }[]>(
      `SELECT id, status, next_attempt_at <= now() AS due FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY id`,
      [e.id],
    );
    expect(statuses).toEqual([
      { id: d1, status: 'pending', due: true },
      { id: d2, status: 'pending', due: true },
    ]);
    const badSince = await call(open, 'POST', `/v1/webhook-endpoints/${e.id}/recover`, keyA, { since: 'yesterday' });
    expect(badSince.json<{ detail: { type: string; loc: unknown[] }[] }>().detail).toMatchObject([{ type: 'datetime_parsing', loc: ['body', 'since'] }]);
  });
});

describe('GET /v1/events', () => {
  it('pages in seq order from a kept cursor; test events only for their account', async () => {
    const ds = open.context.dataSource;
    await ds.query(`DELETE FROM webhook_attempts; DELETE FROM webhook_deliveries; DELETE FROM webhook_events`);
    for (let i = 0; i < 7; i++) {
      await ds.query(`INSERT INTO webhook_events (id, type, entity_key, data, created_at) VALUES ($1, $2, $3, $4::jsonb, now() - interval '1 minute')`, [
        `evt_feed${i}`,
        i % 2 ? 'form4.filed' : 'filing.created',
        `k${i}`,
        JSON.stringify({ n: i }),
      ]);
    }
    const e = await register();
    const test = (await call(open, 'POST', `/v1/webhook-endpoints/${e.id}/test`, keyA)).json<{ event_id: string }>().event_id;
    // The feed serves an event once it has settled (FEED_SETTLE_SECONDS): age the test event.
    await ds.query(`UPDATE webhook_events SET created_at = now() - interval '1 minute' WHERE id = $1`, [test]);

    const walk = async (key: string, query = '', from: string | null = null) => {
      const ids: string[] = [];
      let cursor = from;
      for (;;) {
        const r = await call(open, 'GET', `/v1/events?limit=3${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, key);
        expect(r.statusCode).toBe(200);
        const body = r.json<{ data: { id: string; type: string; timestamp: string; data: unknown }[]; pagination: { next_cursor: string | null; has_more: boolean } }>();
        ids.push(...body.data.map((x) => x.id));
        cursor = body.pagination.next_cursor;
        if (!body.pagination.has_more) return { ids, cursor };
      }
    };
    const feed = [0, 1, 2, 3, 4, 5, 6].map((i) => `evt_feed${i}`);
    const a = await walk(keyA);
    expect(a.ids).toEqual([...feed, test]);
    const b = await walk(keyB);
    expect(b.ids).toEqual(feed);
    // A free key reads the feed too (webhook registration is what needs the builder plan).
    expect((await walk(keyFree)).ids).toEqual(feed);
    const forms = await walk(keyB, '&types=form4.filed');
    expect(forms.ids).toEqual(['evt_feed1', 'evt_feed3', 'evt_feed5']);

    // Resume: the last cursor is kept even at the end and yields only what came after.
    expect(b.cursor).not.toBeNull();
    expect((await walk(keyB, '', b.cursor)).ids).toEqual([]);
    await ds.query(`INSERT INTO webhook_events (id, type, entity_key, data) VALUES ('evt_feed7', 'ir_document.created', 'k7', '{"n":7}'::jsonb)`);
    // Not served while it may still have a lower-seq sibling in an open transaction ...
    expect((await walk(keyB, '', b.cursor)).ids).toEqual([]);
    await ds.query(`UPDATE webhook_events SET created_at = now() - interval '${FEED_SETTLE_SECONDS + 1} seconds' WHERE id = 'evt_feed7'`);
    // ... then served after the cursor, with nothing skipped.
    expect((await walk(keyB, '', b.cursor)).ids).toEqual(['evt_feed7']);

    const item = (await call(open, 'GET', '/v1/events?limit=1', keyB)).json<{ data: unknown[] }>().data[0];
    expect(item).toEqual({ id: 'evt_feed0', type: 'filing.created', timestamp: expect.any(String), data: { n: 0 } });
    const bad = await call(open, 'GET', '/v1/events?types=nope', keyB);
    expect(bad.json<{ detail: { type: string }[] }>().detail[0]!.type).toBe('literal_error');
    const wrongFilter = await call(open, 'GET', `/v1/events?types=form4.filed&cursor=${encodeURIComponent(b.cursor!)}`, keyB);
    expect(wrongFilter.statusCode).toBe(422);
  });

  it("resumes a position kept before cursors were bound, when its event is in the caller's feed", async () => {
    const ds = open.context.dataSource;
    await ds.query(`DELETE FROM webhook_attempts; DELETE FROM webhook_deliveries; DELETE FROM webhook_events`);
    for (let i = 0; i < 4; i++) {
      await ds.query(`INSERT INTO webhook_events (id, type, entity_key, data, created_at) VALUES ($1, 'filing.created', $2, '{}'::jsonb, now() - interval '1 minute')`, [`evt_old${i}`, `k${i}`]);
    }
    await ds.query(
      `INSERT INTO webhook_events (id, type, entity_key, data, is_test, account_id, created_at) VALUES ('evt_testA', 'filing.created', 'kt', '{}'::jsonb, true, 'acct_a', now() - interval '1 minute')`,
    );
    const seqOf = async (id: string) => Number((await ds.query<{ seq: string }[]>(`SELECT seq::text AS seq FROM webhook_events WHERE id = $1`, [id]))[0]!.seq);
    // The two earlier formats, signed with the secret as they were: v1 carried the seq as text.
    const signed = (payload: Record<string, unknown>): string => {
      const body = Buffer.from(JSON.stringify({ ...payload, d: 'asc', f: filterHash('events', { types: null }) })).toString('base64url');
      return `${body}.${createHmac('sha256', 'cursor-'.repeat(6)).update(body).digest().subarray(0, 16).toString('base64url')}`;
    };
    const events = (key: string, cursor: string) => call(open, 'GET', `/v1/events?limit=10&cursor=${encodeURIComponent(cursor)}`, key);
    type Feed = { data: { id: string }[]; pagination: { next_cursor: string } };

    const v1 = await events(keyB, signed({ v: 1, k: String(await seqOf('evt_old1')) }));
    expect(v1.statusCode).toBe(200);
    expect(v1.json<Feed>().data.map((e) => e.id)).toEqual(['evt_old2', 'evt_old3']);
    // Re-issued as a current cursor, bound to B: it goes on for B only.
    const next = v1.json<Feed>().pagination.next_cursor;
    expect(next).not.toContain('.');
    expect((await events(keyB, next)).statusCode).toBe(200);
    expect((await events(keyFree, next)).statusCode).toBe(422);
    const v2 = await events(keyB, signed({ v: 2, k: [await seqOf('evt_old2')] }));
    expect(v2.json<Feed>().data.map((e) => e.id)).toEqual(['evt_old3']);

    // A position at A's test event is A's: another account is refused.
    const atTest = signed({ v: 2, k: [await seqOf('evt_testA')] });
    expect((await events(keyA, atTest)).statusCode).toBe(200);
    const refused = await events(keyB, atTest);
    expect(refused.statusCode).toBe(422);
    expect(refused.json<{ detail: { msg: string }[] }>().detail[0]!.msg).toMatch(/earlier version/);
    // Not genuine, or for other filters: refused as before.
    expect((await events(keyB, signed({ v: 2, k: [await seqOf('evt_old1')] }).replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')))).statusCode).toBe(422);
    const forms = await call(open, 'GET', `/v1/events?types=form4.filed&cursor=${encodeURIComponent(signed({ v: 1, k: '1' }))}`, keyB);
    expect(forms.statusCode).toBe(422);
  });
});
