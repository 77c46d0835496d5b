import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { ConfigError, loadConfig } from '@app/config';
import { ingestSecConfigSchema } from './ingest-sec.config';
import { IngestSecModule } from './ingest-sec.module';
import { IngestSecService, IngestStoppedError } from './ingest-sec.service';

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
  } catch (error) {
    if (!(error instanceof IngestStoppedError)) throw error;
    // A broker outage outlasted KAFKA_PUBLISH_RETRY_MS: say what was published and how to resume.
    console.error(`ingest-sec: ${error.message}`);
    console.error(JSON.stringify({ level: 'error', msg: 'ingest-sec stopped', checkpoint: error.checkpointPath, ...error.summary }));
    return 75; // EX_TEMPFAIL: try again later
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
