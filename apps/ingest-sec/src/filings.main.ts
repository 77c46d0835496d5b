import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { ConfigError } from '@app/config';
import { registerEdgarBudgetMetrics } from '@app/edgar';
import { createLogger, createMetricsRegistry, startOpsServer, type OpsServer } from '@app/observability';
import { FILINGS_USAGE, parseFilingsArgs, parseFilingsConfig, type FilingsConfig } from './filings/filings.config';
import { FilingsBackfillService } from './filings/filings-backfill.service';
import { FilingsLiveService } from './filings/filings-live.service';
import { FilingsQuarterService } from './filings/filings-quarter.service';
import { FilingsModule } from './filings/filings.module';
import { exitStopped } from './run-stopped.error';

/**
 * Filings worker.
 * `node dist/apps/ingest-sec/src/filings.main.js backfill --companies MSFT,TSLA --from 2024-01-01 --to 2025-12-31`
 * `node dist/apps/ingest-sec/src/filings.main.js live [--once] [--date YYYY-MM-DD] [--interval 60]`
 * `node dist/apps/ingest-sec/src/filings.main.js quarter --quarter 2024Q1 [--forms NPORT-P,NPORT-P/A]`
 */
async function bootstrap(): Promise<number> {
  const command = parseFilingsArgs(process.argv.slice(2));
  if ('help' in command) {
    console.log(FILINGS_USAGE);
    return 0;
  }
  if ('error' in command) {
    console.error(`ingest-sec filings: ${command.error}\n${FILINGS_USAGE}`);
    return 2;
  }
  let config: FilingsConfig;
  try {
    config = parseFilingsConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`ingest-sec filings: ${error.message}`);
      return 2;
    }
    throw error;
  }
  const app = await NestFactory.createApplicationContext(FilingsModule.forRoot({ config }), { logger: ['error', 'warn'] });
  app.enableShutdownHooks();
  try {
    if (command.mode === 'backfill') {
      let companies = command.companies;
      if (companies.length === 0) {
        const c = config.SEC_COVERAGE;
        if (c.kind !== 'list') {
          console.error('ingest-sec filings: backfill needs --companies (or SEC_COVERAGE as a list)');
          return 2;
        }
        companies = [...c.tickers, ...c.ciks];
      }
      try {
        const summary = await app.get(FilingsBackfillService).execute({ companies, from: command.from, to: command.to, checkpoint: config.FILINGS_CHECKPOINT });
        console.log(JSON.stringify(summary, null, 2));
        return summary.companies.every((c) => c.status === 'ok' || c.status === 'done_before') ? 0 : 1;
      } catch (error) {
        // A broker outage outlasted KAFKA_PUBLISH_RETRY_MS: what was published, and how to resume (exit 75).
        return exitStopped(error, 'ingest-sec filings');
      }
    }
    if (command.mode === 'quarter') {
      const summary = await app.get(FilingsQuarterService).execute(command);
      console.log(JSON.stringify(summary, null, 2));
      return summary.index === 'ok' ? 0 : 1;
    }
    const live = app.get(FilingsLiveService);
    const stop = () => live.stop();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    const ops = command.once ? null : await startLiveOps(config, live);
    try {
      await live.run({ once: command.once, date: command.date, intervalS: command.intervalS });
    } finally {
      await ops?.close();
    }
    return 0;
  } finally {
    await app.close();
  }
}

/** OPS_PORT: the poller's /healthz, /readyz and /metrics (its freshness stages, the EDGAR budget, the process). */
async function startLiveOps(config: FilingsConfig, live: FilingsLiveService): Promise<OpsServer | null> {
  if (config.OPS_PORT === undefined) return null;
  const registry = createMetricsRegistry();
  registry.registerMetric(live.freshness);
  registerEdgarBudgetMetrics(registry);
  return startOpsServer({
    host: config.OPS_HOST,
    port: config.OPS_PORT,
    logger: createLogger({ name: 'ingest-sec-filings', level: config.LOG_LEVEL }),
    // Nothing to wait on: the poller answers as long as it runs (an EDGAR outage is logged and retried).
    ready: () => Promise.resolve({ ready: true, checks: {} }),
    metrics: () => registry.metrics(),
  });
}

bootstrap().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error('ingest-sec filings failed:', err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);
