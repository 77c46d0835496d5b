import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { newRequestId, redactSecrets, type Logger } from '@app/observability';
import { authorizationHeaderCount } from '../auth/api-key.format';
import type { ApiKeysService, AuthResult, Principal } from '../auth/api-keys.service';
import { effectivePlan, type PlanLimits, type PlanTable } from '../rate-limit/plans';
import type { RateLimitDecision, RateLimiter } from '../rate-limit/rate-limiter';
import { DomainError, PROBLEM_OF_CODE, ValidationError, type ProblemSlug } from './api.errors';
import type { ApiMetrics } from './api.metrics';
import { OUTAGE_RETRY_AFTER_S, unavailableDependency, type DependencyOutages } from './dependency-outages';
import { registerCompression, registerConditionalGets, registerCors, type HttpConventions } from './http-conventions';
import type { Idempotency, RouteOutcome } from './idempotency';
import { registerBodyParsers } from './json-body.parser';
import { problemBody, sendProblem, type Problem } from './problem';
import { pathRegex, type BoundRoute } from './route.registry';
import { strictQueryItems } from './strict-query';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    public?: boolean;
  }
}

export interface HttpDeps {
  docsUrl: string;
  keys: ApiKeysService;
  limiter: RateLimiter;
  plans: PlanTable;
  logger: Logger;
  /**
   * The MCP endpoint, guarded like /v1; its 401 challenge names the OAuth protected-resource
   * metadata document (RFC 9728) so MCP clients can discover how to authenticate.
   */
  mcp?: { path: string; resourceMetadataUrl: string };
  /** Where Postgres/Redis outages seen by requests are counted and logged once. */
  outages?: DependencyOutages;
  /** CORS origins and the compression threshold. */
  conventions: HttpConventions;
  /** Idempotency-Key on POST. */
  idempotency: Idempotency;
  metrics: ApiMetrics;
}

/** Slug, title and detail of the 4xx statuses Fastify and Node produce themselves (any other 4xx: bad-request). */
const FRAMEWORK_PROBLEMS: Record<number, { slug: ProblemSlug; title: string; detail: string }> = {
  404: { slug: 'not-found', title: 'Not found', detail: 'Not found' },
  408: { slug: 'request-timeout', title: 'Request timeout', detail: 'The request was not received in full in time.' },
  413: { slug: 'payload-too-large', title: 'Payload too large', detail: 'The request body is larger than this server accepts.' },
  414: { slug: 'uri-too-long', title: 'URI too long', detail: 'A path parameter is longer than this server accepts.' },
  415: { slug: 'unsupported-media-type', title: 'Unsupported media type', detail: 'Request bodies are JSON only: send Content-Type: application/json, or no body.' },
  431: { slug: 'header-fields-too-large', title: 'Request header fields too large', detail: 'The request line and headers together are larger than this server accepts.' },
};
const BAD_REQUEST = { slug: 'bad-request', title: 'Bad request', detail: 'Bad request' } as const;

/** Details of framework errors whose message would say too little (or echo the URL). */
const FRAMEWORK_DETAILS: Record<string, string> = {
  FST_ERR_BAD_URL: 'The request URL is not valid (malformed percent-encoding).',
};

/** The request line's path of a raw request Node could not parse (no query, at most 2 KiB), if any. */
function rawPathOf(rawPacket: unknown): string | undefined {
  if (!Buffer.isBuffer(rawPacket)) return undefined;
  const line = rawPacket.toString('latin1', 0, Math.min(rawPacket.length, 4096)).split('\r\n', 1)[0] ?? '';
  const m = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ (\/[^ ?]{0,2048})[ ?]/.exec(line);
  return m?.[1];
}

function rateHeaders(reply: FastifyReply, d: RateLimitDecision): void {
  reply.header('x-ratelimit-limit', d.limit);
  reply.header('x-ratelimit-remaining', d.remaining);
  reply.header('x-ratelimit-reset', d.resetAt);
}

const AUTH_DETAIL = {
  missing: 'An API key is required: send Authorization: Bearer sk_live_... (or sk_test_...).',
  malformed: 'The Authorization header does not carry an API key of this service (Bearer sk_live_... or sk_test_...).',
  unknown: 'The API key is not valid.',
  revoked: 'The API key has been revoked.',
} as const;

/** `path` itself, or anything below it, with or without a query string. */
function isUnder(url: string, path: string): boolean {
  return url === path || url.startsWith(`${path}/`) || url.startsWith(`${path}?`);
}

/** The path of a request URL, percent-decoded as the router decodes it (undecodable: as sent). */
function decodedPath(url: string): string {
  const q = url.indexOf('?');
  const raw = q === -1 ? url : url.slice(0, q);
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** A draining instance's answer: another instance (or this one, restarted) takes the retry. */
const DRAINING_RETRY_AFTER_S = 1;
const DRAINING_DETAIL = 'This server is shutting down; retry the request.';

/**
 * The HTTP kernel shared by the Nest app and the plain Fastify build: request ids, auth and rate
 * limits (one onRequest hook), request logs, routes, problem+json errors, 404/405.
 */
export class ApiHttp {
  private readonly known: { regex: RegExp; methods: Set<string> }[] = [];

  constructor(private readonly deps: HttpDeps) {}

  async register(app: FastifyInstance, routes: BoundRoute[]): Promise<void> {
    app.decorateRequest('principal', null);
    registerBodyParsers(app);
    // Set when close() starts: requests that reach the server while it drains (pipelined or on a
    // busy keep-alive connection) get a problem+json 503 rather than Fastify's own plain JSON one.
    let draining = false;
    app.addHook('preClose', (done) => {
      draining = true;
      done();
    });
    // First, so every response carries it (CORS preflights, answered in the next hook, too).
    app.addHook('onRequest', (request, reply, done) => {
      reply.header('x-request-id', request.id);
      if (!draining) return done();
      reply.header('connection', 'close');
      sendProblem(reply, this.deps.docsUrl, 503, 'unavailable', 'Service unavailable', DRAINING_DETAIL, { 'retry-after': String(DRAINING_RETRY_AFTER_S) });
    });
    // Before the key check: a CORS preflight carries no key.
    await registerCors(app, this.deps.conventions);
    app.addHook('onRequest', (request, reply, done) => this.onRequest(request, reply, done));
    app.addHook('onResponse', (request, reply, done) => {
      this.deps.metrics.requestDone(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
      this.deps.logger.info(
        {
          request_id: request.id,
          method: request.method,
          url: request.url, // as sent: the logger censors keys and secret parameters in it
          status: reply.statusCode,
          duration_ms: Math.round(reply.elapsedTime * 100) / 100,
          key_id: request.principal?.keyId,
        },
        'request',
      );
      done();
    });
    await registerCompression(app, this.deps.conventions);
    // GET routes get ETags and 304s; the others (POST, PATCH, DELETE) none.
    await registerConditionalGets(
      app,
      (scope) => {
        for (const route of routes) if (route.definition.method === 'GET') this.addRoute(scope, route);
      },
      (request, reply) => this.refundNotModified(request, reply),
    );
    for (const route of routes) if (route.definition.method !== 'GET') this.addRoute(app, route);
  }

  private addRoute(app: FastifyInstance, { definition, handler }: BoundRoute): void {
    const entry = this.known.find((k) => k.regex.source === pathRegex(definition.url).source);
    if (entry) entry.methods.add(definition.method);
    else this.known.push({ regex: pathRegex(definition.url), methods: new Set([definition.method, ...(definition.method === 'GET' ? ['HEAD'] : [])]) });
    const execute = async (request: FastifyRequest, reply: FastifyReply): Promise<RouteOutcome | null> => {
      const body = await handler(request, reply);
      if (reply.sent) return null;
      // A handler may have set its own status (reply.code) and returned the body.
      const status = definition.status ?? reply.statusCode;
      if (definition.location !== undefined && status === 201) reply.header('location', definition.location(body));
      return { status, body: status === 204 ? undefined : body };
    };
    app.route({
      method: definition.method,
      url: definition.url,
      config: { public: definition.public === true },
      // Errors of this route's hooks (the key lookup, the rate limiter), body parser and serializers
      // end here, whichever handler the server had when the route was added: in the Nest app, routes
      // in a plugin scope kept Fastify's default handler, which answered a database outage with a
      // plain-JSON 500 carrying the driver's message and address.
      errorHandler: (err, request, reply) => {
        this.handleError(err, request, reply);
      },
      handler: async (request, reply) => {
        // The onRequest hook authenticates every guarded route; never run one without a principal.
        if (definition.public !== true && request.principal === null) {
          return sendProblem(reply, this.deps.docsUrl, 401, 'invalid-key', 'Invalid API key', AUTH_DETAIL.missing, { 'www-authenticate': 'Bearer' });
        }
        try {
          const extra = strictQueryItems(request.query, definition.query);
          if (extra.length) throw new ValidationError(extra);
          const outcome = definition.method === 'POST' ? await this.deps.idempotency.run(request, reply, () => execute(request, reply)) : await execute(request, reply);
          if (outcome === null) return reply;
          reply.code(outcome.status);
          return outcome.status === 204 ? reply.send() : outcome.body;
        } catch (err) {
          return this.handleError(err, request, reply);
        }
      },
    });
  }

  /**
   * Authentication and rate limit of guarded routes. A callback hook, not an async one: a cached
   * key and a token of this process's own (every request but a few) take no promise at all; the
   * store is asked only on a cache miss or when the lease runs out.
   */
  private onRequest(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    // Decided on the route Fastify matched (its router decodes the path: `/%761/...` is `/v1/...`),
    // never on the raw URL; a request no route matches is judged by its decoded path (404 or 401).
    const routeOptions = request.routeOptions;
    const route = routeOptions.url;
    const path = route ?? decodedPath(request.url);
    const mcp = this.deps.mcp !== undefined && isUnder(path, this.deps.mcp.path);
    const guarded = route !== undefined ? routeOptions.config.public !== true : mcp || isUnder(path, '/v1');
    if (!guarded) return done();
    const authorizations = authorizationHeaderCount(request.raw.rawHeaders);
    if (authorizations > 1) {
      sendProblem(reply, this.deps.docsUrl, 400, 'bad-request', 'Bad request', `The request carries ${authorizations} Authorization headers; send exactly one.`);
      return;
    }
    const authorization = request.headers.authorization;
    const auth = this.deps.keys.authenticateCached(authorization);
    if (auth !== undefined) return this.admit(auth, mcp, request, reply, done);
    this.deps.keys
      .authenticate(authorization)
      .then((a) => this.admit(a, mcp, request, reply, done))
      .catch(done);
  }

  private admit(auth: AuthResult, mcp: boolean, request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    if (!auth.ok) {
      this.refuseKey(auth, mcp, reply).catch(done);
      return;
    }
    request.principal = auth.principal;
    const plan = this.deps.plans[effectivePlan(auth.principal.plan, auth.principal.mode)];
    const local = this.deps.limiter.consumeLocal(auth.principal.keyId, plan);
    if (local) return this.limit(local, plan, reply, done);
    this.deps.limiter
      .consume(auth.principal.keyId, plan)
      .then((d) => this.limit(d, plan, reply, done))
      .catch(done);
  }

  /**
   * A 304 costs no daily quota (as GitHub's conditional requests): the token the onRequest hook
   * took is given back, and X-RateLimit-Remaining says so. The refund is not awaited: a store
   * error loses one token of quota, never the answer.
   */
  private refundNotModified(request: FastifyRequest, reply: FastifyReply): void {
    const principal = request.principal;
    if (principal === null) return;
    const remaining = Number(reply.getHeader('x-ratelimit-remaining'));
    const limit = Number(reply.getHeader('x-ratelimit-limit'));
    if (Number.isFinite(remaining) && Number.isFinite(limit)) reply.header('x-ratelimit-remaining', Math.min(limit, remaining + 1));
    this.deps.limiter.refund(principal.keyId, Date.now() - reply.elapsedTime).catch((err: unknown) => {
      // An outage is logged once by the outage tracker, not once per 304.
      const dependency = unavailableDependency(err);
      if (dependency) this.deps.outages?.failed(dependency, err);
      else this.deps.logger.warn({ err, request_id: request.id }, 'rate limit refund of a 304 failed');
    });
  }

  /** 401, with the daily quota's headers when the key is known (revoked, or a wrong secret). */
  private async refuseKey(auth: Extract<AuthResult, { ok: false }>, mcp: boolean, reply: FastifyReply): Promise<void> {
    this.deps.metrics.authFailed(auth.reason);
    if (auth.known) {
      const plan = this.deps.plans[effectivePlan(auth.known.plan, auth.known.mode)];
      rateHeaders(reply, await this.deps.limiter.peek(auth.known.keyId, plan));
    }
    const params = [
      ...(mcp ? [`resource_metadata="${this.deps.mcp!.resourceMetadataUrl}"`] : []),
      ...(auth.reason === 'missing' ? [] : ['error="invalid_token"']),
    ];
    const challenge = params.length ? `Bearer ${params.join(', ')}` : 'Bearer';
    sendProblem(reply, this.deps.docsUrl, 401, 'invalid-key', 'Invalid API key', AUTH_DETAIL[auth.reason], { 'www-authenticate': challenge });
  }

  private limit(decision: RateLimitDecision, plan: PlanLimits, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    rateHeaders(reply, decision);
    if (decision.allowed) return done();
    this.deps.metrics.rateLimited(plan.plan, decision.refusedBy ?? 'daily');
    const detail =
      decision.refusedBy === 'burst'
        ? `Burst limit of ${plan.burstPerSecond} requests per second exceeded for the ${plan.plan} plan.`
        : `Daily quota of ${plan.dailyQuota} requests exceeded for the ${plan.plan} plan.`;
    sendProblem(reply, this.deps.docsUrl, 429, 'rate-limited', 'Too many requests', detail, { 'retry-after': String(decision.retryAfter) });
  }

  /** Every error, from routes or from the framework, ends here. 5xx internals never leave the process. */
  handleError(err: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
    // Framework errors (bad URL, too long a parameter) come before the onRequest hook set it.
    reply.header('x-request-id', request.id);
    if (!(err instanceof DomainError) && !(err instanceof ValidationError) && httpStatusOf(err) === 404) return this.handleNotFound(request, reply);
    const p = this.problemOf(err, request);
    return sendProblem(reply, this.deps.docsUrl, p.status, p.slug, p.title, p.detail, p.headers);
  }

  /** The problem an error becomes (route errors here, MCP tool errors in the same words). Logs 5xx. */
  problemOf(err: unknown, request: { id: string; method: string; url: string }): Problem {
    if (err instanceof ValidationError) return { status: 422, slug: 'validation-error', title: 'Invalid request parameters', detail: err.items, headers: {} };
    if (err instanceof DomainError) {
      const { status, slug, title } = PROBLEM_OF_CODE[err.code];
      return { status, slug, title, detail: err.detail, headers: err.headers };
    }
    const status = httpStatusOf(err);
    if (status !== undefined && status >= 400 && status < 500) {
      const known = FRAMEWORK_PROBLEMS[status] ?? BAD_REQUEST;
      const code = (err as { code?: unknown }).code;
      const detail =
        (typeof code === 'string' ? FRAMEWORK_DETAILS[code] : undefined) ??
        (err instanceof Error && /json/i.test(err.message) ? 'The request body is not valid JSON.' : known.detail);
      return { status, slug: known.slug, title: known.title, detail, headers: {} };
    }
    const dependency = unavailableDependency(err);
    if (dependency !== undefined) {
      this.deps.outages?.failed(dependency, err);
      return {
        status: 503,
        slug: 'unavailable',
        title: 'Service unavailable',
        detail: `A service this request needs is unavailable; retry after ${OUTAGE_RETRY_AFTER_S} seconds.`,
        headers: { 'retry-after': String(OUTAGE_RETRY_AFTER_S) },
      };
    }
    this.deps.logger.error({ err, request_id: request.id, method: request.method, url: request.url }, 'unhandled error');
    return { status: 500, slug: 'internal-error', title: 'Internal error', detail: `internal error; quote request id ${request.id} when reporting it`, headers: {} };
  }

  /**
   * Requests Node's HTTP parser rejects before Fastify sees them (a header block over 16 KiB,
   * an unknown method, a NUL byte in a header) and requests not received in full within the
   * request timeout: the same problem+json as every other error, with a fresh request id,
   * written on the socket, which is then closed. The server's `clientErrorHandler`.
   */
  handleClientError(err: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const status = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const requestId = newRequestId();
    const known = FRAMEWORK_PROBLEMS[status] ?? BAD_REQUEST;
    const detail = status !== 400 ? known.detail : err.code === 'HPE_INVALID_METHOD' ? 'The request method is not one this server knows.' : 'The request is not valid HTTP.';
    const instance = rawPathOf(err.rawPacket);
    const { instance: _none, ...withoutInstance } = problemBody(this.deps.docsUrl, { status, slug: known.slug, title: known.title, detail }, requestId, '');
    const body = JSON.stringify(instance === undefined ? withoutInstance : { ...withoutInstance, instance: redactSecrets(instance) });
    this.deps.logger.info({ request_id: requestId, status, code: err.code, url: instance }, 'client error');
    // A response already under way (a keep-alive request's) cannot be followed by another.
    const pending = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && !pending?.headersSent) {
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/problem+json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
          `x-request-id: ${requestId}\r\nconnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  }

  handleNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
    const q = request.url.indexOf('?');
    const path = q === -1 ? request.url : request.url.slice(0, q);
    const known = this.known.find((k) => k.regex.test(path));
    if (known && !known.methods.has(request.method)) {
      const allow = [...known.methods].join(', ');
      return sendProblem(reply, this.deps.docsUrl, 405, 'method-not-allowed', 'Method not allowed', `${request.method} is not allowed here; allowed: ${allow}.`, { allow });
    }
    return sendProblem(reply, this.deps.docsUrl, 404, 'not-found', 'Not found', `No route ${request.method} ${path}.`);
  }
}

/** Status of a framework error (Fastify's statusCode, Nest's getStatus()). */
function httpStatusOf(err: unknown): number | undefined {
  if (err === null || typeof err !== 'object') return undefined;
  const e = err as Partial<FastifyError> & { getStatus?: () => unknown };
  if (typeof e.getStatus === 'function') {
    const s = e.getStatus();
    if (typeof s === 'number') return s;
  }
  return typeof e.statusCode === 'number' ? e.statusCode : undefined;
}
