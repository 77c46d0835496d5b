import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { answerArgumentless } from '@app/config';
import { WebhooksModule } from './webhooks.module';

const USAGE = `usage: npm run webhooks   (no arguments; settings from the environment, then .run/*.env)
  Delivers the webhook deliveries the projector queues, until SIGINT/SIGTERM (a graceful stop).
  Needs DATABASE_URL and WEBHOOK_SECRETS_KEY; OPS_PORT serves /healthz, /readyz and /metrics.
  Exit codes: 0 stopped, 1 failed (configuration, database), 2 bad input.`;

/** Worker app: no HTTP server (the ops port aside); delivers the deliveries the projector queues (SIGTERM: graceful stop). */
async function bootstrap(): Promise<void> {
  const answered = answerArgumentless('webhooks', process.argv.slice(2), USAGE);
  if (answered !== null) process.exit(answered);
  const app = await NestFactory.createApplicationContext(WebhooksModule.forRoot(), { logger: ['error', 'warn'] });
  app.enableShutdownHooks();
}

bootstrap().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
