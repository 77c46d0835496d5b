import { z } from 'zod';
import { consumerConfig, databaseConfig, kafkaConfig, logConfig, opsConfig } from '@app/config';

export const projectorConfigSchema = kafkaConfig
  .extend(consumerConfig.shape)
  .extend(databaseConfig.shape)
  .extend(logConfig.shape)
  .extend(opsConfig.shape)
  .extend({
    PROJECTOR_GROUP_ID: z.string().min(1).default('projector'),
    // live: makes webhook events and deliveries, and relays the events to the event log topic.
    // log (a replay into a fresh database): makes none, inserts the logged events verbatim instead.
    PROJECTOR_EVENTS: z.enum(['live', 'log'], { error: "must be 'live' (make webhook events and relay them to the log) or 'log' (a replay: insert the logged events, make none)" }).default('live'),
    // Three partitions' batches at once: one is prepared in Node while others are written in Postgres.
    CONSUMER_PARTITIONS_CONCURRENTLY: consumerConfig.shape.CONSUMER_PARTITIONS_CONCURRENTLY.default(3),
  });

export type ProjectorConfig = z.infer<typeof projectorConfigSchema>;
