import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { answerArgumentless, ConfigError, loadConfig } from '@app/config';
import { ingestSecConfigSchema } from './ingest-sec.config';
import { IngestSecModule } from './ingest-sec.module';
import { IngestSecService, IngestStoppedError } from './ingest-sec.service';

const USAGE = `usage: npm run ingest-sec -- companies   (no arguments; settings from the environment, then .run/*.env)
  One run: SEC's ticker map and the covered companies' submissions -> edgar.companies.v1, then exit.
  Exit codes: 0 done, 1 failed, 2 configuration or usage error, 75 a broker outage outlasted KAFKA_PUBLISH_RETRY_MS (run it again).`;

/** Worker: one run (ticker map -> submissions -> company@1 on Kafka), then exit. */
async function bootstrap(): Promise<number> {
  const answered = answerArgumentless('ingest-sec companies', process.argv.slice(2), USAGE);
  if (answered !== null) return answered;
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
