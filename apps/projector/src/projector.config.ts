import { z } from 'zod';
import { consumerConfig, databaseConfig, kafkaConfig, logConfig, opsConfig } from '@app/config';

export const projectorConfigSchema = kafkaConfig
  .extend(consumerConfig.shape)
  .extend(databaseConfig.shape)
  .extend(logConfig.shape)
  .extend(opsConfig.shape)
  .extend({
    PROJECTOR_GROUP_ID: z.string().min(1).default('projector'),
  });

export type ProjectorConfig = z.infer<typeof projectorConfigSchema>;
