import type { Server } from 'node:http';
import Fastify, { type FastifyHttpOptions, type FastifyInstance } from 'fastify';
import { requestIdFrom } from '@app/observability';
import { createApiContext, type ApiContext, type ApiContextOptions } from './api.context';
import type { ApiConfig } from './config/api.config';
import type { ApiHttp } from './platform/api.http';

/** Longest a client may take to send a whole request (headers and body): a short body is a 408 after this. */
export const REQUEST_TIMEOUT_MS = 10_000;

/** Fastify options both builds share; `http` answers the errors Fastify and Node raise before any route runs. */
export function fastifyOptions(http: ApiHttp): FastifyHttpOptions<Server> {
  return {
    logger: false,
    genReqId: (req) => requestIdFrom(req.headers['x-request-id'], req.headers.traceparent),
    bodyLimit: 64 * 1024,
    // Path parameters up to 2 KiB reach validation (422); longer ones are a 414 problem (frameworkErrors).
    maxParamLength: 2048,
    // ApiHttp answers requests that arrive while the server closes (problem+json, not Fastify's body).
    return503OnClosing: false,
    // Bad percent-encoding and over-long parameters: problem+json like every other error.
    frameworkErrors: (err, request, reply) => {
      http.handleError(err, request, reply);
    },
    // Node's own rejections (431, unknown method, bad header bytes) and request timeouts (408).
    clientErrorHandler: (err, socket) => http.handleClientError(err, socket),
    requestTimeout: REQUEST_TIMEOUT_MS,
    // Node checks request timeouts this often (default 30 s): the 408 comes within a second of the
    // timeout. headersTimeout must be set here too: left at Node's 60 s default, Node 20 never
    // expired a request whose headers had arrived but whose body had not (measured).
    http: { connectionsCheckingInterval: 1_000, headersTimeout: REQUEST_TIMEOUT_MS },
  };
}

/**
 * The api on a plain Fastify instance: the same context, hooks, routes and error handling as the
 * Nest app (createApiApp), without Nest: the integration tests build it per test with inject().
 */
export async function buildApiServer(config: ApiConfig, options: ApiContextOptions = {}): Promise<{ server: FastifyInstance; context: ApiContext }> {
  const context = await createApiContext(config, options);
  const server = Fastify(fastifyOptions(context.http));
  server.setErrorHandler((err, request, reply) => context.http.handleError(err, request, reply));
  server.setNotFoundHandler((request, reply) => context.http.handleNotFound(request, reply));
  await context.http.register(server, context.routes);
  server.addHook('onClose', async () => context.close());
  return { server, context };
}
