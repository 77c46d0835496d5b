import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { ConfigError, loadConfig } from '@app/config';
import { BulkBackfillService } from './bulk/bulk-backfill.service';
import { BULK_USAGE, bulkConfigSchema, parseBulkArgs } from './bulk/bulk.config';
import { BulkModule } from './bulk/bulk.module';
import { isUrl } from './bulk/zip.source';
import { exitStopped } from './run-stopped.error';

/**
 * Bulk backfill of filings (and listed companies) from SEC's nightly submissions.zip.
 * `node dist/apps/ingest-sec/src/bulk.main.js --submissions <path or URL> [--checkpoint <path>] [--restart]`
 * Exit 0 when done, 130 when stopped by SIGINT/SIGTERM, 2 on a usage or configuration error, 75
 * (EX_TEMPFAIL) when a broker outage outlasted KAFKA_PUBLISH_RETRY_MS: the same command resumes.
 */
async function bootstrap(): Promise<number> {
  const command = parseBulkArgs(process.argv.slice(2));
  if ('help' in command) {
    console.log(BULK_USAGE);
    return 0;
  }
  if ('error' in command) {
    console.error(`ingest-sec bulk: ${command.error}\n${BULK_USAGE}`);
    return 2;
  }
  let config;
  try {
    config = loadConfig(bulkConfigSchema);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`ingest-sec bulk: ${error.message}`);
      return 2;
    }
    throw error;
  }
  if (isUrl(command.submissions) && !config.EDGAR_USER_AGENT) {
    console.error('ingest-sec bulk: reading a URL needs EDGAR_USER_AGENT ("Company contact@company.example"), as SEC requires');
    return 2;
  }
  if (!isUrl(command.submissions) && !existsSync(command.submissions)) {
    console.error(`ingest-sec bulk: no such file: ${command.submissions}`);
    return 2;
  }
  const app = await NestFactory.createApplicationContext(BulkModule.forRoot({ config }), { logger: ['error', 'warn'] });
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const summary = await app.get(BulkBackfillService).execute({
      // A file by its absolute path: the checkpoint names the source, and a rerun from elsewhere is the same archive.
      source: isUrl(command.submissions) ? command.submissions : resolve(command.submissions),
      checkpointPath: command.checkpoint ?? config.BULK_CHECKPOINT,
      restart: command.restart,
      signal: stop.signal,
      tty: process.stderr.isTTY === true,
    });
    console.log(JSON.stringify(summary, null, 2));
    return summary.status === 'stopped' ? 130 : 0;
  } catch (error) {
    return exitStopped(error, 'ingest-sec bulk');
  } finally {
    await app.close();
  }
}

bootstrap().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error('ingest-sec bulk failed:', err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);
