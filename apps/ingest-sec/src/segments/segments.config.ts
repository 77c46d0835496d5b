import { z } from 'zod';
import { consumerConfig, edgarConfig, kafkaConfig, logConfig } from '@app/config';

export const segmentsConfigSchema = edgarConfig
  .extend(kafkaConfig.shape)
  .extend(consumerConfig.shape)
  .extend(logConfig.shape)
  .extend({
    /** Consumer group when following edgar.filings.v1 (`--follow`). */
    SEGMENTS_GROUP_ID: z.string().min(1).default('ingest-sec-segments'),
  });

export type SegmentsConfig = z.infer<typeof segmentsConfigSchema>;
