import { Module, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createApiContext, type ApiContextOptions } from './api.context';
import { fastifyOptions } from './api.server';
import type { ApiConfig } from './config/api.config';
import type { ApiHttp } from './platform/api.http';

/** Nest's error and 404 paths end in the same problem+json mapping as everything else. */
class ProblemFilter implements ExceptionFilter {
  constructor(private readonly http: ApiHttp) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    this.http.handleError(exception, ctx.getRequest<FastifyRequest>(), ctx.getResponse<FastifyReply>());
  }
}

/**
 * The api application: Nest with the Fastify adapter as composition root. Routes and hooks are
 * registered straight on the Fastify instance (no per-request Nest pipeline on the hot path);
 * Nest owns lifecycle and shutdown. Call `listen(port, host)`, and `close()` after.
 */
export async function createApiApp(config: ApiConfig, options: ApiContextOptions = {}): Promise<NestFastifyApplication> {
  const context = await createApiContext(config, options);
  try {
    class ApiModule {}
    Module({ providers: [{ provide: 'API_CONTEXT', useValue: context }] })(ApiModule);
    // bodyParser off: ApiHttp.register installs the api's own JSON parser (Nest's would collide with it at init).
    const app = await NestFactory.create<NestFastifyApplication>(ApiModule, new FastifyAdapter(fastifyOptions(context.http)), { logger: ['error', 'warn'], bodyParser: false });
    app.useGlobalFilters(new ProblemFilter(context.http));
    app.enableShutdownHooks();
    const fastify = app.getHttpAdapter().getInstance();
    await context.http.register(fastify, context.routes);
    fastify.addHook('onClose', async () => context.close());
    await app.init();
    return app;
  } catch (err) {
    await context.close();
    throw err;
  }
}
