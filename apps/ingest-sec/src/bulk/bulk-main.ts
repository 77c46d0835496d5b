import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { DynamicModule, INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { z } from 'zod';
import { ConfigError, loadConfig } from '@app/config';
import { exitStopped } from '../run-stopped.error';
import type { BulkConfig } from './bulk.config';
import { isUrl } from './zip.source';

/** What a bulk load's entry (`bulk`, `facts-bulk`, `13f-bulk`) says of itself; the rest is shared. */
export interface BulkMainOptions<Cmd extends { source: string }, Cfg extends BulkConfig> {
  /** The ingest-sec command: `facts-bulk`. */
  name: string;
  usage: string;
  parseArgs(argv: readonly string[]): Cmd | { help: true } | { error: string };
  configSchema: z.ZodType<Cfg>;
  module(config: Cfg): DynamicModule;
  /**
   * The load: `source` is the archive as the checkpoint names it (a file by its absolute path, so a
   * rerun from elsewhere is the same archive).
   */
  run(app: INestApplicationContext, run: { command: Cmd; config: Cfg; source: string; signal: AbortSignal; tty: boolean }): Promise<{ status: string }>;
}

/**
 * Runs a bulk load from the command line and exits: 0 when done, 130 when stopped by SIGINT/SIGTERM
 * (the checkpoint resumes it), 2 on a usage or configuration error, 75 (EX_TEMPFAIL) when a broker
 * outage outlasted KAFKA_PUBLISH_RETRY_MS (the same command resumes), 1 on anything else. The
 * summary is printed on stdout as JSON.
 */
export function runBulkMain<Cmd extends { source: string }, Cfg extends BulkConfig>(options: BulkMainOptions<Cmd, Cfg>): void {
  const app = `ingest-sec ${options.name}`;
  bootstrap(options, app).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(`${app} failed:`, err instanceof Error ? (err.stack ?? err.message) : err);
      process.exit(1);
    },
  );
}

async function bootstrap<Cmd extends { source: string }, Cfg extends BulkConfig>(options: BulkMainOptions<Cmd, Cfg>, name: string): Promise<number> {
  const command = options.parseArgs(process.argv.slice(2));
  if ('help' in command) {
    console.log(options.usage);
    return 0;
  }
  if ('error' in command) {
    console.error(`${name}: ${command.error}\n${options.usage}`);
    return 2;
  }
  let config: Cfg;
  try {
    config = loadConfig(options.configSchema);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`${name}: ${error.message}`);
      return 2;
    }
    throw error;
  }
  if (isUrl(command.source) && !config.EDGAR_USER_AGENT) {
    console.error(`${name}: reading a URL needs EDGAR_USER_AGENT ("Company contact@company.example"), as SEC requires`);
    return 2;
  }
  if (!isUrl(command.source) && !existsSync(command.source)) {
    console.error(`${name}: no such file: ${command.source}`);
    return 2;
  }
  const app = await NestFactory.createApplicationContext(options.module(config), { logger: ['error', 'warn'] });
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const source = isUrl(command.source) ? command.source : resolve(command.source);
    const summary = await options.run(app, { command, config, source, signal: stop.signal, tty: process.stderr.isTTY === true });
    console.log(JSON.stringify(summary, null, 2));
    return summary.status === 'stopped' ? 130 : 0;
  } catch (error) {
    return exitStopped(error, name);
  } finally {
    await app.close();
  }
}
