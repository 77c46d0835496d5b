import { Module, type DynamicModule } from '@nestjs/common';
import { namespacedTopic, TOPICS, type TopicDefinition } from '@app/contracts';
import { KafkaRecordPublisher, type RecordPublisher } from '@app/messaging';
import { createLogger, type Logger } from '@app/observability';
import { INGEST_LOGGER, RECORD_PUBLISHER } from '../ingest.providers';
import type { ThirteenFDatasetConfig } from './thirteenf-dataset.config';
import { THIRTEENF_DATASET_CONFIG, THIRTEENF_DATASET_TOPIC, ThirteenFDatasetService } from './thirteenf-dataset.service';

export interface ThirteenFDatasetModuleOptions {
  config: ThirteenFDatasetConfig;
  /** Defaults to TOPICS.thirteenFHoldings under KAFKA_TOPIC_NAMESPACE. */
  topic?: TopicDefinition;
  logger?: Logger;
  publisher?: RecordPublisher;
}

/** Composition root of the 13F data-set load: config, topic, the shared Kafka publisher, the service. */
@Module({})
export class ThirteenFDatasetModule {
  static forRoot(options: ThirteenFDatasetModuleOptions): DynamicModule {
    const { config } = options;
    const logger = options.logger ?? createLogger({ level: config.LOG_LEVEL, name: 'ingest-sec-13f-bulk' });
    return {
      module: ThirteenFDatasetModule,
      providers: [
        { provide: THIRTEENF_DATASET_CONFIG, useValue: config },
        { provide: THIRTEENF_DATASET_TOPIC, useValue: options.topic ?? namespacedTopic(TOPICS.thirteenFHoldings, config.KAFKA_TOPIC_NAMESPACE) },
        { provide: INGEST_LOGGER, useValue: logger },
        options.publisher
          ? { provide: RECORD_PUBLISHER, useValue: options.publisher }
          : { provide: RECORD_PUBLISHER, useFactory: () => new KafkaRecordPublisher({ brokers: config.KAFKA_BROKERS, clientId: config.KAFKA_CLIENT_ID ?? 'ingest-sec-13f-bulk', publishRetryMs: config.KAFKA_PUBLISH_RETRY_MS }) },
        ThirteenFDatasetService,
      ],
      exports: [ThirteenFDatasetService],
    };
  }
}
