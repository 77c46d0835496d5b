import { z } from 'zod';
import { consumerConfig, edgarConfig, kafkaConfig, logConfig } from '@app/config';

export const sectionsConfigSchema = edgarConfig
  .extend(kafkaConfig.shape)
  .extend(consumerConfig.shape)
  .extend(logConfig.shape)
  .extend({
    /** Consumer group when following edgar.filings.v1 (`--follow`). */
    SECTIONS_GROUP_ID: z.string().min(1).default('ingest-sec-sections'),
  });

export type SectionsConfig = z.infer<typeof sectionsConfigSchema>;
