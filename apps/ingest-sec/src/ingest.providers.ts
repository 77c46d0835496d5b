import type { Provider } from '@nestjs/common';
import { EdgarClient, edgarClientOf, type EdgarEnvironment, type EdgarPriority } from '@app/edgar';
import { KafkaRecordPublisher, type KafkaSettings } from '@app/messaging';
import type { Logger } from '@app/observability';

export const INGEST_LOGGER = Symbol('INGEST_LOGGER');
export const KAFKA_SETTINGS = Symbol('KAFKA_SETTINGS');
/** The RecordPublisher every ingest use case publishes through. */
export const RECORD_PUBLISHER = Symbol('RECORD_PUBLISHER');
export type { RecordPublisher } from '@app/messaging';

/** The environment every ingest use case reads (edgarConfig + kafkaConfig pieces). */
export interface IngestEnvironment extends EdgarEnvironment {
  KAFKA_BROKERS: string[];
  KAFKA_CLIENT_ID?: string;
  KAFKA_PUBLISH_RETRY_MS?: number;
}

/**
 * Logger, EDGAR client and Kafka publisher shared by every ingest-sec module (companies, filings, ...).
 * `edgarPriority`: the EDGAR budget priority of the module's requests; followers reading the
 * documents of new filings keep `documents`, one-shot loads of history pass `backfill`.
 */
export function sharedIngestProviders(config: IngestEnvironment, logger: Logger, edgarPriority: EdgarPriority = 'documents'): Provider[] {
  return [
    { provide: INGEST_LOGGER, useValue: logger },
    { provide: KAFKA_SETTINGS, useValue: { brokers: config.KAFKA_BROKERS, clientId: config.KAFKA_CLIENT_ID ?? 'ingest-sec', publishRetryMs: config.KAFKA_PUBLISH_RETRY_MS } satisfies KafkaSettings },
    {
      provide: EdgarClient,
      useFactory: () => edgarClientOf(config, logger.child({ component: 'edgar' }), edgarPriority),
    },
    { provide: RECORD_PUBLISHER, useFactory: (settings: KafkaSettings) => new KafkaRecordPublisher(settings), inject: [KAFKA_SETTINGS] },
  ];
}
