import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { ConfigError, loadConfig } from '@app/config';
import { FACTS_USAGE, factsConfigSchema, parseFactsArgs } from './facts/facts.config';
import { FactsModule } from './facts/facts.module';
import { CompanyFactsService, factsRunSucceeded } from './facts/facts.service';
import { exitStopped } from './run-stopped.error';

/**
 * Company facts of named companies -> edgar.xbrl-facts.v1.
 * `node dist/apps/ingest-sec/src/facts.main.js --symbols AAPL:US,GOOGL:US [--cik 1997711]`
 * Exit 0 when every company was published or has no facts at SEC (404), 1 when one could not be
 * (unknown symbol, EDGAR error, unreadable file, a concept too large to publish), 2 on a usage or
 * configuration error, 75 when a broker outage outlasted KAFKA_PUBLISH_RETRY_MS (run it again).
 */
async function bootstrap(): Promise<number> {
  const command = parseFactsArgs(process.argv.slice(2));
  if ('help' in command) {
    console.log(FACTS_USAGE);
    return 0;
  }
  if ('error' in command) {
    console.error(`ingest-sec facts: ${command.error}\n${FACTS_USAGE}`);
    return 2;
  }
  let config;
  try {
    config = loadConfig(factsConfigSchema);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`ingest-sec facts: ${error.message}`);
      return 2;
    }
    throw error;
  }
  const app = await NestFactory.createApplicationContext(FactsModule.forRoot({ config }), { logger: ['error', 'warn'] });
  app.enableShutdownHooks();
  try {
    const summary = await app.get(CompanyFactsService).execute(command);
    console.log(JSON.stringify(summary, null, 2));
    return factsRunSucceeded(summary) ? 0 : 1;
  } catch (error) {
    return exitStopped(error, 'ingest-sec facts');
  } finally {
    await app.close();
  }
}

bootstrap().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error('ingest-sec facts failed:', err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);
