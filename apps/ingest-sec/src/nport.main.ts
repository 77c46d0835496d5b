import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { ConfigError, loadConfig } from '@app/config';
import { nportConfigSchema, parseFilingRef, type NportFilingRef } from './nport/nport.config';
import { NportModule } from './nport/nport.module';
import { NportIngestService } from './nport/nport-ingest.service';
import { exitStopped } from './run-stopped.error';

/**
 * Worker: one N-PORT run, then exit.
 * `node dist/apps/ingest-sec/src/nport.main.js --filing 2230:0000002230-23-000034 [--filing ...]`
 * (or NPORT_FILINGS=cik:accession,...). Exit 0 when every filing was published, 1 when one was
 * not, 2 on a usage or configuration error, 75 (EX_TEMPFAIL) when a broker outage outlasted
 * KAFKA_PUBLISH_RETRY_MS: run it again.
 */
async function bootstrap(): Promise<number> {
  let config;
  const extra: NportFilingRef[] = [];
  const args = process.argv.slice(2);
  for (let i = 0; i < args.length; i += 1) {
    if (args[i] !== '--filing') continue;
    const ref = parseFilingRef(args[i + 1] ?? '');
    if (!ref) {
      console.error(`ingest-sec nport: --filing wants <cik>:<accession>, got ${JSON.stringify(args[i + 1] ?? '')}`);
      return 2;
    }
    extra.push(ref);
    i += 1;
  }
  try {
    config = loadConfig(nportConfigSchema);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`ingest-sec nport: ${error.message}`);
      return 2;
    }
    throw error;
  }
  const filings = [...config.NPORT_FILINGS, ...extra];
  if (filings.length === 0) {
    console.error('ingest-sec nport: no filings (give --filing <cik>:<accession> or NPORT_FILINGS)');
    return 2;
  }
  const app = await NestFactory.createApplicationContext(NportModule.forRoot({ config }), { logger: ['error', 'warn'] });
  app.enableShutdownHooks();
  try {
    const summary = await app.get(NportIngestService).execute({ filings });
    return summary.filings.every((f) => f.status === 'published') ? 0 : 1;
  } catch (error) {
    return exitStopped(error, 'ingest-sec nport');
  } finally {
    await app.close();
  }
}

bootstrap().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error('ingest-sec nport failed:', err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);
