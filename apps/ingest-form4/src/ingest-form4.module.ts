import { Module, type DynamicModule } from '@nestjs/common';
import { namespacedTopic, TOPICS, type TopicDefinition } from '@app/contracts';
import type { EdgarPriority } from '@app/edgar';
import { createLogger, type Logger } from '@app/observability';
import type { IngestForm4Config } from './ingest-form4.config';
import { ingestForm4Providers } from './ingest-form4.providers';
import { FORM4_CONFIG, FORM4_TOPIC, Form4IngestService } from './form4-ingest.service';

export interface IngestForm4ModuleOptions {
  config: IngestForm4Config;
  /** Defaults to TOPICS.form4 under KAFKA_TOPIC_NAMESPACE. */
  topic?: TopicDefinition;
  logger?: Logger;
  /** EDGAR budget priority: `documents` (default) when following new filings, `backfill` for a one-shot run over history. */
  edgarPriority?: EdgarPriority;
}

/** Composition root of ingest-form4: logger, EDGAR client, Kafka publisher and the use case. */
@Module({})
export class IngestForm4Module {
  static forRoot(options: IngestForm4ModuleOptions): DynamicModule {
    const { config } = options;
    const logger = options.logger ?? createLogger({ level: config.LOG_LEVEL, name: 'ingest-form4' });
    return {
      module: IngestForm4Module,
      providers: [
        { provide: FORM4_CONFIG, useValue: config },
        { provide: FORM4_TOPIC, useValue: options.topic ?? namespacedTopic(TOPICS.form4, config.KAFKA_TOPIC_NAMESPACE) },
        ...ingestForm4Providers(config, logger, options.edgarPriority),
        Form4IngestService,
      ],
      exports: [Form4IngestService],
    };
  }
}
