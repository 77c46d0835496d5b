import { Module, type DynamicModule } from '@nestjs/common';
import { namespacedTopic, TOPICS, type TopicDefinition } from '@app/contracts';
import { createLogger, type Logger } from '@app/observability';
import { sharedIngestProviders } from '../ingest.providers';
import type { SegmentsConfig } from './segments.config';
import { SEGMENTS_TOPIC, SegmentsService } from './segments.service';

export interface SegmentsModuleOptions {
  config: SegmentsConfig;
  /** Defaults to TOPICS.segments under KAFKA_TOPIC_NAMESPACE. */
  topic?: TopicDefinition;
  logger?: Logger;
}

/** Composition root of the segments use case of ingest-sec. */
@Module({})
export class SegmentsModule {
  static forRoot(options: SegmentsModuleOptions): DynamicModule {
    const { config } = options;
    const logger = options.logger ?? createLogger({ level: config.LOG_LEVEL, name: 'ingest-sec-segments' });
    return {
      module: SegmentsModule,
      providers: [
        { provide: SEGMENTS_TOPIC, useValue: options.topic ?? namespacedTopic(TOPICS.segments, config.KAFKA_TOPIC_NAMESPACE) },
        ...sharedIngestProviders(config, logger),
        SegmentsService,
      ],
      exports: [SegmentsService],
    };
  }
}
