import type { Provider } from '@nestjs/common';
import { EdgarClient, edgarClientOf, type EdgarPriority } from '@app/edgar';
import { KafkaRecordPublisher, type KafkaSettings } from '@app/messaging';
import type { Logger } from '@app/observability';
import type { IngestForm4Config } from './ingest-form4.config';

// The same wiring as apps/ingest-sec's ingest.providers.ts: apps do not import each other.
export const INGEST_LOGGER = Symbol('INGEST_LOGGER');
export const KAFKA_SETTINGS = Symbol('KAFKA_SETTINGS');
export const RECORD_PUBLISHER = Symbol('RECORD_PUBLISHER');
export type { RecordPublisher } from '@app/messaging';

/** Kafka settings of the app (producer, and the follow consumer). */
export function kafkaSettingsOf(config: IngestForm4Config, logger?: Logger): KafkaSettings {
  return { brokers: config.KAFKA_BROKERS, clientId: config.KAFKA_CLIENT_ID ?? 'ingest-form4', publishRetryMs: config.KAFKA_PUBLISH_RETRY_MS, ...(logger ? { logger } : {}) };
}

/** Logger, EDGAR client (declared User-Agent, the shared budget at `edgarPriority`) and Kafka publisher. */
export function ingestForm4Providers(config: IngestForm4Config, logger: Logger, edgarPriority: EdgarPriority = 'documents'): Provider[] {
  return [
    { provide: INGEST_LOGGER, useValue: logger },
    { provide: KAFKA_SETTINGS, useValue: kafkaSettingsOf(config) },
    {
      provide: EdgarClient,
      useFactory: () => edgarClientOf(config, logger.child({ component: 'edgar' }), edgarPriority),
    },
    { provide: RECORD_PUBLISHER, useFactory: (settings: KafkaSettings) => new KafkaRecordPublisher(settings), inject: [KAFKA_SETTINGS] },
  ];
}
