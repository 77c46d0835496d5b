import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { ProjectorModule } from './projector.module';

/** Worker app: no HTTP server; consumes record topics and writes the read models. */
async function bootstrap(): Promise<void> {
  const app = await NestFactory.createApplicationContext(ProjectorModule, { logger: ['error', 'warn'] });
  app.enableShutdownHooks();
}

bootstrap().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
