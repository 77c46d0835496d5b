import { z } from 'zod';
import { EVENT_TYPES } from '@app/resources';
import { API_MODULES } from '../api.modules';
import { API_VERSION } from '../api.version';
import type { ParamSpec, ParamSpecs, ScalarSpec } from '../platform/query.validation';
import { openApiPath, type RouteDefinition } from '../platform/route.registry';
import { COMPONENT_SCHEMAS, eventTypeName } from './openapi.components';
import { eventExamples } from './webhooks-page';
import { API_TAGS, attachExamples, markdownSafeDescriptions, RECORDED_EXAMPLES, RECORDED_REQUESTS, type RecordedRequest } from './openapi.presentation';


/** Every documented route, in document order. */
export const DOCUMENTED_ROUTES: RouteDefinition[] = API_MODULES.flatMap((m) => Object.values(m.routes)).filter((r) => r.hidden !== true);

type Json = Record<string, unknown>;

function scalarJson(spec: ScalarSpec): Json {
  switch (spec.kind) {
    case 'string':
      return { type: 'string', format: spec.format, minLength: spec.minLength, maxLength: spec.maxLength, pattern: spec.pattern };
    case 'int':
      return { type: 'integer', minimum: spec.minimum, maximum: spec.maximum };
    case 'bool':
      return { type: 'boolean' };
    case 'enum':
      return { type: 'string', enum: [...spec.values] };
  }
}

function paramJson(spec: ParamSpec): Json {
  const base = spec.kind === 'array' ? { type: 'array', items: scalarJson(spec.items), maxItems: spec.maxItems ?? 100 } : scalarJson(spec);
  return JSON.parse(JSON.stringify({ ...base, default: spec.default })) as Json;
}

/** A recorded parameter value as its schema types it: an array parameter every value sent, a scalar the first. */
function typedExample(spec: ParamSpec, sent: string | string[] | undefined): unknown {
  if (sent === undefined) return undefined;
  const values = Array.isArray(sent) ? sent : [sent];
  const scalar = (s: ScalarSpec, v: string): unknown => (s.kind === 'int' ? Number(v) : s.kind === 'bool' ? v === 'true' : v);
  return spec.kind === 'array' ? values.map((v) => scalar(spec.items, v)) : scalar(spec, values[0]!);
}

function parameters(specs: ParamSpecs | undefined, where: 'query' | 'path', sent: RecordedRequest | undefined): Json[] {
  return Object.entries(specs ?? {}).map(([name, spec]) => ({
    name,
    in: where,
    required: where === 'path' || spec.required === true,
    description: spec.description,
    schema: paramJson(spec),
    example: typedExample(spec, sent?.[where][name]),
    ...(spec.kind === 'array' ? { style: 'form', explode: true } : {}),
  }));
}

const problemContent = (ref: string): Json => ({ 'application/problem+json': { schema: { $ref: `#/components/schemas/${ref}` } } });
const retryAfter: Json = { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } };
const rateHeaders: Json = {
  'X-RateLimit-Limit': { description: "The key's daily quota (requests per UTC day)", schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the daily quota', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Epoch seconds of the next daily reset (00:00 UTC)', schema: { type: 'integer' } },
  'X-Request-Id': { description: "The request's id (a well-formed X-Request-Id sent is kept, else a traceparent's trace id, else req_...); the request_id of any problem body", schema: { type: 'string' } },
};

/**
 * The errors many operations answer alike, declared once (components.responses) and referenced:
 * each carries the example recorded on the first operation that answers it.
 */
const SHARED_RESPONSES: Record<string, Json> = {
  BadRequest: {
    description: 'The request carries more than one Authorization header (whichever is valid); type ends in /errors/bad-request',
    content: problemContent('Problem'),
  },
  Unauthorized: { description: 'Missing or invalid API key (WWW-Authenticate: Bearer); type ends in /errors/invalid-key', content: problemContent('Problem') },
  RateLimited: {
    description: 'Burst limit or daily quota exceeded; type ends in /errors/rate-limited',
    headers: { ...rateHeaders, ...retryAfter },
    content: problemContent('Problem'),
  },
  InvalidQuery: { description: invalidDescription('GET'), content: problemContent('ValidationError') },
  InvalidBody: { description: invalidDescription('body'), content: problemContent('ValidationError') },
  UnexpectedBody: { description: invalidDescription('none'), content: problemContent('ValidationError') },
  PayloadTooLarge: { description: 'The body is larger than 64 KiB; type ends in /errors/payload-too-large', content: problemContent('Problem') },
  UnsupportedMediaType: {
    description: 'A non-empty body that is not JSON (a Content-Type other than application/json, or no Content-Type); type ends in /errors/unsupported-media-type',
    content: problemContent('Problem'),
  },
  InternalError: { description: 'Internal error (no internals disclosed; quote request_id)', content: problemContent('Problem') },
  Unavailable: {
    description: 'Postgres or Redis is unreachable; type ends in /errors/unavailable; retry after Retry-After seconds',
    headers: retryAfter,
    content: problemContent('Problem'),
  },
};
const sharedResponse = (name: keyof typeof SHARED_RESPONSES): Json => ({ $ref: `#/components/responses/${name}` });

/** Each shared response's example: the recorded one of the first operation referencing it that has one. */
function sharedResponses(paths: Record<string, Json>): Record<string, Json> {
  const shared = JSON.parse(JSON.stringify(SHARED_RESPONSES)) as Record<string, { content: Record<string, Json> }>;
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item) as { operationId: string; responses: Record<string, { $ref?: string }> }[]) {
      for (const [status, response] of Object.entries(op.responses)) {
        const name = response.$ref?.split('/').pop();
        const example = RECORDED_EXAMPLES[op.operationId]?.[status];
        if (!name || example === undefined) continue;
        for (const media of Object.values(shared[name]!.content)) media.example ??= example;
      }
    }
  }
  return shared;
}

/**
 * What the HTTP conventions add to every operation (platform/http-conventions.ts, idempotency.ts,
 * strict-query.ts): ETag/If-None-Match/304 on GET, Idempotency-Key/409 on POST, Location on 201.
 */
function conventions(route: RouteDefinition, responses: Json): Json[] {
  const ok = responses[String(route.status ?? 200)] as { headers?: Json } | undefined;
  if (route.method === 'GET') {
    if (ok) ok.headers = { ...ok.headers, ETag: { description: 'Strong validator of this response body: send it back as If-None-Match', schema: { type: 'string' } } };
    responses['304'] = { description: 'Not modified: If-None-Match names the current ETag (no body)' };
    return [{ name: 'If-None-Match', in: 'header', required: false, description: 'The ETag of a response held: 304 when it is still current', schema: { type: 'string' } }];
  }
  if (route.location && ok) ok.headers = { ...ok.headers, Location: { description: 'The URL of what was created', schema: { type: 'string' } } };
  if (route.method !== 'POST') return [];
  responses['409'] = {
    description: 'A request with the same Idempotency-Key is still running; type ends in /errors/idempotency-key-in-use; retry after Retry-After seconds',
    headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } },
    content: problemContent('Problem'),
  };
  return [
    {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Any unique string (a UUID): a retry with the same key and body within 24 h returns the first 2xx response again (Idempotent-Replayed: true) and does nothing; the same key with another body is a 422',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    },
  ];
}

/** What a route's 422 covers: its query parameters, and its body or the absence of one. */
function invalidDescription(kind: 'GET' | 'body' | 'none'): string {
  const query = 'Invalid parameters (an undeclared query parameter is extra_forbidden at ["query", name])';
  if (kind === 'GET') return query;
  if (kind === 'body') return `${query}, or an invalid body: a field the body does not declare, at any level, is extra_forbidden at its loc (["body", name])`;
  return `${query}, or a body: this route takes none, and any non-empty body is extra_forbidden at ["body"]`;
}

function bodyJson(schema: z.ZodType): Json {
  const s = z.toJSONSchema(schema, { io: 'input' }) as Json;
  delete s.$schema;
  return s;
}

const schemaRef = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

/** The named schemas, each nested named one a $ref; the union of events discriminated by `type`. */
function componentSchemas(): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of COMPONENT_SCHEMAS) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { uri: (id) => `#/components/schemas/${id}`, target: 'draft-2020-12' }) as { schemas: Record<string, Json> };
  // No $id: Swagger UI cannot resolve a fragment $id and renders every example as "string".
  for (const s of Object.values(schemas)) {
    delete s.$schema;
    delete s.$id;
  }
  schemas.Event!.discriminator = {
    propertyName: 'type',
    mapping: Object.fromEntries(EVENT_TYPES.map((type) => [type, `#/components/schemas/${eventTypeName(type)}Event`])),
  };
  return schemas;
}

const WEBHOOK_HEADERS: Json[] = [
  { name: 'webhook-id', in: 'header', required: true, description: 'The event id (evt_...): the same on every attempt, the id of the event in GET /v1/events; deduplicate on it', schema: { type: 'string' } },
  { name: 'webhook-timestamp', in: 'header', required: true, description: 'Seconds since the epoch when this attempt was signed: refuse one too far from now (replay)', schema: { type: 'string' } },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description: 'Standard Webhooks: space-separated v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>"> with the endpoint\'s signing secret (two during a rotation)',
    schema: { type: 'string' },
  },
];

const EVENT_SUMMARIES: Record<(typeof EVENT_TYPES)[number], string> = {
  'filing.created': 'A filing of a covered company was found: data is the filing as GET /v1/filings/{accession} serves it',
  'transcript.published': 'A call transcript passed the serving gate: data is the transcript as GET /v1/transcripts/{transcript_id} serves it',
  'ir_document.created': 'An IR document (or a filing exhibit) was first seen: data is the document as GET /v1/documents/{doc_id} serves it',
  'form4.filed': 'A Form 4 was filed: data is the filing with every row of Tables I and II as GET /v1/companies/{symbol}/insiders serves them',
  '13f.filed': 'A 13F filing of an institutional manager is complete: data is its summary',
  'webhook.test': 'The ping POST /v1/webhook-endpoints/{id}/test sends without a topic (test: true)',
};

/** The OpenAPI `webhooks`: what this service POSTs to a subscribed endpoint, one entry per event type. */
function webhooks(): Json {
  const examples = eventExamples();
  return Object.fromEntries(
    EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `${eventTypeName(type)[0]!.toLowerCase()}${eventTypeName(type).slice(1)}Webhook`,
          summary: type,
          description: `${EVENT_SUMMARIES[type]}. Signed with the Standard Webhooks scheme; retried with backoff until a 2xx.`,
          tags: ['webhooks'],
          security: [],
          parameters: WEBHOOK_HEADERS,
          requestBody: { required: true, content: { 'application/json': { schema: schemaRef(`${eventTypeName(type)}Webhook`), example: examples[type] } } },
          responses: {
            '200': { description: 'Any 2xx acknowledges the delivery (the body is ignored)' },
            '410': { description: 'Gone: the endpoint is disabled (disabled_reason gone) and receives no more deliveries' },
          },
        },
      },
    ]),
  );
}

/** The OpenAPI 3.1 document, generated from the route definitions and the zod schemas they validate with. */
export function buildOpenApiDocument(): Json {
  const schemas = componentSchemas();
  const ids = new Map<z.ZodType, string>(COMPONENT_SCHEMAS.map(([id, schema]) => [schema, id]));
  const paths: Record<string, Json> = {};
  for (const route of DOCUMENTED_ROUTES) {
    const responses: Json = {};
    const id = route.response ? ids.get(route.response) : undefined;
    if (route.response && !id) throw new Error(`${route.operationId}: its response schema is not named in COMPONENT_SCHEMAS (openapi.components.ts)`);
    const schema = id ? schemaRef(id) : {};
    const status = route.status ?? 200;
    responses[String(status)] =
      status === 204
        ? { description: 'No content', headers: rateHeaders }
        : { description: status === 201 ? 'Created' : status === 202 ? 'Accepted' : 'OK', headers: route.public ? undefined : rateHeaders, content: { 'application/json': { schema } } };
    if (!route.public) {
      responses['400'] = sharedResponse('BadRequest');
      responses['401'] = sharedResponse('Unauthorized');
      responses['429'] = sharedResponse('RateLimited');
    }
    if (route.errors?.includes(403)) responses['403'] = { description: 'The plan does not include this (webhooks: builder and above; sk_test_ keys count as free); type ends in /errors/plan-required', content: problemContent('Problem') };
    // Every route: an undeclared query parameter is extra_forbidden; so is an undeclared body field, or any body on a route without one.
    responses['422'] = sharedResponse(route.method === 'GET' ? 'InvalidQuery' : route.body ? 'InvalidBody' : 'UnexpectedBody');
    if (route.method !== 'GET') {
      responses['413'] = sharedResponse('PayloadTooLarge');
      responses['415'] = sharedResponse('UnsupportedMediaType');
    }
    if (route.errors?.includes(404)) {
      const what = route.url.includes('/webhook-endpoints/')
        ? 'Unknown webhook endpoint of this account (another account\'s id too); type ends in /errors/unknown-webhook-endpoint (unknown-delivery for a delivery)'
        : route.url.includes(':accession')
          ? 'Unknown filing; type ends in /errors/unknown-filing'
          : route.url.endsWith('/facts')
            ? 'Unknown symbol (type ends in /errors/unknown-symbol), or a concept the company never reported (/errors/unknown-concept; the detail names close ones)'
            : 'Unknown symbol; type ends in /errors/unknown-symbol';
      responses['404'] = { description: what, content: problemContent('Problem') };
    }
    // Every route behind an API key reads it from Postgres and counts it in Redis: 503 while either is down.
    if (route.errors?.includes(503)) {
      const searchTimeout = route.url === '/v1/search';
      const busy = route.url === '/v1/citations/verify' || searchTimeout;
      const what = route.url.startsWith('/v1/webhook-endpoints')
        ? 'Webhooks are not configured on this deployment; type ends in /errors/webhooks-unavailable'
        : searchTimeout
          ? 'The search ran longer than the server allows and was cancelled; type ends in /errors/search-timeout; retry after Retry-After seconds'
          : busy ? 'Too many verifications are running on this server; type ends in /errors/busy; retry after Retry-After seconds' : 'A dependency is down; type ends in /errors/not-ready';
      const outage = route.public ? '' : ' Or Postgres or Redis is unreachable; type ends in /errors/unavailable; retry after Retry-After seconds.';
      responses['503'] = { description: `${what}.${outage}`, headers: busy || !route.public ? retryAfter : undefined, content: problemContent('Problem') };
    } else if (!route.public) responses['503'] = sharedResponse('Unavailable');
    responses['500'] = sharedResponse('InternalError');
    const headerParameters = conventions(route, responses);
    const sent = RECORDED_REQUESTS[route.operationId];
    const path = openApiPath(route.url);
    paths[path] = {
      ...(paths[path] ?? {}),
      [route.method.toLowerCase()]: JSON.parse(JSON.stringify({
        operationId: route.operationId,
        summary: route.summary,
        description: route.description,
        tags: route.tags,
        security: route.public ? [] : undefined,
        parameters: [...parameters(route.path, 'path', sent), ...parameters(route.query, 'query', sent), ...headerParameters],
        requestBody: route.body ? { required: !route.bodyOptional, content: { 'application/json': { schema: bodyJson(route.body), example: sent?.body } } } : undefined,
        responses,
      })) as Json,
    };
  }
  attachExamples(paths);
  return markdownSafeDescriptions({
    openapi: '3.1.0',
    info: {
      title: 'Filings platform API',
      version: API_VERSION,
      license: { name: 'Proprietary', url: 'https://filings.example/terms' },
      description:
        'Read-oriented JSON API over company reference data and filings. Every /v1 route needs `Authorization: Bearer sk_live_...` ' +
        '(or `sk_test_...`, clamped to the free plan). Errors are RFC 9457 problems; invalid parameters answer 422 with Pydantic-style items. ' +
        'X-RateLimit-* headers describe the daily quota; the per-second burst limit answers 429 with Retry-After. ' +
        'Send one Authorization header: a request with two is a 400 (`bad-request`), whichever of them is valid. ' +
        'A method a path does not serve answers 405 (`method-not-allowed`) with an `Allow` header naming the ones it does: no operation lists it, as each operation is a method its path serves. ' +
        'Request bodies are JSON objects (`Content-Type: application/json`; any other media type is a 415) that declare every field they ' +
        'may hold: an unknown field is a 422 `extra_forbidden`, as an unknown query parameter is, and a route without a body refuses one ' +
        '(an empty body, with or without a Content-Type, is no body). ' +
        "Lists page by `cursor`, the previous page's `next_cursor`: an opaque token valid only for the same account, list, filters and direction (else 422 on `cursor`). " +
        'The same data is served to LLM agents by an MCP endpoint (Model Context Protocol, stateless Streamable HTTP) at `POST /mcp`: ' +
        'the same Bearer keys, plans and rate limits (each HTTP request counts), read-only tools whose results are these responses; ' +
        'its OAuth protected-resource metadata (RFC 9728) is at `/.well-known/oauth-protected-resource` (no authorization server yet: use an API key). ' +
        'Every problem `type` leads to a page saying what happened and what to do (the list: `/docs/errors`); changes are listed in the API changelog (`/docs/changelog`). ' +
        'Guides: webhooks (`/docs/webhooks`: the event catalog with a payload each, headers, signature verification, retries, replay) and the MCP server (`/docs/mcp`: its tools, their arguments, paging, how to connect).',
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    tags: API_TAGS,
    paths,
    webhooks: webhooks(),
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'API key: sk_live_<id>_<secret> or sk_test_<id>_<secret>' } },
      schemas,
      responses: sharedResponses(paths),
    },
  }) as Json;
}

/** The document as committed in apps/api/openapi.json. */
export function renderOpenApiDocument(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}
