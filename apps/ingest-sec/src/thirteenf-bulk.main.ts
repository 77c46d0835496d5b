import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { ConfigError, loadConfig } from '@app/config';
import { parseThirteenFBulkArgs, THIRTEENF_BULK_USAGE, thirteenFDatasetConfigSchema } from './bulk/thirteenf-dataset.config';
import { ThirteenFDatasetModule } from './bulk/thirteenf-dataset.module';
import { ThirteenFDatasetService } from './bulk/thirteenf-dataset.service';
import { isUrl } from './bulk/zip.source';
import { exitStopped } from './run-stopped.error';

/**
 * 13F history from one of SEC's Form 13F data sets -> edgar.13f-holdings.v1, resumable.
 * Exit 0 when done, 130 when stopped by SIGINT/SIGTERM, 2 on a usage or configuration error, 75
 * when a broker outage outlasted KAFKA_PUBLISH_RETRY_MS: the same command resumes.
 */
async function bootstrap(): Promise<number> {
  const command = parseThirteenFBulkArgs(process.argv.slice(2));
  if ('help' in command) {
    console.log(THIRTEENF_BULK_USAGE);
    return 0;
  }
  if ('error' in command) {
    console.error(`ingest-sec 13f-bulk: ${command.error}\n${THIRTEENF_BULK_USAGE}`);
    return 2;
  }
  let config;
  try {
    config = loadConfig(thirteenFDatasetConfigSchema);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`ingest-sec 13f-bulk: ${error.message}`);
      return 2;
    }
    throw error;
  }
  if (isUrl(command.source) && !config.EDGAR_USER_AGENT) {
    console.error('ingest-sec 13f-bulk: reading a URL needs EDGAR_USER_AGENT ("Company contact@company.example"), as SEC requires');
    return 2;
  }
  if (!isUrl(command.source) && !existsSync(command.source)) {
    console.error(`ingest-sec 13f-bulk: no such file: ${command.source}`);
    return 2;
  }
  const app = await NestFactory.createApplicationContext(ThirteenFDatasetModule.forRoot({ config }), { logger: ['error', 'warn'] });
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const summary = await app.get(ThirteenFDatasetService).execute({
      // A file by its absolute path: the checkpoint names the source.
      source: isUrl(command.source) ? command.source : resolve(command.source),
      sourceUrl: command.sourceUrl,
      checkpointPath: command.checkpoint ?? config.THIRTEENF_BULK_CHECKPOINT,
      restart: command.restart,
      signal: stop.signal,
      tty: process.stderr.isTTY === true,
    });
    console.log(JSON.stringify(summary, null, 2));
    return summary.status === 'stopped' ? 130 : 0;
  } catch (error) {
    return exitStopped(error, 'ingest-sec 13f-bulk');
  } finally {
    await app.close();
  }
}

bootstrap().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error('ingest-sec 13f-bulk failed:', err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);
