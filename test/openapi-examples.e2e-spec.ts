// The examples of the OpenAPI document come from the api itself, on the fixture data ingested
// through the real pipeline: every documented operation is called for each response it
// documents (its success, and 401, 403, 404, 409, 415, 422, 429 and 503 where the real app can be made
// to answer them), and the answer, cut by exampleOf, is the example.
//   OPENAPI_EXAMPLES=write npx jest test/openapi-examples.e2e-spec.ts --selectProjects integration
// rewrites apps/api/src/openapi/openapi.examples.json (then regenerate apps/api/openapi.json with
// the openapi CLI). Without it, the test checks the committed examples against what the api
// answers now: the same responses, the same shape (volatile values aside: times, ids, cursors).
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createLogger } from '@app/observability';
import { createApiApp } from '../apps/api/src/api.app';
import { apiConfigSchema } from '../apps/api/src/config/api.config';
import { buildOpenApiDocument, DOCUMENTED_ROUTES } from '../apps/api/src/openapi/openapi.document';
import {
  exampleOf,
  RECORDED_EVENTS,
  RECORDED_EXAMPLES,
  RECORDED_REQUESTS,
  type RecordedEvents,
  type RecordedExamples,
  type RecordedRequests,
} from '../apps/api/src/openapi/openapi.presentation';
import { PROBLEM_PAGES } from '../apps/api/src/openapi/problem-pages';
import type { ProblemSlug } from '../apps/api/src/platform/api.errors';
import { problemBody } from '../apps/api/src/platform/problem';
import { openApiPath, type RouteDefinition } from '../apps/api/src/platform/route.registry';
import { EVENT_TYPES } from '@app/resources';
import { expectEventually } from '@app/testing';
import { FIXTURE_USER_AGENT, startFixturePlatform, type FixturePlatform } from './support/fixture-platform';

const PUBLIC_BASE_URL = 'https://api.filings.example';
const WRITE = process.env.OPENAPI_EXAMPLES === 'write';
const EXAMPLES_DIR = join(__dirname, '..', 'apps', 'api', 'src', 'openapi');
const EXAMPLES_FILE = join(EXAMPLES_DIR, 'openapi.examples.json');
const REQUESTS_FILE = join(EXAMPLES_DIR, 'openapi.request-examples.json');
const EVENTS_FILE = join(EXAMPLES_DIR, 'openapi.event-examples.json');

type Json = Record<string, unknown>;
interface Call {
  method: string;
  path: string;
  body?: unknown;
}
interface Answer {
  status: number;
  body: unknown;
}

let platform: FixturePlatform;
/** The same database, without webhooks configured and with a 1 ms search budget: the 503s. */
let degraded: NestFastifyApplication;
let degradedUrl: string;
const recorded: RecordedExamples = {};
const requests: RecordedRequests = {};
const events: RecordedEvents = {};

/** Sends a call: its body as JSON, or `rawBody` as it is (with the Content-Type `headers` give). */
async function send(base: string, call: Call, key?: string, headers: Record<string, string> = {}, rawBody?: string): Promise<Answer> {
  const r = await fetch(`${base}${call.path}`, {
    method: call.method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(call.body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: rawBody ?? (call.body === undefined ? undefined : JSON.stringify(call.body)),
  });
  const text = await r.text();
  return { status: r.status, body: text === '' ? undefined : r.headers.get('content-type')?.includes('json') ? (JSON.parse(text) as unknown) : text };
}

/** Sends a call with two Authorization headers (fetch would join them into one): the 400. */
function sendTwoAuthorizations(base: string, call: Call, key: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    const req = request(
      `${base}${call.path}`,
      { method: call.method, headers: body === undefined ? {} : { 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text === '' ? undefined : (JSON.parse(text) as unknown) }));
      },
    );
    req.setHeader('authorization', [`Bearer ${key}`, `Bearer ${key}`]);
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * The fixture server stands in for sec.gov, data.sec.gov and FRP Holdings' site (saved from
 * frpholdings.github.io) at the paths they use: examples name the real origins, not its port.
 */
function realOrigins(body: unknown): unknown {
  const fixtures = platform.fixtures.url;
  const text = JSON.stringify(body).replace(new RegExp(`${fixtures.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(/[^"\\\\\\s]*)?`, 'g'), (_, path: string = '/') => {
    if (path.startsWith('/webhook-receiver')) return 'https://receiver.example.com/filings-hooks';
    if (/^\/(submissions|api)\//.test(path)) return `https://data.sec.gov${path}`;
    if (/^\/(Archives|files|cgi-bin)\//.test(path)) return `https://www.sec.gov${path}`;
    // The Citigroup transcript's source page is not recorded (fixtures SOURCES.md): an .example host.
    if (path.startsWith('/transcripts/')) return `http://ir.citigroup.example${path}`;
    return `https://frpholdings.github.io${path}`;
  });
  return JSON.parse(text) as unknown;
}

function record(operationId: string, answer: Answer): void {
  if (answer.body === undefined) return;
  (recorded[operationId] ??= {})[String(answer.status)] = exampleOf(realOrigins(answer.body));
}

/**
 * What a successful call sent: its path parameters (by the route's `:name`s), query parameters
 * (every value of each) and body. The first call giving a parameter gives its example.
 */
function recordRequest(route: RouteDefinition, call: Call): void {
  const url = new URL(call.path, 'http://api');
  const names = [...route.url.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!);
  const pattern = new RegExp(`^${route.url.replace(/:[A-Za-z_]+/g, '([^/]+)')}$`);
  const values = pattern.exec(url.pathname)?.slice(1) ?? [];
  const entry = (requests[route.operationId] ??= { path: {}, query: {} });
  names.forEach((name, i) => (entry.path[name] ??= decodeURIComponent(values[i]!)));
  for (const name of new Set(url.searchParams.keys())) entry.query[name] ??= url.searchParams.getAll(name);
  if (route.body && call.body !== undefined && entry.body === undefined) entry.body = realOrigins(call.body);
}

/** The same value with its volatile parts (times, ids, cursors, secrets, hashes of random data) replaced by their kind. */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.length ? [shapeOf(value[0])] : [];
  if (value === null) return null;
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shapeOf(v)]));
  return typeof value;
}

/**
 * The recorded shape with what a different row may legitimately change taken from the live one: a
 * null where the other has a value, an empty list where the other has items. Which row a list or
 * an event shows first depends on the order partitions were projected in; the structure does not.
 */
function alignNullable(recorded: unknown, live: unknown): unknown {
  if (recorded === null || live === null) return live;
  if (Array.isArray(recorded) && Array.isArray(live)) {
    if (recorded.length === 0 || live.length === 0) return live;
    return [alignNullable(recorded[0], live[0])];
  }
  if (recorded && live && typeof recorded === 'object' && typeof live === 'object') {
    const l = live as Record<string, unknown>;
    return Object.fromEntries(Object.entries(recorded).map(([k, v]) => [k, k in l ? alignNullable(v, l[k]) : v]));
  }
  return recorded;
}

beforeAll(async () => {
  platform = await startFixturePlatform({
    prefix: 'openapi_examples',
    apiEnv: {
      PUBLIC_BASE_URL,
      WEBHOOK_SECRETS_KEY: randomBytes(32).toString('hex'),
      WEBHOOKS_ALLOW_HTTP: 'true',
      WEBHOOKS_ALLOW_PRIVATE_HOSTS: 'true',
      PLAN_ENTERPRISE_BURST_PER_SECOND: '100000',
      PLAN_ENTERPRISE_DAILY_QUOTA: '10000000',
      // A free key answers every webhook route 403 in a row, unthrottled.
      PLAN_FREE_BURST_PER_SECOND: '100000',
      // A pro key spends its one request, then every call is a 429.
      PLAN_PRO_DAILY_QUOTA: '1',
    },
  });
  degraded = await createApiApp(
    apiConfigSchema.parse({
      DATABASE_URL: platform.db.url,
      // The same keys authenticate on both.
      API_KEY_PEPPER: platform.context.config.API_KEY_PEPPER,
      CURSOR_SECRET: randomBytes(24).toString('hex'),
      PUBLIC_BASE_URL,
      LOG_LEVEL: 'silent',
      SEARCH_STATEMENT_TIMEOUT_MS: '1',
      CITATIONS_MAX_CONCURRENT: '1',
      EDGAR_USER_AGENT: FIXTURE_USER_AGENT,
      EDGAR_WWW_BASE_URL: platform.fixtures.url,
      EDGAR_DATA_BASE_URL: platform.fixtures.url,
      IR_USER_AGENT: FIXTURE_USER_AGENT,
      IR_ALLOW_PRIVATE_HOSTS: 'true',
    }),
    { logger: createLogger({ level: 'silent' }) },
  );
  await degraded.listen(0, '127.0.0.1');
  degradedUrl = await degraded.getUrl();
}, 900_000);

afterAll(async () => {
  await degraded?.close();
  await platform?.close();
});

describe('OpenAPI examples recorded from the api on the fixture data', () => {
  it('records a response for every operation and every status the document lists', async () => {
    const url = platform.url;
    const key = platform.key;
    const get = async (path: string) => (await send(url, { method: 'GET', path }, key)).body as Json;
    const msft = await get('/v1/companies/MSFT:US');
    const filing = ((await get('/v1/companies/MSFT:US/filings?forms=10-K&limit=1')).data as Json[])[0]!;
    const docs = (await get('/v1/documents?limit=100')).data as Json[];
    const doc = docs.find((d) => typeof d.pages === 'number' && d.pages > 1)!;
    const transcript = ((await get('/v1/transcripts?limit=1')).data as Json[])[0]!;
    const webhook = { url: `${platform.fixtures.url}/webhook-receiver`, topics: ['filing.created', 'form4.filed'], description: 'Filings desk' };
    const created = await send(url, { method: 'POST', path: '/v1/webhook-endpoints', body: webhook }, key);
    const endpointId = (created.body as Json).id as string;
    const test = await send(url, { method: 'POST', path: `/v1/webhook-endpoints/${endpointId}/test`, body: {} }, key);
    const deliveryId = (test.body as Json).delivery_id as string;
    const doomed = (await send(url, { method: 'POST', path: '/v1/webhook-endpoints', body: webhook }, key)).body as Json;
    const doomedId = doomed.id as string;
    const goneId = `we_${'0'.repeat((doomedId.length - 3))}`;

    /** A successful call of each operation, on real ids. */
    const success: Record<string, Call> = {
      listCompanies: { method: 'GET', path: '/v1/companies?q=corp' },
      getCompany: { method: 'GET', path: '/v1/companies/MSFT:US' },
      listCompanySegments: { method: 'GET', path: '/v1/companies/AAPL:US/segments' },
      listCompanyFacts: { method: 'GET', path: `/v1/companies/AAPL:US/facts?concept=us-gaap:EarningsPerShareDiluted&period=annual&limit=3` },
      getCompanyFinancials: { method: 'GET', path: '/v1/companies/AAPL:US/financials?statement=income&period=annual&limit=2' },
      getCompanySection: { method: 'GET', path: '/v1/companies/TSLA:US/sections/1' },
      getFundExposure: { method: 'GET', path: `/v1/companies/MSFT:US/fund-exposure` },
      getCompanyInstitutionalHolders: { method: 'GET', path: '/v1/companies/MSFT:US/institutional-holders' },
      getSecurityInstitutionalHolders: { method: 'GET', path: '/v1/securities/594918104/institutional-holders' },
      listInstitutions: { method: 'GET', path: '/v1/institutions?q=lts' },
      getInstitution: { method: 'GET', path: '/v1/institutions/1894188' },
      getInstitutionHoldings: { method: 'GET', path: '/v1/institutions/1894188/holdings' },
      listCompanyExecutives: { method: 'GET', path: `/v1/companies/FRPH:US/executives` },
      listCompanyInsiderTransactions: { method: 'GET', path: '/v1/companies/TSLA:US/insiders' },
      listFilings: { method: 'GET', path: '/v1/filings' },
      listCompanyFilings: { method: 'GET', path: '/v1/companies/MSFT:US/filings?forms=10-K' },
      getFiling: { method: 'GET', path: `/v1/filings/${filing.accession as string}` },
      listDocuments: { method: 'GET', path: '/v1/documents' },
      getDocument: { method: 'GET', path: `/v1/documents/${doc.id as number}` },
      listDocumentPages: { method: 'GET', path: `/v1/documents/${doc.id as number}/pages` },
      getDocumentText: { method: 'GET', path: `/v1/documents/${doc.id as number}/text` },
      listTranscripts: { method: 'GET', path: '/v1/transcripts' },
      getTranscript: { method: 'GET', path: `/v1/transcripts/${transcript.id as number}` },
      search: { method: 'GET', path: '/v1/search?q=FRP%20Holdings' },
      getCoverage: { method: 'GET', path: '/v1/coverage/MSFT:US' },
      getFreshness: { method: 'GET', path: '/v1/status/freshness?last=200' },
      verifyCitation: { method: 'POST', path: '/v1/citations/verify', body: { provenance: msft.provenance } },
      createWebhookEndpoint: { method: 'POST', path: '/v1/webhook-endpoints', body: webhook },
      listWebhookEndpoints: { method: 'GET', path: '/v1/webhook-endpoints' },
      getWebhookEndpoint: { method: 'GET', path: `/v1/webhook-endpoints/${endpointId}` },
      updateWebhookEndpoint: { method: 'PATCH', path: `/v1/webhook-endpoints/${endpointId}`, body: { description: 'Filings and Form 4 desk' } },
      deleteWebhookEndpoint: { method: 'DELETE', path: `/v1/webhook-endpoints/${doomedId}` },
      rotateWebhookSecret: { method: 'POST', path: `/v1/webhook-endpoints/${endpointId}/rotate-secret` },
      sendWebhookTestEvent: { method: 'POST', path: `/v1/webhook-endpoints/${endpointId}/test`, body: { topic: 'filing.created' } },
      listWebhookDeliveries: { method: 'GET', path: `/v1/webhook-endpoints/${endpointId}/deliveries` },
      retryWebhookDelivery: { method: 'POST', path: `/v1/webhook-endpoints/${endpointId}/deliveries/${deliveryId}/retry` },
      recoverWebhookDeliveries: { method: 'POST', path: `/v1/webhook-endpoints/${endpointId}/recover`, body: { since: '2020-01-01T00:00:00Z' } },
      listEvents: { method: 'GET', path: '/v1/events' },
      healthz: { method: 'GET', path: '/healthz' },
      readyz: { method: 'GET', path: '/readyz' },
    };
    const filedDate = filing.filed_date as string;
    /** The quarter (2023Q3) of the period (2023-09-30) of a row this list serves. */
    const quarterOf = async (path: string): Promise<string> => {
      const period = ((await get(path)).data as Json[])[0]!.period as string;
      return `${period.slice(0, 4)}Q${Math.ceil(Number(period.slice(5, 7)) / 3)}`;
    };
    const quarter = await quarterOf('/v1/companies/MSFT:US/institutional-holders?limit=1');
    const managerQuarter = await quarterOf('/v1/institutions/1894188/holdings?limit=1');
    const trade = ((await get('/v1/companies/TSLA:US/insiders?limit=1')).data as Json[])[0]!;
    const callDate = (transcript.call as Json).date as string;
    /**
     * More successful calls, for the examples of the parameters the calls above leave out: the
     * common filters, on values of the fixture data (answers not recorded, only what was sent).
     */
    const parameterCalls: Record<string, string[]> = {
      listCompanies: ['/v1/companies?markets=US&tickers=MSFT&tickers=AAPL&active_only=true&limit=2', `/v1/companies?ciks=${msft.cik as string}&issuer_ids=${Number(msft.cik)}&direction=desc`],
      getCompany: [`/v1/companies/MSFT:US?as_of=${filedDate}`],
      listCompanySegments: ['/v1/companies/AAPL:US/segments?unit=million&limit=2&direction=desc'],
      listCompanyFacts: [`/v1/companies/AAPL:US/facts?concept=us-gaap:EarningsPerShareDiluted&as_of=${filedDate}&history=true&dimensioned=false&unit=as_reported&direction=desc`],
      getCompanyFinancials: [`/v1/companies/AAPL:US/financials?statement=income&period=annual&as_of=${filedDate}&unit=million`],
      getFundExposure: [`/v1/companies/MSFT:US/fund-exposure?sort=weight&etfs_only=false&limit=2&as_of=${filedDate}`],
      getCompanyInstitutionalHolders: [`/v1/companies/MSFT:US/institutional-holders?quarter=${quarter}&sort=value&limit=2&as_of=${filedDate}`],
      getSecurityInstitutionalHolders: [`/v1/securities/594918104/institutional-holders?quarter=${quarter}&limit=2`],
      listInstitutions: ['/v1/institutions?q=lts&limit=2'],
      getInstitutionHoldings: [`/v1/institutions/1894188/holdings?quarter=${managerQuarter}&sort=value&limit=2`],
      listCompanyExecutives: [`/v1/companies/FRPH:US/executives?category=executives&current_only=true&limit=2&as_of=${filedDate}`],
      listCompanyInsiderTransactions: [
        `/v1/companies/TSLA:US/insiders?owner=${(trade.owners as Json[])[0]!.cik as string}&codes=${trade.code as string}&classification=${trade.classification as string}&from=${trade.transaction_date as string}&to=${trade.transaction_date as string}` +
          `&derivative=false&kind=${trade.kind as string}&include_superseded=false&limit=2&direction=desc`,
      ],
      listFilings: [`/v1/filings?ciks=${msft.cik as string}&forms=10-K&filed_from=${filedDate}&filed_to=${filedDate}&limit=2&direction=desc`, '/v1/filings?forms=8-K&items=2.02&limit=2'],
      listCompanyFilings: [`/v1/companies/MSFT:US/filings?forms=10-K&filed_from=${filedDate}&filed_to=${filedDate}&limit=2&direction=desc`, '/v1/companies/MSFT:US/filings?forms=8-K&items=2.02&limit=2'],
      listDocuments: [`/v1/documents?symbols=${doc.symbol as string}&doc_types=${doc.doc_type as string}&doc_groups=${doc.doc_group as string}&limit=2&direction=desc`],
      listDocumentPages: [`/v1/documents/${doc.id as number}/pages?page=1&limit=2`],
      listTranscripts: [`/v1/transcripts?symbols=${transcript.symbol as string}&from=${callDate}&to=${callDate}&limit=2&direction=desc`],
      search: ['/v1/search?q=FRP%20Holdings&kinds=company&kinds=document&limit=2'],
      listWebhookEndpoints: ['/v1/webhook-endpoints?limit=2&direction=desc'],
      listWebhookDeliveries: [`/v1/webhook-endpoints/${endpointId}/deliveries?status=succeeded&limit=2`],
      listEvents: ['/v1/events?types=filing.created&limit=2'],
      getFreshness: ['/v1/status/freshness?last=200&form=10-K'],
    };

    /** The same operation on something that does not exist. */
    const unknown = (call: Call): Call => ({
      ...call,
      path: call.path
        .replace(/\/v1\/companies\/[^/?]+/, '/v1/companies/ZZZZ:US')
        .replace(/\/v1\/coverage\/[^/?]+/, '/v1/coverage/ZZZZ:US')
        .replace(/\/v1\/filings\/[^/?]+/, '/v1/filings/0000000000-00-000000')
        .replace(/\/v1\/documents\/\d+/, '/v1/documents/999999')
        .replace(/\/v1\/transcripts\/\d+/, '/v1/transcripts/999999')
        .replace(/\/v1\/institutions\/\d+/, '/v1/institutions/9999999999')
        .replace(/\/v1\/webhook-endpoints\/we_[^/?]+/, `/v1/webhook-endpoints/${goneId}`),
    });
    const pro = await platform.newKey('pro');
    await send(url, { method: 'GET', path: '/healthz' }, pro);
    await send(url, { method: 'GET', path: '/v1/companies/MSFT:US' }, pro);
    const free = await platform.newKey('free');
    const document = buildOpenApiDocument() as { paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>> };

    const byId = new Map(DOCUMENTED_ROUTES.map((r) => [r.operationId, r]));
    for (const [operationId, call] of Object.entries(success)) {
      const route = byId.get(operationId)!;
      const statuses = Object.keys(document.paths[openApiPath(route.url)]![route.method.toLowerCase()]!.responses);
      const ok = await send(url, call, key, call.method === 'GET' ? {} : { 'idempotency-key': randomBytes(8).toString('hex') });
      expect({ operationId, status: ok.status }).toEqual({ operationId, status: route.status ?? 200 });
      record(operationId, ok);
      recordRequest(route, call);
      for (const path of parameterCalls[operationId] ?? []) {
        const more = await send(url, { method: 'GET', path }, key);
        expect({ path, status: more.status }).toEqual({ path, status: 200 });
        recordRequest(route, { method: 'GET', path });
      }
      // An unknown field: in the body of a route that takes one, else in the query.
      const withExtra = route.body
        ? { ...call, body: { ...(call.body as Json | undefined), expand: 'all' } }
        : { ...call, path: `${call.path}${call.path.includes('?') ? '&' : '?'}expand=all` };
      const attempts: Record<string, () => Promise<Answer>> = {
        '400': () => sendTwoAuthorizations(url, call, key),
        '401': () => send(url, call),
        '413': () => send(url, call, key, { 'content-type': 'application/json' }, JSON.stringify({ padding: 'x'.repeat(70 * 1024) })),
        '403': () => send(url, call, free),
        '404': () => send(url, unknown(call), key),
        '415': () => send(url, call, key, { 'content-type': 'text/plain' }, 'not JSON'),
        '422': () => send(url, withExtra, key),
        '429': () => send(url, call, pro),
        '503': () => send(degradedUrl, call, key),
      };
      for (const status of statuses) {
        const attempt = attempts[status];
        if (!attempt) continue;
        const answer = await attempt();
        if (String(answer.status) === status) record(operationId, answer);
      }
      if (statuses.includes('409') && call.method === 'POST') {
        // Two requests with one Idempotency-Key at once: the second finds the first running.
        const idem = { 'idempotency-key': randomBytes(8).toString('hex') };
        const answers = await Promise.all([send(url, call, key, idem), send(url, call, key, idem)]);
        const busy = answers.find((a) => a.status === 409);
        if (busy) record(operationId, busy);
      }
    }
    // The degraded api's citation slot is busy while another verification runs.
    const verify = success.verifyCitation!;
    const answers = await Promise.all([0, 1, 2].map(() => send(degradedUrl, verify, key)));
    const busy = answers.find((a) => a.status === 503);
    if (busy) record('verifyCitation', busy);

    // A real payload of each event type the fixture pipeline produces, as its webhook body (the event without its id).
    // The projector writes events as it catches up: wait for each type. Not webhook.test: the docs make the ping as the test route does.
    for (const type of EVENT_TYPES.filter((t) => t !== 'webhook.test')) {
      const event = await expectEventually(
        async () => {
          const first = ((await get(`/v1/events?types=${type}&limit=1`)).data as Json[])[0];
          if (!first) throw new Error(`no ${type} event in the feed yet`);
          return first;
        },
        { timeoutMs: 60_000, intervalMs: 250 },
      );
      const { id: _id, ...body } = event;
      events[type] = exampleOf(realOrigins(body));
    }

    // What the real app cannot be made to answer here (a server fault, a dependency down, a race
    // not won): the problem the api builds for that error, with the page's words as its detail.
    const fallbacks: string[] = [];
    for (const route of DOCUMENTED_ROUTES) {
      const responses = document.paths[openApiPath(route.url)]![route.method.toLowerCase()]!.responses as Record<string, { content?: unknown; $ref?: string }>;
      for (const [status, response] of Object.entries(responses)) {
        if (!(response.content || response.$ref) || recorded[route.operationId]?.[status] !== undefined) continue;
        const slug: ProblemSlug =
          status === '500' ? 'internal-error' : status === '409' ? 'idempotency-key-in-use' : route.url === '/readyz' ? 'not-ready' : route.url === '/v1/citations/verify' ? 'busy' : 'unavailable';
        const page = PROBLEM_PAGES[slug];
        const problem =
          status === '500'
            ? platform.context.http.problemOf(new Error('example'), { id: 'req_01JDX7Q3T5Z8W6Y4V2R0N9M8K7', method: route.method, url: route.url })
            : { status: page.status, slug, title: page.title, detail: page.happened, headers: {} };
        record(route.operationId, { status: Number(status), body: problemBody(`${PUBLIC_BASE_URL}/docs`, problem, 'req_01JDX7Q3T5Z8W6Y4V2R0N9M8K7', openApiPath(route.url)) });
        fallbacks.push(`${route.operationId} ${status}`);
      }
    }
    console.log(`OpenAPI examples not recorded from a live answer (built by the api's problem mapper): ${fallbacks.join(', ')}`);
    // Only server faults, a dependency down (503) and idempotency races fall back.
    for (const f of fallbacks) expect(f).toMatch(/ (500|503|409)$/);

    if (WRITE) {
      writeFileSync(EXAMPLES_FILE, `${JSON.stringify(recorded, null, 2)}\n`);
      writeFileSync(REQUESTS_FILE, `${JSON.stringify(requests, null, 2)}\n`);
      writeFileSync(EVENTS_FILE, `${JSON.stringify(events, null, 2)}\n`);
    } else {
      // The same operations sent the same parameters and bodies (ids differ from run to run), and the same event types were produced.
      const sent = (r: RecordedRequests) => Object.fromEntries(Object.entries(r).map(([id, q]) => [id, { path: Object.keys(q.path).sort(), query: Object.keys(q.query).sort(), body: shapeOf(q.body) }]));
      expect(sent(RECORDED_REQUESTS)).toEqual(sent(requests));
      expect(Object.keys(RECORDED_EVENTS).sort()).toEqual(Object.keys(events).sort());
      expect(Object.keys(RECORDED_EXAMPLES).sort()).toEqual(Object.keys(recorded).sort());
      for (const [operationId, byStatus] of Object.entries(recorded)) {
        expect({ operationId, statuses: Object.keys(RECORDED_EXAMPLES[operationId]!).sort() }).toEqual({ operationId, statuses: Object.keys(byStatus).sort() });
        for (const [status, example] of Object.entries(byStatus)) {
          const live = shapeOf(example);
          expect({ operationId, status, shape: alignNullable(shapeOf(RECORDED_EXAMPLES[operationId]![status]), live) }).toEqual({ operationId, status, shape: live });
        }
      }
    }
  });
});
