import { z } from 'zod';
import { consumerConfig, edgarConfig, kafkaConfig, logConfig } from '@app/config';

export const eightkConfigSchema = edgarConfig
  .extend(kafkaConfig.shape)
  .extend(consumerConfig.shape)
  .extend(logConfig.shape)
  .extend({
    /** Consumer group when following edgar.filings.v1 (`--follow`). */
    EIGHTK_GROUP_ID: z.string().min(1).default('ingest-sec-eightk'),
  });

export type EightKConfig = z.infer<typeof eightkConfigSchema>;
