import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import { ConfigError, loadConfig } from '@app/config';
import { createLogger } from '@app/observability';
import { USAGE, form4LiveRefusal, ingestForm4ConfigSchema, parseForm4Args, type IngestForm4Config } from './ingest-form4.config';
import { IngestForm4Module } from './ingest-form4.module';
import { Form4IngestService, Form4IngestStoppedError, type Form4IngestSummary } from './form4-ingest.service';
import { startForm4Follow } from './form4-follow.runner';

/**
 * Worker: Form 4 / 4/A ownership XML -> form4@1 on edgar.form4.v1.
 * Exit 0 when every filing was published (or skipped as not covered), 1 when some failed or were
 * not found, 2 on a configuration or usage error, 75 (EX_TEMPFAIL) when a broker outage outlasted
 * KAFKA_PUBLISH_RETRY_MS: the checkpoint (FORM4_CHECKPOINT) lets the same command resume.
 */
async function bootstrap(): Promise<number> {
  const command = parseForm4Args(process.argv.slice(2));
  if ('help' in command) {
    console.log(USAGE);
    return 0;
  }
  if ('error' in command) {
    console.error(`ingest-form4: ${command.error}\n${USAGE}`);
    return 2;
  }
  let config: IngestForm4Config;
  try {
    config = loadConfig(ingestForm4ConfigSchema);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`ingest-form4: ${error.message}`);
      return 2;
    }
    throw error;
  }
  const filings = [...config.FORM4_FILINGS, ...command.filings];
  const liveRefusal = command.live ? form4LiveRefusal(filings.length, config) : null;
  if (liveRefusal) {
    console.error(`ingest-form4: ${liveRefusal}\n${USAGE}`);
    return 2;
  }
  if (filings.length === 0 && config.FORM4_SUBMISSIONS.kind !== 'list' && !command.follow) {
    console.error(`ingest-form4: nothing to do (no --filing, FORM4_FILINGS, FORM4_SUBMISSIONS or --follow)\n${USAGE}`);
    return 2;
  }
  // Named filings are history unless --live says the live poller missed them.
  const origin = command.live ? 'live' : 'backfill';
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'ingest-form4' });
  const runId = `run_${randomUUID()}`;
  if (!command.follow) {
    const app = await NestFactory.createApplicationContext(IngestForm4Module.forRoot({ config, logger, edgarPriority: 'backfill' }), { logger: ['error', 'warn'] });
    app.enableShutdownHooks();
    try {
      return report(await app.get(Form4IngestService).execute({ filings, origin, runId }));
    } catch (error) {
      return stopped(error);
    } finally {
      await app.close();
    }
  }

  // --follow: one module, booted as the worker. It consumes while the explicit and discovered
  // filings are read (both share the EDGAR client and its rate limit); records are idempotent.
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const follower = await startForm4Follow(config, { logger, runId });
  try {
    // A signal during the one-shot part stops the worker too (the batch in flight commits).
    const aborted = new Promise<null>((resolve) => stop.signal.addEventListener('abort', () => resolve(null), { once: true }));
    let summary: Form4IngestSummary | null;
    try {
      summary = await Promise.race([follower.service.execute({ filings, origin, runId }), aborted]);
    } catch (error) {
      return stopped(error);
    }
    if (!summary) {
      console.error('ingest-form4: interrupted before the filings were read');
      return 1;
    }
    let code = report(summary);
    const followed = await follower.follow({ once: command.once, signal: stop.signal });
    console.log(JSON.stringify(followed, null, 2));
    if (followed.dead_lettered > 0) code = 1;
    return code;
  } finally {
    await follower.stop();
  }
}

/** Prints the one-shot summary; the exit code it calls for. */
function report(summary: Form4IngestSummary): number {
  const problems = summary.filings.filter((f) => f.status === 'failed' || f.status === 'not_found');
  console.log(JSON.stringify({ runId: summary.runId, ...summary.counts, resumedFrom: summary.resumedFrom, durationMs: summary.durationMs, problems }, null, 2));
  return summary.counts.failed + summary.counts.not_found + summary.counts.discovery_errors > 0 ? 1 : 0;
}

/** A broker outage outlasted KAFKA_PUBLISH_RETRY_MS: say what was published and how to resume (any other error is rethrown). */
function stopped(error: unknown): number {
  if (!(error instanceof Form4IngestStoppedError)) throw error;
  const { runId, counts, resumedFrom, durationMs } = error.summary;
  console.error(`ingest-form4: ${error.message}`);
  console.error(JSON.stringify({ level: 'error', msg: 'ingest-form4 stopped', checkpoint: error.checkpointPath, runId, ...counts, resumedFrom, selected: error.selected, durationMs }));
  return 75; // EX_TEMPFAIL: try again later
}

bootstrap().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error('ingest-form4 failed:', err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);
