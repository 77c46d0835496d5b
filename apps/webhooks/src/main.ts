import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { WebhooksModule } from './webhooks.module';

/** Worker app: no HTTP server (the ops port aside); delivers the deliveries the projector queues (SIGTERM: graceful stop). */
async function bootstrap(): Promise<void> {
  const app = await NestFactory.createApplicationContext(WebhooksModule.forRoot(), { logger: ['error', 'warn'] });
  app.enableShutdownHooks();
}

bootstrap().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
