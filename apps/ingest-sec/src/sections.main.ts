import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { NestFactory } from '@nestjs/core';
import { ConfigError, loadConfig } from '@app/config';
import { createLogger } from '@app/observability';
import { parseFilingArg } from './segments/segment.mapper';
import { sectionsConfigSchema } from './sections/sections.config';
import { SectionsModule, startSectionsFollow } from './sections/sections.module';
import { SectionsService, type SectionsFilingCommand } from './sections/sections.service';

const USAGE = `usage: node dist/apps/ingest-sec/src/sections.main.js (--filing <cik>:<accession>:<primary document path> ...| --follow)
  --filing  read one 10-K's primary document (repeatable), e.g.
            --filing 1318605:0001628280-25-003063:/Archives/edgar/data/1318605/000162828025003063/tsla-20241231.htm
  --follow  consume edgar.filings.v1 and read the newest 10-K of each issuer as it arrives (until SIGINT/SIGTERM)`;

/** Worker: Items 1, 1A and 7 and the description of 10-K filings -> tenk-section@1 on edgar.tenk-sections.v1. */
async function bootstrap(): Promise<number> {
  const { values } = parseArgs({ options: { filing: { type: 'string', multiple: true }, follow: { type: 'boolean' }, help: { type: 'boolean' } } });
  if (values.help || (!values.follow && !values.filing?.length)) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  let config;
  let filings: SectionsFilingCommand[];
  try {
    config = loadConfig(sectionsConfigSchema);
    // The period comes from the cover page when the filing record is not at hand.
    filings = (values.filing ?? []).map((arg) => ({ ...parseFilingArg(arg), filedDate: null, reportPeriod: null }));
  } catch (error) {
    if (error instanceof ConfigError || error instanceof RangeError) {
      console.error(`ingest-sec sections: ${error.message}`);
      return 2;
    }
    throw error;
  }
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'ingest-sec-sections' });
  const runId = `run_${randomUUID()}`;
  if (!values.follow) {
    const app = await NestFactory.createApplicationContext(SectionsModule.forRoot({ config, logger }), { logger: ['error', 'warn'] });
    app.enableShutdownHooks();
    try {
      await app.get(SectionsService).execute({ filings, runId });
      return 0;
    } finally {
      await app.close();
    }
  }

  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const worker = await startSectionsFollow(config, { logger, runId });
  try {
    if (filings.length) await worker.app.get(SectionsService).execute({ filings, runId });
    await worker.follow({ once: false, signal: stop.signal });
    return 0;
  } finally {
    await worker.stop();
    logger.info({ runId, ...worker.runner.counters }, 'sections follow stopped');
  }
}

bootstrap().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error('ingest-sec sections failed:', err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);
