import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { NestFactory } from '@nestjs/core';
import { ConfigError, loadConfig } from '@app/config';
import { createLogger } from '@app/observability';
import { nportConfigSchema, parseFilingRef, type NportConfig, type NportFilingRef } from './nport/nport.config';
import { NportModule, startNportFollow } from './nport/nport.module';
import { NportIngestService } from './nport/nport-ingest.service';
import { exitStopped } from './run-stopped.error';

const USAGE = `usage: npm run ingest-sec -- nport (--filing <cik>:<accession> ... | --follow)
  --filing  read one N-PORT filing's primary_doc.xml (repeatable; NPORT_FILINGS and NPORT_DISCOVER add to it),
            e.g. --filing 2230:0000002230-23-000034
  --follow  consume edgar.filings.v1 and read every NPORT-P and NPORT-P/A as it arrives, whoever filed it
            (group NPORT_GROUP_ID; until SIGINT/SIGTERM)`;

/**
 * Worker: N-PORT fund holdings -> fund-holdings@1 on edgar.fund-holdings.v1.
 * Named filings: one run, then exit 0 when every filing was published, 1 when one was not, 75
 * (EX_TEMPFAIL) when a broker outage outlasted KAFKA_PUBLISH_RETRY_MS (run it again). `--follow`:
 * the named filings are read too, then it consumes until SIGINT/SIGTERM. 2 on a usage or
 * configuration error.
 */
async function bootstrap(): Promise<number> {
  let args: { filing?: string[]; follow?: boolean; help?: boolean };
  try {
    args = parseArgs({ options: { filing: { type: 'string', multiple: true }, follow: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } }).values;
  } catch (error) {
    // parseArgs throws a TypeError for an unknown option or a missing value.
    if (!(error instanceof TypeError)) throw error;
    console.error(`ingest-sec nport: ${error.message}\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  const extra: NportFilingRef[] = [];
  for (const arg of args.filing ?? []) {
    const ref = parseFilingRef(arg);
    if (!ref) {
      console.error(`ingest-sec nport: --filing wants <cik>:<accession>, got ${JSON.stringify(arg)}`);
      return 2;
    }
    extra.push(ref);
  }
  let config: NportConfig;
  try {
    config = loadConfig(nportConfigSchema);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`ingest-sec nport: ${error.message}`);
    return 2;
  }
  const filings = [...config.NPORT_FILINGS, ...extra];
  const named = filings.length > 0 || config.NPORT_DISCOVER.length > 0;
  if (!args.follow && !named) {
    console.error(`ingest-sec nport: no filings (give --filing <cik>:<accession>, NPORT_FILINGS or --follow)\n${USAGE}`);
    return 2;
  }
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'ingest-sec-nport' });
  const runId = `run_${randomUUID()}`;

  if (!args.follow) {
    const app = await NestFactory.createApplicationContext(NportModule.forRoot({ config, logger }), { logger: ['error', 'warn'] });
    app.enableShutdownHooks();
    try {
      const summary = await app.get(NportIngestService).execute({ filings, runId });
      return summary.filings.every((f) => f.status === 'published') ? 0 : 1;
    } catch (error) {
      return exitStopped(error, 'ingest-sec nport');
    } finally {
      await app.close();
    }
  }

  // --follow: one module, booted as the worker; it consumes while the named filings are read.
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const running = await startNportFollow(config, { logger, runId });
  try {
    if (named) await running.app.get(NportIngestService).execute({ filings, runId });
    // Until SIGINT/SIGTERM; throws when the consumer died.
    await running.follow({ once: false, signal: stop.signal });
    return 0;
  } finally {
    await running.stop();
    logger.info({ runId, ...running.runner.counters }, 'nport follow stopped');
  }
}

bootstrap().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error('ingest-sec nport failed:', err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);
