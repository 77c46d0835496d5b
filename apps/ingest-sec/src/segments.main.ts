import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { NestFactory } from '@nestjs/core';
import { namespacedTopic, TOPICS, type FilingData, type RecordEnvelope } from '@app/contracts';
import { ConfigError, loadConfig } from '@app/config';
import { ConsumerRunner } from '@app/messaging';
import { createLogger } from '@app/observability';
import { parseFilingArg } from './segments/segment.mapper';
import { segmentsConfigSchema } from './segments/segments.config';
import { SegmentsModule } from './segments/segments.module';
import { SegmentsService } from './segments/segments.service';

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
  const app = await NestFactory.createApplicationContext(SegmentsModule.forRoot({ config, logger }), { logger: ['error', 'warn'] });
  app.enableShutdownHooks();
  const service = app.get(SegmentsService);
  try {
    if (filings.length) await service.execute({ filings });
    if (!values.follow) return 0;
    // Follow the filings topic: the effect (publishing the filing's segment records) is idempotent,
    // records carry deterministic ids, so a redelivered filing republishes identical records.
    const runner = new ConsumerRunner({
      settings: { brokers: config.KAFKA_BROKERS, clientId: config.KAFKA_CLIENT_ID ?? 'ingest-sec-segments', logger },
      groupId: config.SEGMENTS_GROUP_ID,
      topics: [namespacedTopic(TOPICS.filings, config.KAFKA_TOPIC_NAMESPACE)],
      fromBeginning: true,
      logger,
      handle: async (envelope) => {
        const command = SegmentsService.commandOf(envelope as RecordEnvelope<FilingData>);
        if (command) await service.execute({ filings: [command] });
      },
    });
    await runner.start();
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await runner.stop();
    return 0;
  } finally {
    await app.close();
  }
}

bootstrap().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error('ingest-sec segments failed:', err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);
