import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { NestFactory } from '@nestjs/core';
import { ConfigError, helpRequested } from '@app/config';
import { padCik } from '@app/contracts';
import { createLogger } from '@app/observability';
import { loadIngestIrConfig, type IngestIrConfig } from './ingest-ir.config';
import { IngestIrModule, startIrFollow } from './ingest-ir.module';
import { IngestIrService, IrIngestStoppedError } from './ingest-ir.service';

/**
 * Worker. `--follow`: consumes edgar.companies.v1 and crawls each company's IR site (registry
 * entry, else SEC's investor_website, else the IR page its website links), recrawling every
 * IR_RECRAWL_INTERVAL_H hours, until SIGINT/SIGTERM. Without it: one crawl of every registry site
 * (or `--site <cik>`, repeatable), then exit: 0 all sites published or unchanged, 1 a site failed,
 * 2 configuration error, 75 (EX_TEMPFAIL) a broker outage outlasted KAFKA_PUBLISH_RETRY_MS: run it again.
 * `IR_USER_AGENT="FilingsPlatformBot/1.0 (+ops@filings.example)" IR_SITES_FILE=ir-sites.json node dist/apps/ingest-ir/main.js`
 */
const USAGE = `usage: npm run ingest-ir -- [--site <cik> ...] | --follow
  (no option)    crawl every registry site (IR_SITES or IR_SITES_FILE) once, then exit
  --site <cik>   crawl only this registry site (repeatable)
  --follow       consume edgar.companies.v1 and crawl each company's IR site, recrawling every
                 IR_RECRAWL_INTERVAL_H hours, until SIGINT/SIGTERM
Exit codes: 0 done, 1 a site failed, 2 configuration or usage error,
75 a broker outage outlasted KAFKA_PUBLISH_RETRY_MS (run it again).`;

async function bootstrap(): Promise<number> {
  const ciks: string[] = [];
  const args = process.argv.slice(2);
  if (helpRequested(args)) {
    console.log(USAGE);
    return 0;
  }
  let follow = false;
  for (let i = 0; i < args.length; i += 1) {
    if (args[i] === '--follow') {
      follow = true;
      continue;
    }
    if (args[i] !== '--site') {
      console.error(`ingest-ir: unexpected argument ${JSON.stringify(args[i])}\n${USAGE}`);
      return 2;
    }
    const cik = args[i + 1] ?? '';
    if (!/^\d{1,10}$/.test(cik)) {
      console.error(`ingest-ir: --site wants a CIK, got ${JSON.stringify(cik)}\n${USAGE}`);
      return 2;
    }
    ciks.push(padCik(cik));
    i += 1;
  }
  let config: IngestIrConfig;
  try {
    config = loadIngestIrConfig(process.env, (path) => readFileSync(path, 'utf8'));
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`ingest-ir: ${error.message}`);
      return 2;
    }
    throw error;
  }
  if (follow) return followCompanies(config);
  const unknown = ciks.filter((c) => !config.sites.some((s) => s.cik === c));
  if (config.sites.length === 0 || unknown.length > 0) {
    console.error(unknown.length > 0 ? `ingest-ir: --site ${unknown.join(', ')} not in the registry` : 'ingest-ir: no sites (set IR_SITES or IR_SITES_FILE)');
    return 2;
  }
  const app = await NestFactory.createApplicationContext(IngestIrModule.forRoot({ config }), { logger: ['error', 'warn'] });
  app.enableShutdownHooks();
  try {
    const summary = await app.get(IngestIrService).execute(ciks.length > 0 ? { ciks } : {});
    return summary.sites.every((s) => s.status !== 'failed') ? 0 : 1;
  } catch (error) {
    if (!(error instanceof IrIngestStoppedError)) throw error;
    const { runId, sites, durationMs } = error.summary;
    const count = (status: string) => sites.filter((s) => s.status === status).length;
    console.error(`ingest-ir: ${error.message}`);
    console.error(JSON.stringify({ level: 'error', msg: 'ingest-ir stopped', runId, stopped_at: error.cik, published: count('published'), unchanged: count('unchanged'), failed: count('failed'), remaining: error.remaining, durationMs }));
    return 75; // EX_TEMPFAIL: try again later
  } finally {
    await app.close();
  }
}

/** `--follow` until SIGINT/SIGTERM: 0 on a clean stop. */
async function followCompanies(config: IngestIrConfig): Promise<number> {
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'ingest-ir' });
  const runId = `run_${randomUUID()}`;
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  process.once('SIGTERM', () => stop.abort());
  const running = await startIrFollow(config, { logger, runId });
  try {
    await running.follow({ once: false, signal: stop.signal });
    return 0;
  } finally {
    await running.stop();
    logger.info({ runId, ...running.runner.counters }, 'ingest-ir follow stopped');
  }
}

bootstrap().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error('ingest-ir failed:', err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);
