import { z } from 'zod';
import { consumerConfig, databaseConfig, kafkaConfig, logConfig, opsConfig } from '@app/config';

export const projectorConfigSchema = kafkaConfig
  .extend(consumerConfig.shape)
  .extend(databaseConfig.shape)
  .extend(logConfig.shape)
  .extend(opsConfig.shape)
  .extend({
    PROJECTOR_GROUP_ID: z.string().min(1).default('projector'),
    // Three partitions' batches at once: one is prepared in Node while others are written in Postgres.
    CONSUMER_PARTITIONS_CONCURRENTLY: consumerConfig.shape.CONSUMER_PARTITIONS_CONCURRENTLY.default(3),
  });

export type ProjectorConfig = z.infer<typeof projectorConfigSchema>;
