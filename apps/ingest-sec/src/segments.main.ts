import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { NestFactory } from '@nestjs/core';
import { ConfigError, loadConfig } from '@app/config';
import { createLogger } from '@app/observability';
import { parseFilingArg } from './segments/segment.mapper';
import { segmentsConfigSchema } from './segments/segments.config';
import { SegmentsModule } from './segments/segments.module';
import { SegmentsService } from './segments/segments.service';
import { startSegmentsFollow } from './segments/segments-follow.runner';

const USAGE = `usage: node dist/apps/ingest-sec/src/segments.main.js (--filing <cik>:<accession>:<primary document path> ...| --follow)
  --filing  read one filing's primary inline-XBRL document (repeatable), e.g.
            --filing 320193:0000320193-25-000057:/Archives/edgar/data/320193/000032019325000057/aapl-20250329.htm
  --follow  consume edgar.filings.v1 and read every 10-Q / 10-K as it arrives (until SIGINT/SIGTERM)`;

/** Worker: inline-XBRL segment facts of 10-Q / 10-K filings -> segment@1 on edgar.segments.v1. */
async function bootstrap(): Promise<number> {
  const { values } = parseArgs({ options: { filing: { type: 'string', multiple: true }, follow: { type: 'boolean' }, help: { type: 'boolean' } } });
  if (values.help || (!values.follow && !values.filing?.length)) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  let config;
  let filings;
  try {
    config = loadConfig(segmentsConfigSchema);
    filings = (values.filing ?? []).map(parseFilingArg);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof RangeError) {
      console.error(`ingest-sec segments: ${error.message}`);
      return 2;
    }
    throw error;
  }
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'ingest-sec-segments' });
  const runId = `run_${randomUUID()}`;
  if (!values.follow) {
    const app = await NestFactory.createApplicationContext(SegmentsModule.forRoot({ config, logger }), { logger: ['error', 'warn'] });
    app.enableShutdownHooks();
    try {
      await app.get(SegmentsService).execute({ filings, runId });
      return 0;
    } finally {
      await app.close();
    }
  }

  // --follow: one module, booted as the worker; it consumes while the --filing documents are read.
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const worker = await startSegmentsFollow(config, { logger, runId });
  try {
    if (filings.length) await worker.app.get(SegmentsService).execute({ filings, runId });
    // Until SIGINT/SIGTERM; throws when the consumer died.
    await worker.follow({ once: false, signal: stop.signal });
    return 0;
  } finally {
    await worker.stop();
    logger.info({ runId, ...worker.runner.counters }, 'segments follow stopped');
  }
}

bootstrap().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error('ingest-sec segments failed:', err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);
