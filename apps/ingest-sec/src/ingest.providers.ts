import type { Provider } from '@nestjs/common';
import { EdgarClient } from '@app/edgar';
import { KafkaRecordPublisher, type KafkaSettings } from '@app/messaging';
import type { Logger } from '@app/observability';

export const INGEST_LOGGER = Symbol('INGEST_LOGGER');
export const KAFKA_SETTINGS = Symbol('KAFKA_SETTINGS');
/** The RecordPublisher every ingest use case publishes through. */
export const RECORD_PUBLISHER = Symbol('RECORD_PUBLISHER');
export type { RecordPublisher } from '@app/messaging';

/** The environment every ingest use case reads (edgarConfig + kafkaConfig pieces). */
export interface IngestEnvironment {
  EDGAR_USER_AGENT: string;
  EDGAR_WWW_BASE_URL: string;
  EDGAR_DATA_BASE_URL: string;
  EDGAR_MAX_RPS: number;
  EDGAR_THROTTLE_PAUSE_MS: number;
  KAFKA_BROKERS: string[];
  KAFKA_CLIENT_ID?: string;
}

/** Logger, EDGAR client and Kafka publisher shared by every ingest-sec module (companies, filings, ...). */
export function sharedIngestProviders(config: IngestEnvironment, logger: Logger): Provider[] {
  return [
    { provide: INGEST_LOGGER, useValue: logger },
    { provide: KAFKA_SETTINGS, useValue: { brokers: config.KAFKA_BROKERS, clientId: config.KAFKA_CLIENT_ID ?? 'ingest-sec' } satisfies KafkaSettings },
    {
      provide: EdgarClient,
      useFactory: () =>
        new EdgarClient({
          userAgent: config.EDGAR_USER_AGENT,
          wwwBaseUrl: config.EDGAR_WWW_BASE_URL,
          dataBaseUrl: config.EDGAR_DATA_BASE_URL,
          maxRps: config.EDGAR_MAX_RPS,
          throttlePauseMs: config.EDGAR_THROTTLE_PAUSE_MS,
          logger: logger.child({ component: 'edgar' }),
        }),
    },
    { provide: RECORD_PUBLISHER, useFactory: (settings: KafkaSettings) => new KafkaRecordPublisher(settings), inject: [KAFKA_SETTINGS] },
  ];
}
