import 'reflect-metadata';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { NestFactory } from '@nestjs/core';
import { ConfigError, loadConfig } from '@app/config';
import { createLogger } from '@app/observability';
import { exitStopped } from './run-stopped.error';
import { thirteenfConfigSchema, type ThirteenFConfig } from './thirteenf/thirteenf.config';
import { ThirteenFModule } from './thirteenf/thirteenf.module';
import { ThirteenFListService } from './thirteenf/thirteenf-list.service';
import { quarterOfListFile, thirteenFListPath } from './thirteenf/thirteenf-securities.mapper';

const USAGE = `usage: npm run ingest-sec -- 13f-list (--quarter <yyyy>Q<n> | --file <pdf> [--quarter <yyyy>Q<n>])
  --quarter  fetch SEC's Official List of Section 13(f) Securities for the quarter,
             e.g. --quarter 2020Q3 reads https://www.sec.gov/files/investment/13flist2020q3.pdf
  --file     read a saved copy of a list instead (its quarter from --quarter, else from its SEC name 13flist<yyyy>q<n>.pdf)`;

/**
 * Worker: the 13(f) securities list -> 13f-securities@1 on edgar.13f-securities.v1. Exit 0 when
 * published, 1 when SEC has no list for the quarter (404), 75 (EX_TEMPFAIL) when a broker outage
 * outlasted KAFKA_PUBLISH_RETRY_MS, 2 on a usage or configuration error.
 */
async function bootstrap(): Promise<number> {
  let args: { quarter?: string; file?: string; help?: boolean };
  try {
    args = parseArgs({ options: { quarter: { type: 'string' }, file: { type: 'string' }, help: { type: 'boolean', short: 'h' } } }).values;
  } catch (error) {
    // parseArgs throws a TypeError for an unknown option or a missing value.
    if (!(error instanceof TypeError)) throw error;
    console.error(`ingest-sec 13f-list: ${error.message}\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  const quarter = args.quarter?.toUpperCase() ?? (args.file ? quarterOfListFile(basename(args.file)) : null);
  if (!quarter) {
    console.error(`ingest-sec 13f-list: give --quarter (or a --file named 13flist<yyyy>q<n>.pdf)\n${USAGE}`);
    return 2;
  }
  let config: ThirteenFConfig;
  try {
    thirteenFListPath(quarter);
    config = loadConfig(thirteenfConfigSchema);
  } catch (error) {
    if (!(error instanceof ConfigError || error instanceof RangeError)) throw error;
    console.error(`ingest-sec 13f-list: ${error.message}`);
    return 2;
  }
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'ingest-sec-13f-list' });
  const app = await NestFactory.createApplicationContext(ThirteenFModule.forRoot({ config, logger }), { logger: ['error', 'warn'] });
  app.enableShutdownHooks();
  try {
    const summary = await app.get(ThirteenFListService).execute({ quarter, file: args.file });
    return summary.status === 'published' ? 0 : 1;
  } catch (error) {
    return exitStopped(error, 'ingest-sec 13f-list');
  } finally {
    await app.close();
  }
}

bootstrap().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error('ingest-sec 13f-list failed:', err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);
