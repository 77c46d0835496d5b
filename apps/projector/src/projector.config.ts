import { z } from 'zod';
import { databaseConfig, kafkaConfig, logConfig } from '@app/config';

export const projectorConfigSchema = kafkaConfig
  .extend(databaseConfig.shape)
  .extend(logConfig.shape)
  .extend({
    PROJECTOR_GROUP_ID: z.string().min(1).default('projector'),
  });

export type ProjectorConfig = z.infer<typeof projectorConfigSchema>;
