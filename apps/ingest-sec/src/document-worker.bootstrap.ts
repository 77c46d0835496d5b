import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { DynamicModule, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { z } from 'zod';
import { ConfigError, loadConfig } from '@app/config';
import type { RecordOrigin } from '@app/contracts';
import type { RunningWorker } from '@app/messaging';
import { createLogger, type Logger } from '@app/observability';
import { exitStopped } from './run-stopped.error';

/** What one document worker (sections, segments, 8-K, 13F) brings to the shared bootstrap. */
export interface DocumentWorker<C extends { LOG_LEVEL: string }, F> {
  /** `sections`: messages say `ingest-sec sections`, the logger is `ingest-sec-sections`. */
  name: string;
  usage: string;
  configSchema: z.ZodType<C>;
  /** `--filing <arg>` -> a command; throws RangeError on a malformed argument (exit 2). */
  filingOf: (arg: string) => F;
  module: (options: { config: C; logger: Logger }) => DynamicModule;
  service: Type<{ execute(command: { filings: readonly F[]; runId: string; origin?: RecordOrigin }): Promise<unknown> }>;
  startFollow: (config: C, options: { logger: Logger; runId: string }) => Promise<RunningWorker>;
  /** `--live` is offered: the service's execute takes `origin` and its records can make webhook events (8-K, 13F). */
  offersLive: boolean;
}

/** What a document worker's command line asks for. */
export interface DocumentWorkerArgs {
  filings: string[];
  follow: boolean;
  /** The --filing filings are ones the live poller missed: their records are live, not history. */
  live: boolean;
}

/** The arguments -> what to run, `help`, or the usage error (exit 2). */
export function parseDocumentWorkerArgs(argv: readonly string[], offersLive: boolean): DocumentWorkerArgs | { help: true } | { error: string } {
  let values: { filing?: string[]; follow?: boolean; live?: boolean; help?: boolean };
  try {
    values = parseArgs({
      args: [...argv],
      options: { filing: { type: 'string', multiple: true }, follow: { type: 'boolean' }, live: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    }).values;
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  if (values.help) return { help: true };
  if (values.live && !offersLive) return { error: '--live is not offered here: these records make no webhook event' };
  const filings = values.filing ?? [];
  // What --follow reads keeps its filing record's origin: --live only says what the named filings are.
  if (values.live && filings.length === 0) return { error: '--live marks the --filing filings as live discoveries: give at least one --filing' };
  if (!values.follow && filings.length === 0) return { error: 'give --filing or --follow' };
  return { filings, follow: values.follow ?? false, live: values.live ?? false };
}

/**
 * `--filing ... [--live]` reads those documents (as history, or as live discoveries) and exits 0, or 75 (EX_TEMPFAIL) when a broker outage
 * outlasted KAFKA_PUBLISH_RETRY_MS; `--follow` consumes edgar.filings.v1 until SIGINT/SIGTERM.
 * 2 on a usage or configuration error, 1 on any other failure.
 */
export function runDocumentWorker<C extends { LOG_LEVEL: string }, F>(worker: DocumentWorker<C, F>): void {
  bootstrap(worker).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(`ingest-sec ${worker.name} failed:`, err instanceof Error ? (err.stack ?? err.message) : err);
      process.exit(1);
    },
  );
}

async function bootstrap<C extends { LOG_LEVEL: string }, F>(worker: DocumentWorker<C, F>): Promise<number> {
  const args = parseDocumentWorkerArgs(process.argv.slice(2), worker.offersLive);
  if ('help' in args) {
    console.log(worker.usage);
    return 0;
  }
  if ('error' in args) {
    console.error(`ingest-sec ${worker.name}: ${args.error}\n${worker.usage}`);
    return 2;
  }
  let config: C;
  let filings: F[];
  try {
    config = loadConfig(worker.configSchema);
    filings = args.filings.map(worker.filingOf);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof RangeError) {
      console.error(`ingest-sec ${worker.name}: ${error.message}`);
      return 2;
    }
    throw error;
  }
  const logger = createLogger({ level: config.LOG_LEVEL, name: `ingest-sec-${worker.name}` });
  const runId = `run_${randomUUID()}`;
  // Named filings are history (the service's default) unless --live says the live poller missed them.
  const named = { filings, runId, ...(args.live ? { origin: 'live' as const } : {}) };
  if (!args.follow) {
    const app = await NestFactory.createApplicationContext(worker.module({ config, logger }), { logger: ['error', 'warn'] });
    app.enableShutdownHooks();
    try {
      await app.get(worker.service).execute(named);
      return 0;
    } catch (error) {
      return exitStopped(error, `ingest-sec ${worker.name}`);
    } finally {
      await app.close();
    }
  }

  // --follow: one module, booted as the worker; it consumes while the --filing documents are read.
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const running = await worker.startFollow(config, { logger, runId });
  try {
    if (filings.length) await running.app.get(worker.service).execute(named);
    // Until SIGINT/SIGTERM; throws when the consumer died.
    await running.follow({ once: false, signal: stop.signal });
    return 0;
  } finally {
    await running.stop();
    logger.info({ runId, ...running.runner.counters }, `${worker.name} follow stopped`);
  }
}
