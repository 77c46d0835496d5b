import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { ConfigError, loadConfig } from '@app/config';
import { parseArgs, USAGE } from './cli.args';
import { ingestDecksConfigSchema } from './ingest-decks.config';
import { IngestDecksModule } from './ingest-decks.module';
import { DeckPublishStoppedError, DeckRejectedError, IngestDecksService } from './ingest-decks.service';
import { drainIrDocuments, startDecksWorker } from './ingest-decks.runner';

/**
 * Worker: slide-deck PDFs linked from IR pages -> document-text@1 records.
 *   node dist/apps/ingest-decks/src/main.js              long-running consumer of ir.documents.v1
 *   node dist/apps/ingest-decks/src/main.js --once       drain the topic to its current end, then exit
 *   node dist/apps/ingest-decks/src/main.js --url <pdf> --cik <cik> [--ticker --title --kind --live]
 * Returns the exit code; the consumer runs until SIGINT/SIGTERM, which stop it gracefully. --url
 * exits 1 when the PDF is rejected, 75 (EX_TEMPFAIL) when a broker outage outlasted
 * KAFKA_PUBLISH_RETRY_MS: run it again.
 */
async function bootstrap(): Promise<number> {
  const command = parseArgs(process.argv.slice(2));
  if ('help' in command) {
    console.log(USAGE);
    return 0;
  }
  if ('error' in command) {
    console.error(`ingest-decks: ${command.error}\n${USAGE}`);
    return 2;
  }
  let config;
  try {
    config = loadConfig(ingestDecksConfigSchema);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`ingest-decks: ${error.message}`);
      return 2;
    }
    throw error;
  }
  switch (command.mode) {
    case 'consume': {
      const stop = new AbortController();
      process.once('SIGINT', () => stop.abort());
      process.once('SIGTERM', () => stop.abort());
      // Until SIGINT/SIGTERM (the batch in flight finishes and commits); throws when the consumer died.
      console.log(JSON.stringify(await (await startDecksWorker({ config })).follow({ once: false, signal: stop.signal })));
      return 0;
    }
    case 'once':
      console.log(JSON.stringify(await drainIrDocuments({ config })));
      return 0;
    case 'url': {
      const app = await NestFactory.createApplicationContext(IngestDecksModule.forRoot({ config }), { logger: ['error', 'warn'] });
      app.enableShutdownHooks();
      // A PDF an operator names is read on demand, not discovered: its records are history (no webhook
      // event) unless --live says the crawl missed it.
      try {
        console.log(JSON.stringify(await app.get(IngestDecksService).execute({ link: command.link, origin: command.origin })));
        return 0;
      } catch (error) {
        if (error instanceof DeckPublishStoppedError) {
          console.error(`ingest-decks: ${error.message}`);
          console.error(JSON.stringify({ level: 'error', msg: 'ingest-decks stopped', url: error.url, contentHash: error.contentHash, partsPublished: error.partsPublished, parts: error.parts }));
          return 75; // EX_TEMPFAIL: try again later
        }
        if (!(error instanceof DeckRejectedError)) throw error;
        console.error(`ingest-decks: rejected (${error.code}): ${error.message}`);
        return 1;
      } finally {
        await app.close();
      }
    }
  }
}

bootstrap().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error('ingest-decks failed:', err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);
