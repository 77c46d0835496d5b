import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { ConfigError, loadConfig } from '@app/config';
import { ingestSecConfigSchema } from './ingest-sec.config';
import { IngestSecModule } from './ingest-sec.module';
import { IngestSecService } from './ingest-sec.service';

/** Worker: one run (ticker map -> submissions -> company@1 on Kafka), then exit. */
async function bootstrap(): Promise<number> {
  let config;
  try {
    config = loadConfig(ingestSecConfigSchema);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`ingest-sec: ${error.message}`);
      return 2;
    }
    throw error;
  }
  const app = await NestFactory.createApplicationContext(IngestSecModule.forRoot({ config }), { logger: ['error', 'warn'] });
  app.enableShutdownHooks();
  try {
    await app.get(IngestSecService).execute();
    return 0;
  } finally {
    await app.close();
  }
}

bootstrap().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error('ingest-sec failed:', err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);
