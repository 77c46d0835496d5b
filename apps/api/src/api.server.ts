import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { requestIdFrom } from '@app/observability';
import { createApiContext, type ApiContext, type ApiContextOptions } from './api.context';
import type { ApiConfig } from './config/api.config';

/** Fastify options both builds share. */
export function fastifyOptions(): FastifyServerOptions {
  return {
    logger: false,
    genReqId: (req) => requestIdFrom(req.headers['x-request-id']),
    bodyLimit: 64 * 1024,
    // Long path parameters reach validation (422) instead of Fastify's bare 414.
    maxParamLength: 2048,
    return503OnClosing: true,
  };
}

/**
 * The api on a plain Fastify instance: the same context, hooks, routes and error handling as the
 * Nest app (createApiApp), without Nest: the integration tests build it per test with inject().
 */
export async function buildApiServer(config: ApiConfig, options: ApiContextOptions = {}): Promise<{ server: FastifyInstance; context: ApiContext }> {
  const context = await createApiContext(config, options);
  const server = Fastify(fastifyOptions());
  server.setErrorHandler((err, request, reply) => context.http.handleError(err, request, reply));
  server.setNotFoundHandler((request, reply) => context.http.handleNotFound(request, reply));
  context.http.register(server, context.routes);
  server.addHook('onClose', async () => context.close());
  return { server, context };
}
