import { Module, type DynamicModule } from '@nestjs/common';
import { namespacedTopic, TOPICS, type TopicDefinition } from '@app/contracts';
import { createLogger, type Logger } from '@app/observability';
import { sharedIngestProviders } from '../ingest.providers';
import type { SegmentsConfig } from './segments.config';
import { SEGMENTS_TOPIC, SegmentsService, XBRL_FACTS_TOPIC } from './segments.service';

export interface SegmentsModuleOptions {
  config: SegmentsConfig;
  /** Defaults to TOPICS.segments under KAFKA_TOPIC_NAMESPACE. */
  topic?: TopicDefinition;
  /** Defaults to TOPICS.xbrlFacts under KAFKA_TOPIC_NAMESPACE. */
  factsTopic?: TopicDefinition;
  logger?: Logger;
}

/** Composition root of the segments (and inline facts) use case of ingest-sec. */
@Module({})
export class SegmentsModule {
  static forRoot(options: SegmentsModuleOptions): DynamicModule {
    const { config } = options;
    const logger = options.logger ?? createLogger({ level: config.LOG_LEVEL, name: 'ingest-sec-segments' });
    return {
      module: SegmentsModule,
      providers: [
        { provide: SEGMENTS_TOPIC, useValue: options.topic ?? namespacedTopic(TOPICS.segments, config.KAFKA_TOPIC_NAMESPACE) },
        { provide: XBRL_FACTS_TOPIC, useValue: options.factsTopic ?? namespacedTopic(TOPICS.xbrlFacts, config.KAFKA_TOPIC_NAMESPACE) },
        ...sharedIngestProviders(config, logger),
        SegmentsService,
      ],
      exports: [SegmentsService],
    };
  }
}
