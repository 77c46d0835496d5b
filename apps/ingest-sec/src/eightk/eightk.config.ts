import { z } from 'zod';
import { consumerConfig, edgarConfig, kafkaConfig, logConfig } from '@app/config';

export const eightkConfigSchema = edgarConfig
  .extend(kafkaConfig.shape)
  .extend(consumerConfig.shape)
  .extend(logConfig.shape)
  .extend({
    /** Consumer group when following edgar.filings.v1 (`--follow`). */
    EIGHTK_GROUP_ID: z.string().min(1).default('ingest-sec-eightk'),
    /**
     * Largest complete submission read, in bytes: a larger one (hundreds of MB of XBRL or
     * binaries) is dead-lettered as too large, not held in memory.
     */
    EIGHTK_MAX_SUBMISSION_BYTES: z.coerce.number().int().min(1_000_000).default(64_000_000),
  });

export type EightKConfig = z.infer<typeof eightkConfigSchema>;
