import { Inject, Injectable, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from '@app/observability';
import { namespacedTopic, TOPICS } from '@app/contracts';
import { KafkaRecordPublisher } from '@app/messaging';
import { createDataSource } from '@app/persistence';
import type { DataSource } from 'typeorm';
import type { ProjectorConfig } from './projector.config';
import { ProjectorController, WebhookEventLogController } from './projector.controller';
import { PROJECTOR_DATA_SOURCE, PROJECTOR_EVENT_RELAY, PROJECTOR_EVENTS_MODE, PROJECTOR_LOGGER, ProjectorService } from './projector.service';
import { WebhookEventRelay } from './webhook-event.relay';

/**
 * How long one relay step retries a publish the broker does not take before it gives up (the
 * events stay pending; the next step, a second later, tries again): short, since the step holds
 * its outbox rows' locks and a transaction meanwhile.
 */
const RELAY_PUBLISH_RETRY_MS = 5_000;

/** Closes the projector's pool after the transport has stopped consuming (Nest closes the server first). */
@Injectable()
export class ProjectorDatabase implements OnApplicationShutdown {
  constructor(@Inject(PROJECTOR_DATA_SOURCE) private readonly ds: DataSource) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.ds.isInitialized) await this.ds.destroy();
  }
}

/**
 * The projector: its controller declares the @EventPattern handler of every projected topic. In
 * live mode it relays its webhook events to the event log; in log mode (a replay) it consumes the
 * log instead (the log controller), and relays nothing.
 */
@Module({})
export class ProjectorModule {
  static forRoot(config: ProjectorConfig, logger: Logger): DynamicModule {
    return {
      module: ProjectorModule,
      controllers: config.PROJECTOR_EVENTS === 'log' ? [ProjectorController, WebhookEventLogController] : [ProjectorController],
      providers: [
        { provide: PROJECTOR_LOGGER, useValue: logger },
        { provide: PROJECTOR_EVENTS_MODE, useValue: config.PROJECTOR_EVENTS },
        {
          provide: PROJECTOR_DATA_SOURCE,
          useFactory: async () => {
            const ds = createDataSource({ url: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE, applicationName: 'projector' });
            return ds.initialize();
          },
        },
        ProjectorDatabase,
        ProjectorService,
        config.PROJECTOR_EVENTS === 'live'
          ? {
                provide: PROJECTOR_EVENT_RELAY,
                inject: [PROJECTOR_DATA_SOURCE],
                useFactory: (ds: DataSource) =>
                  new WebhookEventRelay(
                    ds,
                    new KafkaRecordPublisher({ brokers: config.KAFKA_BROKERS, clientId: `${config.KAFKA_CLIENT_ID ?? 'projector'}-event-log`, logger, publishRetryMs: RELAY_PUBLISH_RETRY_MS }),
                    namespacedTopic(TOPICS.webhookEvents, config.KAFKA_TOPIC_NAMESPACE),
                    logger,
                  ),
            }
          : { provide: PROJECTOR_EVENT_RELAY, useValue: null },
      ],
    };
  }
}
